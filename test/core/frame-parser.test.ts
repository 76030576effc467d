// The host's frame parser on its own (no Docker): frames split anywhere, huge lines with and
// without a frame mark, and the limits that keep a flood from costing host memory.
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, FrameParser, type FrameParserLimits, type HarnessEvent } from '../../src/core/sandbox/frame-parser.js';

const NONCE = '0123456789abcdef0123456789abcdef';
/** Another job's nonce that differs from this one's only at the end. */
const FORGED = `${NONCE.slice(0, 28)}ffff`;
const CHUNK = 64 * 1024;
const MB = 1_000_000;

/** A parser whose events are collected, neighbouring stray texts joined (chunking must not matter). */
function parser(limits?: FrameParserLimits) {
  const events: HarnessEvent[] = [];
  const frameParser = new FrameParser((event) => {
    const last = events[events.length - 1];
    if (event.kind === 'stray' && last?.kind === 'stray') last.text += event.text;
    else events.push(event);
  }, limits);
  return { frameParser, events };
}

const frame = (body: object) => `\x1e${NONCE} ${JSON.stringify(body)}\n`;
const DONE = frame({ t: 'done' });

/**
 * Pushes `size` bytes of `fill` (after `head`) in 64 KiB chunks and returns the most the parser
 * held at any point.
 */
function pushLongLine(frameParser: FrameParser, head: string, size: number, fill = 0x61): number {
  frameParser.push(Buffer.from(head));
  const chunk = Buffer.alloc(CHUNK, fill);
  let held = frameParser.retainedBytes;
  for (let sent = 0; sent < size; sent += CHUNK) {
    frameParser.push(sent + CHUNK <= size ? chunk : chunk.subarray(0, size - sent));
    held = Math.max(held, frameParser.retainedBytes);
  }
  return held;
}

const strayText = (events: HarnessEvent[]) => events.map((event) => (event.kind === 'stray' ? event.text : '')).join('');
const frames = (events: HarnessEvent[]) => events.flatMap((event) => (event.kind === 'frame' ? [event.frame.t] : []));

describe('frame parser: splitting the stream', () => {
  const ready = '\x1eready Python 3.11.2\n';
  const body = [
    'printed é😀 before\n',
    frame({ t: 'loaded', error: null }),
    'partial line\x1e',
    frame({ t: 'result', i: 0, value: 'ünï😀', error: null, ms: 1.5, stdout: 'x\n' }),
    `\x1e${FORGED} {"t":"done"}\n`,
    '\x1e{not json\n',
    DONE,
  ].join('');

  const whole = () => {
    const { frameParser, events } = parser();
    frameParser.push(Buffer.from(ready));
    frameParser.setNonce(NONCE);
    frameParser.push(Buffer.from(body));
    frameParser.end();
    return events;
  };

  it('reads the ready line, frames with the nonce, and everything else as stray output', () => {
    const events = whole();
    expect(events[0]).toEqual({ kind: 'ready', version: 'Python 3.11.2' });
    expect(frames(events)).toEqual(['loaded', 'result', 'done']);
    const result = events.find((event) => event.kind === 'frame' && event.frame.t === 'result');
    expect(result?.kind === 'frame' && result.frame.value).toBe('ünï😀');
    expect(strayText(events)).toBe(`printed é😀 before\npartial line\x1e\x1e${FORGED} {"t":"done"}\n\x1e{not json\n`);
  });

  it('gives the same events whichever byte the stream is split at', () => {
    const expected = whole();
    const bytes = Buffer.from(body);
    for (let at = 0; at <= bytes.length; at += 1) {
      const { frameParser, events } = parser();
      frameParser.push(Buffer.from(ready));
      frameParser.setNonce(NONCE);
      frameParser.push(bytes.subarray(0, at));
      frameParser.push(bytes.subarray(at));
      frameParser.end();
      expect(events, `split at byte ${at}`).toEqual(expected);
    }
  });

  it('gives the same events when the stream arrives one byte at a time', () => {
    const { frameParser, events } = parser();
    for (const byte of Buffer.from(ready)) frameParser.push(Buffer.from([byte]));
    frameParser.setNonce(NONCE);
    for (const byte of Buffer.from(body)) frameParser.push(Buffer.from([byte]));
    frameParser.end();
    expect(events).toEqual(whole());
  });

  it('passes an unfinished line on as stray output at the end', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    frameParser.push(Buffer.from(`\x1e${NONCE} {"t":"do`));
    frameParser.push(Buffer.from([0xc3]));
    expect(events).toEqual([]);
    frameParser.end();
    expect(events).toEqual([{ kind: 'stray', text: `\x1e${NONCE} {"t":"do\ufffd` }]);
    expect(frameParser.retainedBytes).toBe(0);
  });
});

