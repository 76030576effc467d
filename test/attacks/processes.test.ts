// Attacks on the process table: fork bombs, thread bombs, and how many tasks a sandbox may have.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, BUDGET_MS, RUNTIMES, useAttackService } from './support.js';

describe.each(RUNTIMES)('process and thread attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: a fork bomb is contained', async () => {
    const code = 'import os\ndef f(x):\n    while True:\n        try:\n            os.fork()\n        except OSError:\n            pass\n';
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { results } = await attackBeside(ctx, 'python', code);
    // runc: the pids limit stops the bomb, which spins until the budget kills it (408).
    // gVisor: its guest processes are heavier, so the memory limit (or the Sentry's host task
    // limit, which ends the sandbox) stops it first; either way it is contained.
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(runtime === 'runsc' ? /^(timed out|the sandbox process exited|memory limit exceeded)/ : /^timed out$/);
  });

  it.concurrent('javascript: a spawn bomb is contained', async () => {
    const code =
      "function f(x) {\n  const cp = require('child_process');\n  for (;;) {\n    try { cp.spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); } catch {}\n  }\n}\n";
    const { results } = await attack(ctx, 'javascript', code);
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/^(timed out|the sandbox process exited|memory limit exceeded)/);
  });

  it.concurrent('python: forking stops at the pids limit (64 tasks)', async () => {
    const code =
      'import os, time\ndef f(x):\n    kids = 0\n    try:\n        for _ in range(500):\n            if os.fork() == 0:\n                time.sleep(30)\n                os._exit(0)\n            kids += 1\n    except OSError as e:\n        return [kids, e.errno]\n    return [kids, 0]\n';
    const { results } = await attack(ctx, 'python', code);
    if (results[0].error === null) {
      const [kids, errno] = results[0].actual as [number, number];
      expect(kids).toBeLessThan(64);
      expect(errno).toBe(11); // EAGAIN
    } else {
      // gVisor does not apply the pids limit to its guest: the memory limit or the Sentry's
      // host-side task limit (which ends the whole sandbox) stops the forking instead
      expect(runtime).toBe('runsc');
      expect(results[0].error).toMatch(/^(the sandbox process exited|memory limit exceeded)/);
    }
  });

  it.concurrent('python: a thread bomb is contained', async () => {
    const code =
      'import threading\ndef spin():\n    while True:\n        pass\ndef f(x):\n    n = 0\n    while True:\n        try:\n            threading.Thread(target=spin, daemon=True).start()\n            n += 1\n        except RuntimeError:\n            pass\n';
    const { results } = await attack(ctx, 'python', code);
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/^(timed out|the sandbox process exited|memory limit exceeded)/);
  });

  it.concurrent('python: threads stop at the pids limit', async () => {
    const code =
      'import threading, time\ndef f(x):\n    n = 0\n    try:\n        for _ in range(2000):\n            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n            n += 1\n    except RuntimeError:\n        return n\n    return n\n';
    const { results } = await attack(ctx, 'python', code);
    if (runtime === 'runsc') {
      // gVisor's threads are Sentry tasks, not host tasks: bounded by memory and the budget instead
      expect(results[0].error === null || /^(timed out|memory limit exceeded|the sandbox process exited)/.test(results[0].error)).toBe(
        true,
      );
    } else {
      expect(results[0].error).toBeNull();
      expect(results[0].actual).toBeLessThan(64);
    }
  });

  it.concurrent('javascript: a worker-thread bomb is contained', async () => {
    const code =
      "async function f(x) {\n  const { Worker } = require('worker_threads');\n  for (;;) {\n    try { new Worker('for (;;) {}', { eval: true }); } catch {}\n    await new Promise((r) => setImmediate(r));\n  }\n}\n";
    const { results } = await attack(ctx, 'javascript', code);
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/^(timed out|the sandbox process exited|memory limit exceeded|Error|RangeError)/);
  });

  it.concurrent('python: an ordinary program may use 16 child processes and 32 threads', async () => {
    const code =
      'import os, threading, time\ndef f(x):\n    kids = []\n    for _ in range(16):\n        pid = os.fork()\n        if pid == 0:\n            time.sleep(1)\n            os._exit(7)\n        kids.append(pid)\n    threads = [threading.Thread(target=time.sleep, args=(0.5,)) for _ in range(32)]\n    for t in threads:\n        t.start()\n    for t in threads:\n        t.join()\n    return sorted({os.waitpid(pid, 0)[1] >> 8 for pid in kids})\n';
    const { results, elapsedMs } = await attack(ctx, 'python', code, { testCases: [{ args: { x: 1 }, expected: [7] }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(elapsedMs).toBeLessThan(BUDGET_MS);
  });

  it.concurrent('javascript: an ordinary program may run 8 child processes at once', async () => {
    const code =
      "async function f(x) {\n  const cp = require('child_process');\n  const run = () => new Promise((resolve, reject) => {\n    const child = cp.spawn('sh', ['-c', 'sleep 0.5; echo $((6 * 7))']);\n    let out = '';\n    child.stdout.on('data', (d) => { out += d; });\n    child.on('error', reject);\n    child.on('close', () => resolve(out.trim()));\n  });\n  return Promise.all(Array.from({ length: 8 }, run));\n}\n";
    const { results } = await attack(ctx, 'javascript', code, { testCases: [{ args: { x: 1 }, expected: Array(8).fill('42') }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });
});
