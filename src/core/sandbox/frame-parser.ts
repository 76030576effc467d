import { StringDecoder } from 'node:string_decoder';
import { isJsonObject, parseExactJson } from '../../web/json.js';

/**
 * What the harness's stdout carries: the ready line, frames, and stray output (see docs/harness-protocol.md).
 * A frame carries its line's size in `bytes`. A frame line longer than `inlineFrameBytes` is not parsed
 * here, on the event loop: it comes as `frame-text` (the JSON after the nonce), for the consumer to
 * read off the event loop (`src/core/execute/json-worker.ts`); such a text may still turn out to be
 * malformed, and is then stray output.
 */
export type HarnessEvent =
  | { kind: 'ready'; version: string }
  | { kind: 'frame'; frame: Record<string, unknown>; bytes?: number }
  | { kind: 'frame-text'; text: string; bytes: number }
  | { kind: 'stray'; text: string };

export interface FrameParserLimits {
  /** Stray bytes passed on between two frames; the rest is counted and dropped. */
  strayBytes: number;
  /** The longest frame line (after the mark, without the newline); a longer one is stray output. */
  frameBytes: number;
  /** The longest frame line parsed here; a longer one is passed on unparsed, as `frame-text`. Unset: every frame is parsed here. */
  inlineFrameBytes?: number;
}

/**
 * A legitimate frame holds at most a 1 MiB return value and a case's capped output (at most six
 * bytes of JSON per captured byte), so 8 MiB leaves room for output caps up to about 1 MiB. Stray
 * output is reported capped to the case's output cap (64 KiB by default): 1 MiB is never shown.
 * A frame line up to 8 KiB costs under a millisecond to parse (lossless JSON, about 100 ms per MiB)
 * and its values little memory, so it is parsed here; a longer one is left to the consumer
 * (`frame-text`): parsed values of several MiB are as many objects, and collecting them stalls.
 */
export const DEFAULT_LIMITS: Readonly<FrameParserLimits> = { strayBytes: 1 << 20, frameBytes: 8 << 20, inlineFrameBytes: 8 << 10 };

const MARK = 0x1e;
const NEWLINE = 0x0a;
const MARK_BYTES = Buffer.from([MARK]);
const NEWLINE_BYTES = Buffer.from([NEWLINE]);

/**
 * The host reads `i`, `ms` and an error's `line` and `column` with Number(), which throws for a
 * lossless number that overflows or underflows (1e400): user code that recovered the nonce could
 * crash the service with such a frame, so it is malformed.
 */
function numbersConvert(frame: Record<string, unknown>): boolean {
  const error = isJsonObject(frame.error) ? frame.error : {};
  return [frame.i, frame.ms, error.line, error.column].every((field) => {
    try {
      Number(field);
      return true;
    } catch {
      return false;
    }
  });
}

/** A frame's JSON (the line after the nonce) as an object, or undefined when it is no frame (malformed). */
export function readFrame(json: string): Record<string, unknown> | undefined {
  try {
    const frame = parseExactJson(json);
    if (isJsonObject(frame) && numbersConvert(frame)) return frame;
  } catch {
    // a malformed frame line is stray output
  }
  return undefined;
}

/**
 * Stray output on its way out: decoded as UTF-8 as it arrives, at most `limit` bytes per stretch
 * between two frames, so that a flood costs neither memory nor time to decode what nobody sees.
 */
class StrayOutput {
  private readonly decoder = new StringDecoder('utf8');
  private kept = 0;
  discarded = 0;

  constructor(
    private readonly limit: number,
    private readonly emit: (text: string) => void,
  ) {}

  write(bytes: Buffer): void {
    const take = Math.min(bytes.length, this.limit - this.kept);
    if (take > 0) {
      this.kept += take;
      const text = this.decoder.write(bytes.subarray(0, take));
      if (text) this.emit(text);
    }
    this.discarded += bytes.length - take;
  }

  /** A frame ends the stretch: a character cut short before it is not completed by bytes after it. */
  restart(): void {
    const rest = this.decoder.end();
    if (rest) this.emit(rest);
    this.kept = 0;
  }
}

/**
 * Splits the harness's stdout into events. Frames need the job's nonce, so user code that prints
 * a frame-shaped line without it only produces stray output.
 *
 * A frame is a mark, the nonce and a space, then JSON up to the newline, with no other mark on the
 * way. Stray bytes are found with native searches for that frame start and passed on (or dropped)
 * a chunk at a time, so a flood costs no work per byte in JavaScript; only a line that begins like
 * a frame is held, as the chunks it came in, and only up to `frameBytes`. \x1e and \n never occur
 * inside a multi-byte UTF-8 character, so the bytes can be split before decoding.
 */