describe('frame parser: huge lines', () => {
  it('holds no more than the frame limit for a 50 MB frame-like line, and finds the frame after it', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    const held = pushLongLine(frameParser, `\x1e${NONCE} {"t":"result","value":"`, 50 * MB);
    expect(held).toBeLessThanOrEqual(DEFAULT_LIMITS.frameBytes);
    expect(frameParser.retainedBytes).toBe(0);
    frameParser.push(Buffer.from(`"}\n${DONE}`));
    expect(frames(events)).toEqual(['done']);
    const stray = strayText(events);
    expect(stray.startsWith(`\x1e${NONCE} {"t":"result","value":"aaaa`)).toBe(true);
    expect(Buffer.byteLength(stray)).toBe(DEFAULT_LIMITS.strayBytes);
    expect(frameParser.discardedBytes).toBeGreaterThan(49 * MB - DEFAULT_LIMITS.strayBytes);
  });

  it('holds nothing for a 50 MB line without a frame mark, and finds the frame after it', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    const held = pushLongLine(frameParser, 'no mark: ', 50 * MB);
    expect(held).toBe(0);
    frameParser.push(Buffer.from(DONE));
    expect(frames(events)).toEqual(['done']);
    expect(Buffer.byteLength(strayText(events))).toBe(DEFAULT_LIMITS.strayBytes);
    expect(frameParser.discardedBytes).toBe(50 * MB + 'no mark: '.length - DEFAULT_LIMITS.strayBytes);
  });

  it('holds one short line at a time when a 50 MB line is full of frame marks', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    const held = pushLongLine(frameParser, '', 50 * MB, 0x1e);
    expect(held).toBe(0);
    frameParser.push(Buffer.from(`\n${DONE}`));
    expect(frames(events)).toEqual(['done']);
  });

  it('holds nothing for 50 MB of fake frames with another nonce', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    const fake = Buffer.from(`\x1e${FORGED} {"t":"result","i":0,"value":1,"error":null}\n`.repeat(1_000));
    let held = 0;
    for (let sent = 0; sent < 50 * MB; sent += fake.length) {
      frameParser.push(fake);
      held = Math.max(held, frameParser.retainedBytes);
    }
    frameParser.push(Buffer.from(DONE));
    expect(held).toBe(0);
    expect(frames(events)).toEqual(['done']);
    expect(Buffer.byteLength(strayText(events))).toBe(DEFAULT_LIMITS.strayBytes);
  });

  it('finds a frame right after an oversized frame-like line that ends without a newline', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    pushLongLine(frameParser, `\x1e${NONCE} `, 30 * MB);
    frameParser.push(Buffer.from(DONE));
    expect(frames(events)).toEqual(['done']);
  });
});

describe('frame parser: limits', () => {
  const small: FrameParserLimits = { strayBytes: 40, frameBytes: 64 };

  it('accepts a frame line of exactly the frame limit and passes a longer one on as stray', () => {
    const head = `${NONCE} {"t":"done","pad":"`;
    const exact = `${head}${'p'.repeat(small.frameBytes - head.length - 2)}"}`;
    expect(exact.length).toBe(small.frameBytes);
    const fits = parser(small);
    fits.frameParser.setNonce(NONCE);
    fits.frameParser.push(Buffer.from(`\x1e${exact}\n`));
    expect(frames(fits.events)).toEqual(['done']);

    const longer = exact.replace('"pad":"', '"pad":"p');
    const over = parser(small);
    over.frameParser.setNonce(NONCE);
    over.frameParser.push(Buffer.from(`\x1e${longer}\n`));
    expect(frames(over.events)).toEqual([]);
    expect(strayText(over.events)).toBe(`\x1e${longer}`.slice(0, small.strayBytes));
  });

  it('reports stray output up to the limit between two frames, counting the rest', () => {
    const { frameParser, events } = parser(small);
    frameParser.setNonce(NONCE);
    frameParser.push(Buffer.from(`${'a'.repeat(30)}${'b'.repeat(30)}${DONE}${'c'.repeat(50)}`));
    frameParser.end();
    expect(events).toEqual([
      { kind: 'stray', text: `${'a'.repeat(30)}${'b'.repeat(10)}` },
      // a frame carries its line's size (nonce, space and JSON), which the result budget counts
      { kind: 'frame', frame: { t: 'done' }, bytes: DONE.length - 2 },
      { kind: 'stray', text: 'c'.repeat(40) },
    ]);
    expect(frameParser.discardedBytes).toBe(20 + 10);
  });

  it('treats a frame whose i, ms or error line would not convert to a number as malformed', () => {
    const { frameParser, events } = parser();
    frameParser.setNonce(NONCE);
    const forged = [
      `\x1e${NONCE} {"t":"result","i":0,"value":1,"error":null,"ms":1e400,"stdout":""}\n`,
      `\x1e${NONCE} {"t":"begin","i":1e-400}\n`,
      `\x1e${NONCE} {"t":"loaded","error":{"type":"E","message":"m","line":1e400,"column":null}}\n`,
    ].join('');
    frameParser.push(
      Buffer.from(`${forged}\x1e${NONCE} {"t":"result","i":123456789012345678901234567890,"value":1e400,"error":null,"ms":1.5}\n`),
    );
    expect(frames(events)).toEqual(['result']);
    expect(strayText(events)).toBe(forged);
  });

  it('turns a character cut at the stray limit into one replacement character', () => {
    const { frameParser, events } = parser({ strayBytes: 4, frameBytes: 64 });
    frameParser.push(Buffer.from('ab😀cd'));
    frameParser.end();
    expect(strayText(events)).toBe('ab\ufffd');
    expect(strayText(events)).not.toContain('\ud83d');
  });
});
