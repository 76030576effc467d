// Attacks on wall-clock time: infinite loops, sleeping past the limit, hanging at load time,
// never-settling promises, and work left running after the function returned.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, BUDGET_MS, marker, RUNTIMES, useAttackService, watchHostProcesses } from './support.js';
import { hostProcessesWith } from '../support/host-processes.js';
import { eventually } from '../support/eventually.js';

const threeCases = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));

describe.each(RUNTIMES)('time attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  /** `beside`: with a /healthz prober and a victim execution (support.ts, attackBeside). */
  const timesOut = async (language: 'python' | 'javascript', code: string, beside = false) => {
    const { reply, results, elapsedMs } = await (beside ? attackBeside : attack)(ctx, language, code);
    expect(reply.status).toBe(408);
    expect(results.map((r) => r.error)).toEqual(['timed out']);
    // killed at the budget, not before
    expect(elapsedMs).toBeGreaterThanOrEqual(BUDGET_MS - 100);
  };

  // this file's representative beside a prober and a victim: one core pinned for the whole budget
  it.concurrent('python: an infinite loop is killed at the budget (408)', () =>
    timesOut('python', 'def f(x):\n    while True:\n        pass\n', true),
  );
  it.concurrent('javascript: an infinite loop is killed at the budget (408)', () =>
    timesOut('javascript', 'function f(x) { for (;;) {} }'),
  );
  it.concurrent('python: sleeping past the limit is killed (408)', () =>
    timesOut('python', 'import time\ndef f(x):\n    time.sleep(60)\n    return x\n'),
  );
  it.concurrent('javascript: blocking past the limit (Atomics.wait) is killed (408)', () =>
    timesOut('javascript', 'function f(x) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000); return x; }'),
  );
  it.concurrent('javascript: awaiting a 60 s timer is killed (408)', () =>
    timesOut('javascript', 'async function f(x) { await new Promise((r) => setTimeout(r, 60000)); return x; }'),
  );
  it.concurrent('python: awaiting asyncio.sleep(3600) is killed (408)', () =>
    timesOut('python', 'import asyncio\nasync def f(x):\n    await asyncio.sleep(3600)\n    return x\n'),
  );
  it.concurrent('python: an infinite loop at import time is killed (408)', () =>
    timesOut('python', 'while True:\n    pass\ndef f(x):\n    return x\n'),
  );
  it.concurrent('javascript: an infinite loop at load time is killed (408)', () =>
    timesOut('javascript', 'while (true) {}\nfunction f(x) { return x; }'),
  );

  it.concurrent('python: finished cases keep their results when a later case loops', async () => {
    const { reply, results } = await attack(ctx, 'python', 'def f(x):\n    while x == 2:\n        pass\n    return x\n', {
      testCases: threeCases,
    });
    expect(reply.status).toBe(408);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, 'timed out'],
      [false, 'timed out'],
    ]);
  });

  it.concurrent('javascript: finished cases keep their results when a later case loops', async () => {
    const { reply, results } = await attack(ctx, 'javascript', 'function f(x) { while (x === 2) {} return x; }', { testCases: threeCases });
    expect(reply.status).toBe(408);
    expect(results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, 'timed out'],
      [false, 'timed out'],
    ]);
  });

  it.concurrent('python: a looping child process dies with the container at the deadline', async () => {
    const tag = marker('spin');
    const code = `import subprocess, sys\ndef f(x):\n    subprocess.Popen([sys.executable, "-c", "while True: pass", "${tag}"], start_new_session=True)\n    while True:\n        pass\n`;
    const attempt = attack(ctx, 'python', code);
    const seenOnHost = await watchHostProcesses(tag, attempt);
    const { reply } = await attempt;
    expect(reply.status).toBe(408);
    // Under runc the sandbox's processes are host processes (in their own namespaces), so the
    // spinner is visible on the host while it runs; under gVisor they live inside the Sentry.
    if (runtime !== 'runsc') expect(seenOnHost, 'the spinner ran as a host process').toBe(true);
    expect(await eventually(() => hostProcessesWith(tag).length === 0, 5_000), 'the spinner was killed').toBe(true);
  });

  it.concurrent('javascript: a promise that never settles gives a well-formed failed case', async () => {
    const { results } = await attack(ctx, 'javascript', 'function f(x) { return new Promise(() => {}); }');
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/never settled|timed out|exited|no result/);
  });

  it.concurrent('python: a spinning thread left behind does not hold the answer back', async () => {
    const code =
      'import threading\ndef spin():\n    while True:\n        pass\ndef f(x):\n    threading.Thread(target=spin).start()\n    return x\n';
    const { reply, results, elapsedMs } = await attack(ctx, 'python', code, { testCases: threeCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => r.passed)).toEqual([true, true, true]);
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });

  it.concurrent('javascript: a timer left running does not hold the answer back', async () => {
    const code = 'function f(x) { setInterval(() => { for (let i = 0; i < 1e7; i++); }, 1); return x; }';
    const { reply, results, elapsedMs } = await attack(ctx, 'javascript', code, { testCases: threeCases });
    expect(reply.status).toBe(200);
    expect(results.map((r) => r.passed)).toEqual([true, true, true]);
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });
});
