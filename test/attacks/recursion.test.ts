// Attacks by depth: runaway recursion (with and without a raised recursion limit) and returned
// values that are too deep, cyclic or hostile to encode.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

describe.each(RUNTIMES)('recursion attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: unbounded recursion is a RecursionError', async () => {
    const { results } = await attack(ctx, 'python', 'def f(x):\n    return f(x + 1)\n');
    expect(results[0].error).toMatch(/^RecursionError: maximum recursion depth exceeded/);
  });

  it.concurrent('python: recursion with the limit raised to 10**9 is contained', async () => {
    const code = 'import sys\nsys.setrecursionlimit(10 ** 9)\ndef f(x):\n    return f(x + 1) + 1\n';
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { results } = await attackBeside(ctx, 'python', code);
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/^(memory limit exceeded|the sandbox process exited|MemoryError|RecursionError|timed out)/);
  });

  it.concurrent('python: deep recursion in a thread with a 256 MB stack is contained', async () => {
    const code =
      'import sys, threading\nsys.setrecursionlimit(10 ** 9)\ndef down(n):\n    return down(n + 1) + 1\ndef f(x):\n    threading.stack_size(256 * 1024 * 1024)\n    t = threading.Thread(target=down, args=(0,))\n    t.start()\n    t.join()\n    return x\n';
    const { results } = await attack(ctx, 'python', code);
    expect(
      results[0].error === null ||
        /^(memory limit exceeded|the sandbox process exited|timed out|RuntimeError|ValueError)/.test(results[0].error),
    ).toBe(true);
  });

  it.concurrent('javascript: unbounded recursion is a RangeError', async () => {
    const { results } = await attack(ctx, 'javascript', 'function f(x) { return f(x + 1) + 1; }');
    expect(results[0].error).toMatch(/^RangeError: Maximum call stack size exceeded/);
  });

  it.concurrent('javascript: unbounded async recursion is contained', async () => {
    const { results } = await attack(ctx, 'javascript', 'async function f(x) { return (await f(x + 1)) + 1; }');
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/^(RangeError|memory limit exceeded|timed out|the sandbox process exited)/);
  });

  it.concurrent('python: a 100 000-deep nested return value is cut, not fatal', async () => {
    const code = 'def f(x):\n    v = []\n    for _ in range(100_000):\n        v = [v]\n    return v\n';
    const { reply, results } = await attack(ctx, 'python', code);
    expect(reply.status).toBe(200);
    expect(results[0].passed).toBe(false);
  });

  it.concurrent('javascript: a 100 000-deep nested return value is cut, not fatal', async () => {
    const code = 'function f(x) { let v = []; for (let i = 0; i < 100000; i++) v = [v]; return v; }';
    const { reply, results } = await attack(ctx, 'javascript', code);
    expect(reply.status).toBe(200);
    expect(results[0].passed).toBe(false);
  });

  it.concurrent('python: cyclic and hostile return values are encoded without failing the harness', async () => {
    const code =
      'class Evil:\n    def __repr__(self):\n        raise RuntimeError("no repr")\n    def __eq__(self, other):\n        raise RuntimeError("no eq")\n    __hash__ = object.__hash__\nclass EvilDict(dict):\n    def items(self):\n        raise RuntimeError("no items")\ndef f(x):\n    a = [1]\n    a.append(a)\n    d = EvilDict(k=1)\n    return {"cycle": a, "evil": Evil(), "dict": d, "set": {Evil()}}\n';
    const { reply, results } = await attack(ctx, 'python', code, {
      testCases: [
        { args: { x: 1 }, expected: 1 },
        { args: { x: 2 }, expected: 2 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(results.map((r) => r.passed)).toEqual([false, false]);
  });

  it.concurrent(
    'javascript: cyclic and hostile return values (throwing Proxy, getters, toJSON) are encoded without failing the harness',
    async () => {
      const code =
        "function f(x) {\n  const boom = () => { throw new Error('boom'); };\n  const proxy = new Proxy({}, { get: boom, ownKeys: boom, getPrototypeOf: boom, has: boom, getOwnPropertyDescriptor: boom });\n  const cycle = [1];\n  cycle.push(cycle);\n  return { cycle, proxy, getter: { get v() { return boom(); } }, json: { toJSON: boom } };\n}\n";
      const { reply, results } = await attack(ctx, 'javascript', code, {
        testCases: [
          { args: { x: 1 }, expected: 1 },
          { args: { x: 2 }, expected: 2 },
        ],
      });
      expect(reply.status).toBe(200);
      expect(results.map((r) => r.passed)).toEqual([false, false]);
    },
  );
});
