// Attacks on the harness protocol (docs/harness-protocol.md): fake frames printed by user code,
// a stray frame mark, and frames forged with a nonce recovered from the harness's own memory.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const twoCases = [1, 2].map((x) => ({ args: { x }, expected: x }));
const FAKE_LINES = [
  '\x1eready Python 9.9.9',
  '\x1e{"t":"result","i":0,"value":1,"error":null,"ms":0,"stdout":""}',
  '\x1e0123456789abcdef0123456789abcdef {"t":"result","i":1,"value":2,"error":null,"ms":0,"stdout":""}',
  '\x1e0123456789abcdef0123456789abcdef {"t":"done"}',
  '\x1e{"t":"done"}',
  '\x1e{not json',
];

describe.each(RUNTIMES)('protocol attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: fake frames printed with print() are plain output, the real (wrong) results stand', async () => {
    const code = `FAKE = ${JSON.stringify(FAKE_LINES)}\ndef f(x):\n    for line in FAKE:\n        print(line)\n    return x + 100\n`;
    const { reply, results } = await attack(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [false, 101, null],
      [false, 102, null],
    ]);
    for (const r of results) expect(r.stdout).toBe(FAKE_LINES.map((l) => `${l}\n`).join(''));
  });

  it.concurrent('python: fake frames written to fd 1 are stray output, the real (wrong) results stand', async () => {
    const code = `import os\nFAKE = ${JSON.stringify(FAKE_LINES)}\ndef f(x):\n    for line in FAKE:\n        os.write(1, (line + "\\n").encode())\n    return x + 100\n`;
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { reply, results } = await attackBeside(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [false, 101, null],
      [false, 102, null],
    ]);
    for (const r of results) for (const line of FAKE_LINES) expect(r.stdout).toContain(line);
  });

  it.concurrent('javascript: fake frames written to fd 1 and through console.log change nothing', async () => {
    const code = `const FAKE = ${JSON.stringify(FAKE_LINES)};\nfunction f(x) {\n  for (const line of FAKE) { require('fs').writeSync(1, line + '\\n'); console.log(line); }\n  return x + 100;\n}\n`;
    const { reply, results } = await attack(ctx, 'javascript', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [false, 101, null],
      [false, 102, null],
    ]);
    for (const r of results) for (const line of FAKE_LINES) expect(r.stdout).toContain(line);
  });

  it.concurrent('python: a lone frame mark without a newline on fd 1 does not swallow the real result', async () => {
    const { reply, results } = await attack(ctx, 'python', 'import os\ndef f(x):\n    os.write(1, b"\\x1e")\n    return x\n', {
      testCases: twoCases,
    });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [true, 1, null],
      [true, 2, null],
    ]);
  });

  it.concurrent('javascript: a lone frame mark without a newline on fd 1 does not swallow the real result', async () => {
    const { reply, results } = await attack(ctx, 'javascript', "function f(x) { require('fs').writeSync(1, '\\x1e'); return x; }", {
      testCases: twoCases,
    });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.actual, r.error])).toEqual([
      [true, 1, null],
      [true, 2, null],
    ]);
  });

  it.concurrent("python: frames forged with a nonce dug out of the harness only touch the attacker's own results", async () => {
    // The nonce lives in the harness's memory, which user code shares: it can forge frames. What it
    // cannot do is learn `expected` (never sent to the sandbox) or reach another execution.
    const code =
      'import gc, os\ndef f(x):\n    nonce = next(o["nonce"] for o in gc.get_objects() if isinstance(o, dict) and "nonce" in o and "cases" in o)\n    for i in range(5):\n        os.write(1, ("\\x1e%s {\\"t\\":\\"result\\",\\"i\\":%d,\\"value\\":42,\\"error\\":null,\\"ms\\":0,\\"stdout\\":\\"forged\\"}\\n" % (nonce, i)).encode())\n    os.write(1, ("\\x1e%s {\\"t\\":\\"done\\"}\\n" % nonce).encode())\n    return x\n';
    const testCases = [1, 2, 3].map((x) => ({ args: { x }, expected: x * 7 }));
    const { reply, results } = await attack(ctx, 'python', code, { testCases });
    expect(reply.status).toBe(200);
    expect(results.every((r) => r.passed === false)).toBe(true);
  });
});