export class FrameParser {
  /** How a frame line begins: the ready line's, until the job's nonce is known. */
  private start = Buffer.from('\x1eready ');
  private nonce: Buffer | undefined;
  /** The line after a frame start's mark, while it may still be a frame: its chunks and their total size. */
  private line: Buffer[] | undefined;
  private lineBytes = 0;
  private readonly stray: StrayOutput;

  constructor(
    private readonly emit: (event: HarnessEvent) => void,
    private readonly limits: Readonly<FrameParserLimits> = DEFAULT_LIMITS,
  ) {
    this.stray = new StrayOutput(limits.strayBytes, (text) => emit({ kind: 'stray', text }));
  }

  /** Bytes held for a line that may still turn out to be a frame. */
  get retainedBytes(): number {
    return this.lineBytes;
  }

  /** Stray bytes dropped past the limit. */
  get discardedBytes(): number {
    return this.stray.discarded;
  }

  setNonce(nonce: string): void {
    this.nonce = Buffer.from(`${nonce} `, 'utf8');
    this.start = Buffer.concat([MARK_BYTES, this.nonce]);
  }

  push(chunk: Buffer): void {
    let position = 0;
    while (position < chunk.length) {
      position = this.line ? this.readLine(chunk, position) : this.readStray(chunk, position);
    }
  }

  end(): void {
    if (this.line) this.abandonLine();
    this.stray.restart();
  }

  /** Outside a frame: everything before the next frame start is stray. */
  private readStray(chunk: Buffer, from: number): number {
    const found = chunk.indexOf(this.start, from);
    const begin = found >= 0 ? found : this.cutStartAt(chunk, from);
    this.stray.write(chunk.subarray(from, begin));
    if (begin === chunk.length) return begin;
    this.line = [];
    this.lineBytes = 0;
    return begin + 1;
  }

  /** Where a frame start cut short by the end of the chunk begins (the chunk's length if none does). */
  private cutStartAt(chunk: Buffer, from: number): number {
    const tail = Math.max(from, chunk.length - this.start.length + 1);
    // the frame start holds one mark, at its beginning: only the tail's last mark can begin it
    const mark = chunk.subarray(tail).lastIndexOf(MARK);
    if (mark < 0) return chunk.length;
    const at = tail + mark;
    return chunk.subarray(at).equals(this.start.subarray(0, chunk.length - at)) ? at : chunk.length;
  }

  /**
   * Inside a possible frame: collect up to the newline; another mark first means it was no frame.
   * The mark is searched first and the newline only before it, so that no byte is searched twice
   * for a mark however many frame starts a chunk holds.
   */
  private readLine(chunk: Buffer, from: number): number {
    const mark = chunk.indexOf(MARK, from);
    const stop = mark < 0 ? chunk.length : mark;
    const newline = chunk.subarray(from, stop).indexOf(NEWLINE);
    const end = newline < 0 ? stop : from + newline;
    if (!this.hold(chunk.subarray(from, end))) return end;
    if (newline >= 0) {
      this.completeLine();
      return end + 1;
    }
    if (mark >= 0) this.abandonLine();
    return end;
  }

  /** Adds bytes to the held line; a line past the frame limit is no frame and goes out as stray. */
  private hold(bytes: Buffer): boolean {
    if (this.lineBytes + bytes.length > this.limits.frameBytes) {
      this.abandonLine();
      this.stray.write(bytes);
      return false;
    }
    if (bytes.length > 0) this.line?.push(bytes);
    this.lineBytes += bytes.length;
    return true;
  }

  /** What was held since the mark is stray output after all. */
  private abandonLine(): void {
    const line = this.line ?? [];
    this.line = undefined;
    this.lineBytes = 0;
    this.stray.write(MARK_BYTES);
    for (const piece of line) this.stray.write(piece);
  }

  private completeLine(): void {
    const line = Buffer.concat(this.line ?? [], this.lineBytes);
    this.line = undefined;
    this.lineBytes = 0;
    const event = this.classify(line);
    if (event) {
      this.stray.restart();
      this.emit(event);
      return;
    }
    this.stray.write(MARK_BYTES);
    this.stray.write(line);
    this.stray.write(NEWLINE_BYTES);
  }

  private classify(line: Buffer): HarnessEvent | undefined {
    if (this.nonce === undefined) {
      const text = line.toString('utf8');
      return text.startsWith('ready ') ? { kind: 'ready', version: text.slice(6) } : undefined;
    }
    // a line held from a frame start cut by a chunk's end may turn out not to carry the nonce
    if (!line.subarray(0, this.nonce.length).equals(this.nonce)) return undefined;
    const json = line.toString('utf8', this.nonce.length);
    if (line.length > (this.limits.inlineFrameBytes ?? Infinity)) return { kind: 'frame-text', text: json, bytes: line.length };
    const frame = readFrame(json);
    return frame ? { kind: 'frame', frame, bytes: line.length } : undefined;
  }
}
