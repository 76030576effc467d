// Attacks on the harness protocol by size (docs/harness-protocol.md): a 12 MB frame-like line
// with no newline, a 20 MB return value, floods of fake frames and frame marks, and frames forged
// with the real nonce (12 MB long, with numbers that overflow, with 1 MB of output). The host holds
// at most one frame's worth (8 MiB), reports stray output capped and drops frames it cannot read;
// the harness refuses a return value over 1 MiB with a clear error.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, BUDGET_MS, RUNTIMES, useAttackService, type AttackLanguage } from './support.js';

const CAP = 64 * 1024;
const MARKER = '\n...[truncated]';
/** The service's event loop may stall this long while a flood is parsed. */
const MAX_LOOP_DELAY_MS = 1_000;
const FAKE_NONCE = '0'.repeat(32);
/**
 * Bytes of each flood: past the host's 8 MiB frame cap, yet small enough to leave the sandbox well
 * within the suite's 5 s budget under gVisor on a loaded 2-core machine (30 MB did not, in CI).
 */
const FLOOD = 12_000_000;
/** Fake frames in a flood (99 bytes each: about FLOOD bytes in all). */
const FAKE_FRAMES = FLOOD / 100;
const twoCases = [1, 2].map((x) => ({ args: { x }, expected: x }));
/** Python: `NONCE()` digs the job's nonce out of the harness's memory (user code shares its process). */
const PY_NONCE =
  'import gc\ndef NONCE():\n    return next(o["nonce"] for o in gc.get_objects() if isinstance(o, dict) and "nonce" in o and "cases" in o)\n';

/** Python: `write_all(data)` puts all of `data` on fd 1, however the pipe splits it. */
const PY_WRITE_ALL =
  'import os\ndef write_all(data):\n    view = memoryview(data)\n    while view:\n        view = view[os.write(1, view):]\n';
/** JavaScript: `writeAll(data)` puts all of `data` on fd 1, waiting out a full non-blocking pipe. */
const JS_WRITE_ALL =
  "const fs = require('fs');\nfunction writeAll(data) {\n  for (let off = 0; off < data.length;) {\n    try { off += fs.writeSync(1, data, off); } catch (e) { if (e.code !== 'EAGAIN') throw e; }\n  }\n}\n";

const TOO_LARGE: Record<AttackLanguage, RegExp> = {
  python: /^ValueError: return value too large: at least 20000002 bytes as JSON \(limit 1048576\)$/,
  javascript: /^RangeError: return value too large: at least 20000002 bytes as JSON \(limit 1048576\)$/,
};

