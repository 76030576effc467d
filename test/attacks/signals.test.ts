// Attacks on the harness process itself: killing it or its parent, killing pid 1, and exiting or
// crashing in the middle of a case.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService, type AttackLanguage } from './support.js';

const threeCases = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));
const EXITED = (code: number | string = '\\d+') =>
  new RegExp(`^the sandbox process exited before this case finished \\(exit code ${code}\\)$`);

describe.each(RUNTIMES)('kill and exit attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  /** Case 2 kills: case 1 keeps its real result; the rest pass (the kill was ignored) or are marked. */
  const killer = async (language: AttackLanguage, code: string) => {
    const { reply, results } = await attack(ctx, language, code, { testCases: threeCases });
    expect(reply.status).toBe(200);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    for (const r of results.slice(1)) {
      // Under runc the harness is its PID namespace's init, which ignores signals it has no
      // handler for when they come from inside the namespace: the kill has no effect. gVisor
      // delivers them: the sandbox ends and the host says so.
      if (!r.passed) expect(r.error).toMatch(EXITED());
    }
    if (runtime === 'runsc') expect(results[1].passed).toBe(false);
    return results;
  };

  it.concurrent('python: os.kill(os.getppid(), 9)', () =>
    killer('python', 'import os\ndef f(x):\n    if x == 2:\n        os.kill(os.getppid(), 9)\n    return x\n'),
  );
  it.concurrent('python: os.kill(1, 9)', () =>
    killer('python', 'import os\ndef f(x):\n    if x == 2:\n        os.kill(1, 9)\n    return x\n'),
  );
  it.concurrent('python: os.kill(-1, 9) finds no process to kill', async () => {
    // -1 means every process the caller may signal except itself and init: inside the sandbox's
    // PID namespace there is none, and nothing outside it can be named at all.
    const { results } = await attack(ctx, 'python', 'import os\ndef f(x):\n    if x == 2:\n        os.kill(-1, 9)\n    return x\n', {
      testCases: threeCases,
    });
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, expect.stringMatching(/^ProcessLookupError/)],
      [true, null],
    ]);
  });
  it.concurrent('javascript: process.kill(process.pid)', () =>
    killer('javascript', 'function f(x) { if (x === 2) process.kill(process.pid); return x; }'),
  );
  it.concurrent('javascript: process.kill(1)', () =>
    killer('javascript', "function f(x) { if (x === 2) process.kill(1, 'SIGKILL'); return x; }"),
  );
  it.concurrent('javascript: process.kill(process.ppid, SIGKILL)', () =>
    killer('javascript', "function f(x) { if (x === 2) process.kill(process.ppid, 'SIGKILL'); return x; }"),
  );

  it.concurrent('python: os._exit mid-case marks the rest with the exit code', async () => {
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { reply, results } = await attackBeside(
      ctx,
      'python',
      'import os\ndef f(x):\n    if x == 2:\n        os._exit(3)\n    return x\n',
      {
        testCases: threeCases,
      },
    );
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, expect.stringMatching(EXITED(3))],
      [false, expect.stringMatching(EXITED(3))],
    ]);
  });

  it.concurrent('javascript: process.exit mid-case marks the rest with the exit code', async () => {
    const { reply, results } = await attack(ctx, 'javascript', 'function f(x) { if (x === 2) process.exit(3); return x; }', {
      testCases: threeCases,
    });
    expect(reply.status).toBe(200);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, expect.stringMatching(EXITED(3))],
      [false, expect.stringMatching(EXITED(3))],
    ]);
  });

  it.concurrent('python: sys.exit is an ordinary case error', async () => {
    const { results } = await attack(ctx, 'python', 'import sys\ndef f(x):\n    if x == 2:\n        sys.exit(3)\n    return x\n', {
      testCases: threeCases,
    });
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, expect.stringMatching(/^SystemExit/)],
      [true, null],
    ]);
  });

  it.concurrent('python: crashing the interpreter (a segfault through ctypes) is a well-formed failure', async () => {
    const { reply, results } = await attack(
      ctx,
      'python',
      'import ctypes\ndef f(x):\n    if x == 2:\n        ctypes.string_at(0)\n    return x\n',
      { testCases: threeCases },
    );
    expect(reply.status).toBe(200);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(results[1].error).toMatch(EXITED());
  });

  it.concurrent('javascript: process.abort() is a well-formed failure', async () => {
    const { reply, results } = await attack(ctx, 'javascript', 'function f(x) { if (x === 2) process.abort(); return x; }', {
      testCases: threeCases,
    });
    expect(reply.status).toBe(200);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(results[1].error).toMatch(EXITED());
  });
});
