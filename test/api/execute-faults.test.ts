import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, leftoverContainers, startTestService } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const case1 = [{ args: { x: 1 }, expected: 1 }];

describe('user-code faults are results', () => {
  it('reports syntax errors with line and column in every language', async () => {
    const py = await execute(service, { language: 'python', code: 'def f(x):\n    return (x\n', testCases: case1 });
    expect(py.status).toBe(200);
    expect(py.body.results?.[0].error).toMatch(/^SyntaxError: .*\(line \d+, column \d+\)$/);
    const js = await execute(service, { language: 'javascript', code: 'function f(x) {\n  return x +;\n}\n', testCases: case1 });
    expect(js.body.results?.[0].error).toMatch(/^SyntaxError: .*line 2/);
    const ts = await execute(service, { language: 'typescript', code: 'function f(x: number) {\n  return x +;\n}\n', testCases: case1 });
    expect(ts.body.results?.[0].error).toMatch(/^SyntaxError: .*\(line 2, column \d+\)$/);
  });

  it('reports exceptions with type, message and the user-code line', async () => {
    const py = await execute(service, { language: 'python', code: 'def f(x):\n    y = 0\n    return x / y\n', testCases: case1 });
    expect(py.body.results?.[0]).toMatchObject({ passed: false, actual: null, error: 'ZeroDivisionError: division by zero (line 3)' });
    const js = await execute(service, { language: 'javascript', code: 'function f(x) {\n  return x.y.z;\n}\n', testCases: case1 });
    expect(js.body.results?.[0].error).toMatch(/^TypeError: .* \(line 2\)$/);
    const ts = await execute(service, {
      language: 'typescript',
      code: 'interface A { b: number }\n\nfunction f(x: number): number {\n  const a: A = { b: x };\n  throw new RangeError("bad " + a.b);\n}\n',
      testCases: case1,
    });
    expect(ts.body.results?.[0].error).toBe('RangeError: bad 1 (line 5)');
  });

  it('reports a recursion overflow as an error', async () => {
    const py = await execute(service, { language: 'python', code: 'def f(x):\n    return f(x + 1)\n', testCases: case1 });
    expect(py.body.results?.[0].error).toMatch(/^RecursionError/);
    const js = await execute(service, { language: 'javascript', code: 'function f(x) { return f(x + 1); }', testCases: case1 });
    expect(js.body.results?.[0].error).toMatch(/^RangeError: Maximum call stack size exceeded/);
  });

  it('captures what each case prints, load-time output going to the first case', async () => {
    const code = 'import sys\nprint("loading")\ndef f(x):\n    print("case", x)\n    print("warn", x, file=sys.stderr)\n    return x\n';
    const reply = await execute(service, {
      language: 'python',
      code,
      testCases: [
        { args: { x: 1 }, expected: 1 },
        { args: { x: 2 }, expected: 2 },
      ],
    });
    expect(reply.body.results?.map((r) => r.stdout)).toEqual(['loading\ncase 1\nwarn 1\n', 'case 2\nwarn 2\n']);
    const js = await execute(service, {
      language: 'javascript',
      code: 'console.log("loading");\nfunction f(x) { console.log("case", x); console.error("warn"); return x; }',
      testCases: case1,
    });
    expect(js.body.results?.[0].stdout).toBe('loading\ncase 1\nwarn\n');
  });

  it('caps output at 64 KiB with a truncation marker', async () => {
    const reply = await execute(service, {
      language: 'python',
      code: 'def f(x):\n    print("y" * 200000)\n    return x\n',
      testCases: case1,
    });
    const stdout = reply.body.results?.[0].stdout as string;
    expect(stdout.endsWith('\n...[truncated]')).toBe(true);
    expect(Buffer.byteLength(stdout.slice(0, -'\n...[truncated]'.length))).toBe(64 * 1024);
    expect(reply.body.results?.[0].passed).toBe(true);
  });

  it('reports a memory kill with the finished cases real and the rest marked', async () => {
    const code =
      'def f(x):\n    if x == 2:\n        blocks = [bytearray(1024 * 1024) for _ in range(4096)]\n        return len(blocks)\n    return x\n';
    const reply = await execute(service, {
      language: 'python',
      code,
      testCases: [
        { args: { x: 1 }, expected: 1 },
        { args: { x: 2 }, expected: 2 },
        { args: { x: 3 }, expected: 3 },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.results?.[0]).toMatchObject({ passed: true, error: null });
    expect(reply.body.results?.[1].error).toMatch(/^(memory limit exceeded \(256 MB\)|MemoryError)/);
    expect(reply.body.results?.[2].error).toMatch(/memory limit exceeded \(256 MB\)|MemoryError/);
  });

  it('times a runaway case out on its own with caseTimeoutMs and still runs the others', async () => {
    const code = 'def f(x):\n    while x == 2:\n        pass\n    return x\n';
    const reply = await execute(service, {
      language: 'python',
      code,
      caseTimeoutMs: 1000,
      testCases: [1, 2, 3].map((x) => ({ args: { x }, expected: x })),
    });
    expect(reply.status).toBe(200);
    expect(reply.body.results?.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, 'timed out'],
      [true, null],
    ]);
  });

  it('answers a 20 s sleep with 408 in about 15 s, keeps finished cases, and leaves no container behind', async () => {
    const code = 'import time\ndef f(x):\n    if x == 2:\n        time.sleep(20)\n    return x\n';
    const started = Date.now();
    const reply = await execute(service, { language: 'python', code, testCases: [1, 2, 3].map((x) => ({ args: { x }, expected: x })) });
    const elapsed = Date.now() - started;
    expect(reply.status).toBe(408);
    expect(reply.body.error).toMatch(/timed out/);
    expect(reply.body.results?.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [false, 'timed out'],
      [false, 'timed out'],
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(14_500);
    expect(elapsed).toBeLessThan(16_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stats = service.runner.stats();
    const idle = stats.pools.python.ready + stats.pools.python.starting + stats.pools.node.ready + stats.pools.node.starting;
    expect(await leftoverContainers(service)).toBeLessThanOrEqual(idle);
  }, 30_000);
});

describe('request validation', () => {
  it('gives 400 with issues naming the field', async () => {
    const missingLanguage = await execute(service, { code: 'x', testCases: case1 });
    expect(missingLanguage.status).toBe(400);
    expect(missingLanguage.body.issues).toContainEqual(expect.objectContaining({ path: ['language'] }));

    const noCases = await execute(service, { language: 'python', code: 'x', testCases: [] });
    expect(noCases.status).toBe(400);
    expect(noCases.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases'] }));

    const badArgs = await execute(service, { language: 'python', code: 'x', testCases: [{ args: [1], expected: 1 }] });
    expect(badArgs.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases', '0', 'args'] }));

    const noExpected = await execute(service, { language: 'python', code: 'x', testCases: [{ args: {} }] });
    expect(noExpected.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases', '0', 'expected'] }));

    const tooMany = await execute(service, { language: 'python', code: 'x', testCases: Array.from({ length: 101 }, () => case1[0]) });
    expect(tooMany.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases'] }));

    const bigCode = await execute(service, { language: 'python', code: 'x'.repeat(64 * 1024 + 1), testCases: case1 });
    expect(bigCode.body.issues).toContainEqual(expect.objectContaining({ path: ['code'] }));

    let deep: unknown = 1;
    for (let i = 0; i < 300; i += 1) deep = [deep];
    const tooDeep = await execute(service, { language: 'python', code: 'x', testCases: [{ args: { a: deep }, expected: 1 }] });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.issues).toContainEqual(expect.objectContaining({ path: ['testCases', '0', 'args'] }));

    const malformed = await execute(service, '{"language": "python",');
    expect(malformed.status).toBe(400);
    expect(malformed.body.issues).toEqual([expect.objectContaining({ path: [] })]);
  });

  it('gives 413 past the body limit and 422 for an unknown language', async () => {
    const huge = await execute(service, {
      language: 'python',
      code: 'x',
      testCases: [{ args: { s: 'y'.repeat(1024 * 1024) }, expected: 1 }],
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error).toBeTypeOf('string');
    const ruby = await execute(service, { language: 'ruby', code: 'x', testCases: case1 });
    expect(ruby.status).toBe(422);
    expect(ruby.body.error).toMatch(/ruby/);
  });
});

describe('operations', () => {
  it('serves health, readiness, languages and metrics', async () => {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const languages = (await (await fetch(`${service.url}/api/v1/code/languages`)).json()) as {
      data: Array<{ language: string; version: string }>;
      sandbox: { driver: string; ociRuntime: string };
    };
    expect(languages.data.map((l) => l.language)).toEqual(['python', 'javascript', 'typescript']);
    expect(languages.sandbox).toEqual({ driver: 'docker', ociRuntime: service.runner.ociRuntime });
    expect(languages.data[0].version).toMatch(/^Python 3\./);
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toContain('code_runner_executions_total');
    expect(metrics).toContain('code_runner_pool_containers');
  });
});