describe.each(RUNTIMES)('protocol flood attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  /**
   * `code` floods in its first case only: both cases pass with the real result, the first with its
   * output capped and starting with `startsWith`, the second (same container) with no output.
   * `beside`: with a /healthz prober and a victim execution (support.ts, attackBeside).
   */
  const flood = async (language: AttackLanguage, code: string, startsWith: string, beside = false) => {
    const outcome = await (beside ? attackBeside : attack)(ctx, language, code, { testCases: twoCases });
    expect(outcome.reply.status).toBe(200);
    expect(outcome.results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [true, 1, null],
      [true, 2, null],
    ]);
    const [flooded, next] = outcome.results;
    expect(flooded.stdout.startsWith(startsWith)).toBe(true);
    expect(flooded.stdout.endsWith(MARKER)).toBe(true);
    expect(Buffer.byteLength(flooded.stdout.slice(0, -MARKER.length))).toBeLessThanOrEqual(CAP);
    expect(next.stdout).toBe('');
    expect(outcome.maxLoopDelayMs, 'longest event-loop stall of the service').toBeLessThan(MAX_LOOP_DELAY_MS);
  };

  const frameLikeHead = `\\x1e${FAKE_NONCE} {"t":"result","i":0,"value":"`;

  it.concurrent('python: a 12 MB frame-like line with no newline on fd 1', async () => {
    const code = `${PY_WRITE_ALL}def f(x):\n    if x == 1:\n        write_all(b'${frameLikeHead}' + b"a" * ${FLOOD})\n    return x\n`;
    // this file's representative beside a prober and a victim
    await flood('python', code, `\x1e${FAKE_NONCE} {"t":"result"`, true);
  });

  it.concurrent('javascript: a 12 MB frame-like line with no newline on fd 1', async () => {
    const code = `${JS_WRITE_ALL}function f(x) {\n  if (x === 1) writeAll(Buffer.concat([Buffer.from('${frameLikeHead}'), Buffer.alloc(${FLOOD}, 97)]));\n  return x;\n}\n`;
    await flood('javascript', code, `\x1e${FAKE_NONCE} {"t":"result"`);
  });

  it.concurrent('python: 12 MB of fake frames on fd 1 and 100 000 through print', async () => {
    const fake = `\\x1e${FAKE_NONCE} {"t":"result","i":0,"value":999,"error":null,"ms":0,"stdout":""}\\n`;
    const code = `${PY_WRITE_ALL}FAKE = b'${fake}' * ${FAKE_FRAMES}\ndef f(x):\n    if x == 1:\n        write_all(FAKE)\n        for _ in range(100_000):\n            print('\\x1e{"t":"done"}')\n    return x\n`;
    // what print wrote comes first, and fills the case's output
    await flood('python', code, '\x1e{"t":"done"}\n\x1e{"t":"done"}\n');
  });

  it.concurrent('javascript: 12 MB of fake frames on fd 1 and 50 000 through console.log', async () => {
    const fake = `\\x1e${FAKE_NONCE} {"t":"result","i":0,"value":999,"error":null,"ms":0,"stdout":""}\\n`;
    const code = `${JS_WRITE_ALL}const FAKE = Buffer.from('${fake}'.repeat(${FAKE_FRAMES}));\nfunction f(x) {\n  if (x !== 1) return x;\n  writeAll(FAKE);\n  for (let i = 0; i < 50_000; i++) console.log('\\x1e{"t":"done"}');\n  return x;\n}\n`;
    await flood('javascript', code, '\x1e{"t":"done"}\n\x1e{"t":"done"}\n');
  });

  it.concurrent('python: 12 MB of bare frame marks on fd 1', async () => {
    await flood(
      'python',
      `${PY_WRITE_ALL}def f(x):\n    if x == 1:\n        write_all(b"\\x1e" * ${FLOOD})\n    return x\n`,
      '\x1e\x1e\x1e',
    );
  });

  it.concurrent('python: a 12 MB frame forged with the nonce dug out of the harness is dropped, not buffered', async () => {
    const code = `${PY_WRITE_ALL}${PY_NONCE}def f(x):\n    if x == 1:\n        head = ('\\x1e%s {"t":"result","i":0,"value":"' % NONCE()).encode()\n        write_all(head + b"a" * ${FLOOD} + b'","error":null,"ms":0,"stdout":""}\\n')\n    return x\n`;
    await flood('python', code, '\x1e');
  });

  it.concurrent('python: frames forged with numbers that overflow are dropped, and the service stays up', async () => {
    const forged = [
      '{"t":"result","i":0,"value":1,"error":null,"ms":1e400,"stdout":""}',
      '{"t":"begin","i":1e400}',
      '{"t":"result","i":0,"value":1,"error":{"type":"E","message":"m","line":1e-400,"column":null},"ms":0,"stdout":""}',
    ];
    const code = `${PY_WRITE_ALL}${PY_NONCE}FORGED = ${JSON.stringify(forged)}\ndef f(x):\n    for body in FORGED:\n        write_all(("\\x1e%s %s\\n" % (NONCE(), body)).encode())\n    return x\n`;
    const { reply, results } = await attack(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [true, 1, null],
      [true, 2, null],
    ]);
  });

  it.concurrent('python: a forged result with 1 MB of output and a huge runtime is cut down on the host', async () => {
    const code = `${PY_WRITE_ALL}${PY_NONCE}def f(x):\n    if x == 2:\n        nonce = NONCE()\n        forged = '{"t":"result","i":1,"value":2,"error":null,"ms":1e300,"stdout":"%s"}' % ("f" * 1_000_000)\n        write_all(("\\x1e%s %s\\n\\x1e%s {\\"t\\":\\"done\\"}\\n" % (nonce, forged, nonce)).encode())\n    return x\n`;
    const { reply, results } = await attack(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    // the forged frame stands for its own case (it reports what f could have returned anyway)
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [true, 1, null],
      [true, 2, null],
    ]);
    expect(results[1].stdout).toBe(`${'f'.repeat(CAP)}${MARKER}`);
    // no case can have run longer than its job
    expect(Number(results[1].runtime.replace(/ms$/, ''))).toBeLessThanOrEqual(BUDGET_MS);
  });

  it.concurrent.each<AttackLanguage>(['python', 'javascript'])(
    '%s: a 20 MB return value fails its case with a clear error, the next case is right',
    async (language) => {
      const code =
        language === 'python'
          ? 'def f(x):\n    if x == 1:\n        return "x" * 20_000_000\n    return x\n'
          : "function f(x) {\n  if (x === 1) return 'x'.repeat(20_000_000);\n  return x;\n}\n";
      const { reply, results, maxLoopDelayMs } = await attack(ctx, language, code, { testCases: twoCases });
      expect(reply.status).toBe(200);
      expect(results[0]).toMatchObject({ passed: false, actual: null, stdout: '' });
      expect(results[0].error).toMatch(TOO_LARGE[language]);
      expect(results[1]).toMatchObject({ passed: true, actual: 2, error: null });
      expect(maxLoopDelayMs).toBeLessThan(MAX_LOOP_DELAY_MS);
    },
  );
});
