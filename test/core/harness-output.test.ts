// What every driver does with a harness's output streams (src/core/sandbox/harness-output.ts), with
// no sandbox: events reach the job's listener, and once the host kills the harness nothing it still
// writes is decoded.
import { describe, expect, it } from 'vitest';
import type { HarnessEvent } from '../../src/core/sandbox/frame-parser.js';
import { HarnessOutput } from '../../src/core/sandbox/harness-output.js';

const NONCE = '0123456789abcdef0123456789abcdef';
const frame = (body: object) => Buffer.from(`\x1e${NONCE} ${JSON.stringify(body)}\n`);

function listening(): { output: HarnessOutput; events: HarnessEvent[] } {
  const output = new HarnessOutput();
  const events: HarnessEvent[] = [];
  output.setNonce(NONCE);
  output.listen((event) => events.push(event));
  return { output, events };
}

describe('harness output', () => {
  it('passes frames and stray output on to the listener', () => {
    const { output, events } = listening();
    output.stdout(frame({ t: 'result', i: 0, value: 1 }));
    output.stderr(Buffer.from('warning\n'));
    expect(events.map((e) => e.kind)).toEqual(['frame', 'stray']);
  });

  it('drops what arrives after discard(), on both streams, unread', () => {
    const { output, events } = listening();
    output.stdout(frame({ t: 'result', i: 0, value: 1 }));
    output.discard();
    output.stdout(frame({ t: 'result', i: 1, value: 2 }));
    output.stdout(Buffer.alloc(1 << 20, 0x61));
    output.stderr(Buffer.from('late\n'));
    output.end();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'frame', frame: { t: 'result', i: 0 } });
  });
});
