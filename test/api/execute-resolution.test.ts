import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, startTestService } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

async function outcome(body: Record<string, unknown>) {
  const reply = await execute(service, body);
  expect(reply.status).toBe(200);
  return (reply.body.results ?? []).map((r) => ({ passed: r.passed, actual: r.actual, error: r.error }));
}

const one = [{ args: { a: 2, b: 3 }, expected: 5 }];

describe('function name resolution', () => {
  it('finds the only function of a source that starts with a byte-order mark, in every language', async () => {
    const sources = {
      python: '\uFEFFdef add(a, b):\n    return a + b\n',
      javascript: '\uFEFFfunction add(a, b) { return a + b; }\n',
      typescript: '\uFEFFfunction add(a: number, b: number) { return a + b; }\n',
    };
    for (const [language, code] of Object.entries(sources)) {
      expect(await outcome({ language, code, testCases: one }), language).toEqual([{ passed: true, actual: 5, error: null }]);
    }
  });

  it('uses functionNames[language] first, even when another name matches functionName', async () => {
    const code = 'def add(a, b):\n    return 0\n\ndef plus(a, b):\n    return a + b\n';
    expect(await outcome({ language: 'python', code, functionName: 'add', functionNames: { python: 'plus' }, testCases: one })).toEqual([
      { passed: true, actual: 5, error: null },
    ]);
  });

  it('falls back from functionNames.typescript to functionNames.javascript', async () => {
    const code = 'function add(a: number, b: number) { return 0; }\nfunction plus(a: number, b: number) { return a + b; }\n';
    expect(
      (await outcome({ language: 'typescript', code, functionName: 'add', functionNames: { javascript: 'plus' }, testCases: one }))[0]
        .passed,
    ).toBe(true);
  });

  it('converts the snake_case functionName to camelCase for JavaScript', async () => {
    const code = 'function helper(x) { return x; }\nfunction addNumbers(a, b) { return helper(a) + b; }\n';
    expect((await outcome({ language: 'javascript', code, functionName: 'add_numbers', testCases: one }))[0].passed).toBe(true);
  });

  it('matches case-insensitively ignoring underscores (Python entry points that are not snake_case)', async () => {
    const code = 'def helper(x):\n    return x\n\ndef Strongest_Extension(a, b):\n    return helper(a) + b\n';
    expect((await outcome({ language: 'python', code, functionName: 'strongest_extension', testCases: one }))[0].passed).toBe(true);
  });

  it('uses the only top-level function when no name matches', async () => {
    expect(
      (await outcome({ language: 'python', code: 'def whatever(a, b):\n    return a + b\n', functionName: 'add', testCases: one }))[0]
        .passed,
    ).toBe(true);
  });

  it('calls a method of class Solution on a fresh instance per case', async () => {
    const code =
      'class Solution:\n    def __init__(self):\n        self.calls = 0\n    def add(self, a, b):\n        self.calls += 1\n        return a + b + self.calls - 1\n';
    const cases = [...one, ...one];
    expect((await outcome({ language: 'python', code, functionName: 'add', testCases: cases })).map((r) => r.passed)).toEqual([true, true]);
    const js = 'class Solution {\n  add(a, b) { return a + b; }\n}\n';
    expect((await outcome({ language: 'javascript', code: js, testCases: one }))[0].passed).toBe(true);
  });

  it('finds const arrow functions, var function expressions and export default functions', async () => {
    for (const code of [
      'const add = (a, b) => a + b;',
      'var add = function (a, b) { return a + b; };',
      'export default function add(a, b) { return a + b; }',
      'export const add = async (a, b) => a + b;',
    ]) {
      expect(
        (await outcome({ language: 'javascript', code: `function helper() {}\n${code}\n`, functionName: 'add', testCases: one }))[0],
        code,
      ).toMatchObject({ passed: true });
    }
  });

  it('uses the legacy fallbacks and a run-time lookup for names the source analysis cannot see', async () => {
    const code = 'def helper():\n    pass\n\ndef other():\n    pass\n\nadd = lambda a, b: a + b\n';
    expect((await outcome({ language: 'python', code, pythonFunctionName: 'add', testCases: one }))[0].passed).toBe(true);
    const js = 'function helper() {}\nfunction other() {}\nglobalThis.sum2 = (a, b) => a + b;\nvar add = sum2;\n';
    expect((await outcome({ language: 'javascript', code: js, jsFunctionName: 'add', testCases: one }))[0].passed).toBe(true);
  });

  it('fails every case with an error naming what was tried when nothing matches', async () => {
    const code = 'def helper():\n    pass\n\ndef other():\n    pass\n';
    const results = await outcome({ language: 'python', code, functionName: 'add_two', testCases: [...one, ...one] });
    for (const result of results) {
      expect(result.passed).toBe(false);
      expect(result.error).toMatch(/add_two/);
    }
  });

  it('awaits async functions and coroutines', async () => {
    expect(
      (
        await outcome({
          language: 'python',
          code: 'import asyncio\nasync def add(a, b):\n    await asyncio.sleep(0)\n    return a + b\n',
          testCases: one,
        })
      )[0].passed,
    ).toBe(true);
    expect(
      (await outcome({ language: 'javascript', code: 'async function add(a, b) { await null; return a + b; }', testCases: one }))[0].passed,
    ).toBe(true);
  });
});

describe('argument binding', () => {
  it('binds by name regardless of key order, and by normalised names', async () => {
    const code = 'def sub(first_value, second_value):\n    return first_value - second_value\n';
    const results = await outcome({
      language: 'python',
      code,
      testCases: [
        { args: { second_value: 1, first_value: 5 }, expected: 4 },
        { args: { secondValue: 1, firstValue: 5 }, expected: 4 },
      ],
    });
    expect(results.map((r) => r.passed)).toEqual([true, true]);
  });

  it('binds by key order when no key names a parameter', async () => {
    const results = await outcome({
      language: 'javascript',
      code: 'function sub(a, b) { return a - b; }',
      testCases: [{ args: { x: 5, y: 1 }, expected: 4 }],
    });
    expect(results[0].passed).toBe(true);
  });

  it('lets parameters with defaults be omitted, and rest parameters take the remaining values', async () => {
    const py = await outcome({
      language: 'python',
      code: 'def f(a, b=10, *rest):\n    return a + b + sum(rest)\n',
      testCases: [
        { args: { a: 1 }, expected: 11 },
        { args: { x: 1, y: 2, z: 3, w: 4 }, expected: 10 },
      ],
    });
    expect(py.map((r) => r.passed)).toEqual([true, true]);
    const js = await outcome({
      language: 'javascript',
      code: 'function f(a, b = 10, c) { return a + b + (c ?? 0); }',
      testCases: [{ args: { a: 1, c: 5 }, expected: 16 }],
    });
    expect(js[0].passed).toBe(true);
  });

  it('gives a case with unexpected keys an error naming them, and still runs the other cases', async () => {
    const results = await outcome({
      language: 'python',
      code: 'def f(a, b):\n    return a + b\n',
      testCases: [
        { args: { a: 1, b: 2, c: 3 }, expected: 3 },
        { args: { a: 1, b: 2 }, expected: 3 },
      ],
    });
    expect(results[0].passed).toBe(false);
    expect(results[0].error).toMatch(/'c'/);
    expect(results[1].passed).toBe(true);
  });
});
