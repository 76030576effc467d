// Attacks on the standard streams: closing or redirecting stdout/stderr, closing every file
// descriptor (the harness's private result channel included), and reading stdin.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const twoCases = [1, 2].map((x) => ({ args: { x }, expected: x }));
const EXITED = /^the sandbox process exited before this case finished \(exit code \d+\)$/;

describe.each(RUNTIMES)('stdio attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: closing fds 1 and 2 and sys.stdout/sys.stderr does not cut the result channel', async () => {
    const code =
      'import os, sys\ndef f(x):\n    if x == 1:\n        sys.stdout.close()\n        sys.stderr.close()\n        os.close(1)\n        os.close(2)\n    else:\n        print("still captured", x)\n    return x\n';
    const { reply, results } = await attack(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error, r.stdout])).toEqual([
      [true, null, ''],
      [true, null, 'still captured 2\n'],
    ]);
  });

  it.concurrent('python: redirecting fds 1 and 2 to /dev/null and replacing sys.stdout does not cut the result channel', async () => {
    const code =
      'import os, sys\ndef f(x):\n    if x == 1:\n        null = os.open("/dev/null", os.O_WRONLY)\n        os.dup2(null, 1)\n        os.dup2(null, 2)\n        sys.stdout = open("/dev/null", "w")\n        sys.stderr = None\n    else:\n        print("still captured", x)\n    return x\n';
    const { reply, results } = await attack(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error, r.stdout])).toEqual([
      [true, null, ''],
      [true, null, 'still captured 2\n'],
    ]);
  });

  it.concurrent('python: closing every file descriptor ends the run with a well-formed error', async () => {
    const code = 'import os\ndef f(x):\n    os.closerange(0, 65536)\n    return x\n';
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { reply, results } = await attackBeside(ctx, 'python', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    for (const r of results) expect(r.error).toMatch(EXITED);
  });

  it.concurrent('javascript: closing fds 1 and 2 and destroying process.stdout does not cut the result channel', async () => {
    const code =
      "function f(x) {\n  const fs = require('fs');\n  if (x === 1) {\n    process.stdout.destroy();\n    process.stderr.destroy();\n    fs.closeSync(1);\n    fs.closeSync(2);\n  } else {\n    console.log('still captured', x);\n  }\n  return x;\n}\n";
    const { reply, results } = await attack(ctx, 'javascript', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it.concurrent('javascript: redirecting fd 1 to /dev/null does not cut the result channel', async () => {
    const code =
      "function f(x) {\n  const fs = require('fs');\n  if (x === 1) {\n    fs.closeSync(1);\n    fs.openSync('/dev/null', 'w');\n    fs.closeSync(2);\n    fs.openSync('/dev/null', 'w');\n  }\n  return x;\n}\n";
    const { reply, results } = await attack(ctx, 'javascript', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [true, null],
    ]);
  });

  it.concurrent('javascript: closing every file descriptor ends the run with a well-formed answer', async () => {
    const code =
      "function f(x) {\n  const fs = require('fs');\n  for (let fd = 0; fd < 1024; fd++) { try { fs.closeSync(fd); } catch {} }\n  return x;\n}\n";
    const { reply, results } = await attack(ctx, 'javascript', code, { testCases: twoCases });
    expect(reply.status).toBe(200);
    for (const r of results)
      expect(r.passed === false ? r.error : null).toSatisfy((e: string | null) => e === null || EXITED.test(e) || /no result/.test(e));
  });

  it.concurrent('python: stdin is empty after the job line (input() raises EOFError, fd 0 reads nothing)', async () => {
    const code =
      'import os, sys\ndef f(x):\n    try:\n        input()\n        got = "line"\n    except EOFError:\n        got = "EOF"\n    return [got, sys.stdin.read(), os.read(0, 100).decode()]\n';
    const { results } = await attack(ctx, 'python', code, { testCases: [{ args: { x: 1 }, expected: ['EOF', '', ''] }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });

  it.concurrent('javascript: stdin holds nothing more than the job line', async () => {
    const code =
      "function f(x) {\n  let rest;\n  try { rest = require('fs').readFileSync(0, 'utf8'); } catch (e) { rest = e.code; }\n  return typeof rest === 'string' && rest.includes('nonce') ? 'saw the job' : 'nothing';\n}\n";
    const { results } = await attack(ctx, 'javascript', code, { testCases: [{ args: { x: 1 }, expected: 'nothing' }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });
});
