// Attacks through the request itself: bodies at and over the size limit, nesting at and over the
// depth limit, and a huge flat array. The core rejects what is over its limits with 400/413.
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { execute } from '../support/service.js';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const nest = (depth: number): unknown => {
  let value: unknown = 0;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
};

describe.each(RUNTIMES)('payload attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('a 1 MiB string argument (body over 1 MiB) is refused with 413', async () => {
    const reply = await execute(ctx.service, {
      language: 'python',
      code: 'def f(s):\n    return len(s)\n',
      testCases: [{ args: { s: 'y'.repeat(1024 * 1024) }, expected: 1 }],
    });
    expect(reply.status).toBe(413);
    expect(reply.body.error).toBeTypeOf('string');
  });

  it.concurrent('python: a 900 KB string argument runs and is echoed intact', async () => {
    const s = 'ab'.repeat(450_000);
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    // (its body is parsed in the JSON thread: on the event loop it took 70-110 ms by itself)
    const { reply, results } = await attackBeside(ctx, 'python', 'def f(s):\n    return [len(s), s[-3:]]\n', {
      testCases: [{ args: { s }, expected: [900_000, 'bab'] }],
    });
    expect(reply.status).toBe(200);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect((results[0].input as { s: string }).s).toBe(s);
  });

  it.concurrent('javascript: an 880 KB string argument returned whole round-trips', async () => {
    const s = 'é'.repeat(440_000); // 880 KB of UTF-8
    const { results } = await attack(ctx, 'javascript', 'function f(s) { return s; }', { testCases: [{ args: { s }, expected: null }] });
    expect(results[0]).toMatchObject({ passed: false, error: null });
    expect(results[0].actual).toBe(s);
  });

  it.concurrent('nesting deeper than 256 in args or expected is refused with 400', async () => {
    const code = 'def f(a):\n    return 1\n';
    const deepArgs = await execute(ctx.service, { language: 'python', code, testCases: [{ args: { a: nest(300) }, expected: 1 }] });
    expect(deepArgs.status).toBe(400);
    expect(deepArgs.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases', '0', 'args'] }));
    const deepExpected = await execute(ctx.service, { language: 'python', code, testCases: [{ args: { a: 1 }, expected: nest(300) }] });
    expect(deepExpected.status).toBe(400);
    const veryDeep = await execute(
      ctx.service,
      `{"language":"python","code":"x","testCases":[{"args":{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}},"expected":1}]}`,
    );
    expect([400, 413]).toContain(veryDeep.status);
  });

  it.concurrent('python: nesting of 200 levels runs and round-trips', async () => {
    const value = nest(200);
    const { results } = await attack(ctx, 'python', 'def f(a):\n    return a\n', { testCases: [{ args: { a: value }, expected: value }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });

  it.concurrent('javascript: nesting of 200 levels runs and round-trips', async () => {
    const value = nest(200);
    const { results } = await attack(ctx, 'javascript', 'function f(a) { return a; }', {
      testCases: [{ args: { a: value }, expected: value }],
    });
    expect(results[0]).toMatchObject({ passed: true, error: null });
  });

  it.concurrent('python: a flat array of 300 000 numbers is parsed without stalling the service', async () => {
    const nums = Array.from({ length: 300_000 }, (_, i) => i % 10);
    // beside a prober and a victim too (attackBeside: /healthz under 100 ms, the victim under 1 s): the
    // numbers stay plain numbers on the event loop's thread, not 300 000 objects to rebuild, write
    // into the job and collect (docs/security.md, "Request bodies off the event loop")
    const { results, maxLoopDelayMs, beside } = await attackBeside(ctx, 'python', 'def f(nums):\n    return sum(nums)\n', {
      testCases: [{ args: { nums }, expected: 1_350_000 }],
    });
    expect(results[0]).toMatchObject({ passed: true, error: null });
    console.log(
      `payload: ${ctx.runtime} 300 000 numbers: longest event-loop stall ${maxLoopDelayMs} ms, longest /healthz wait ${beside.longestHealthWaitMs} ms; load ${os.loadavg()[0].toFixed(2)}`,
    );
  });

  it.concurrent('javascript: 100 cases of 9 KB each all run', async () => {
    const testCases = Array.from({ length: 100 }, (_, i) => ({ args: { s: String(i % 10).repeat(9_000) }, expected: 9_000 }));
    const { results } = await attack(ctx, 'javascript', 'function f(s) { return s.length; }', { testCases });
    expect(results.every((r) => r.passed)).toBe(true);
  });
});
