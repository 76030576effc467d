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

const twoSumCases = [
  { args: { nums: [2, 7, 11, 15], target: 9 }, expected: [0, 1] },
  { args: { nums: [3, 2, 4], target: 6 }, expected: [1, 2] },
];

describe('correct and wrong solutions', () => {
  const solutions = {
    python:
      'def two_sum(nums, target):\n    seen = {}\n    for i, n in enumerate(nums):\n        if target - n in seen:\n            return [seen[target - n], i]\n        seen[n] = i\n',
    javascript:
      'function twoSum(nums, target) {\n  const seen = new Map();\n  for (let i = 0; i < nums.length; i++) {\n    if (seen.has(target - nums[i])) return [seen.get(target - nums[i]), i];\n    seen.set(nums[i], i);\n  }\n}\n',
    typescript:
      'function twoSum(nums: number[], target: number): number[] {\n  const seen = new Map<number, number>();\n  for (let i = 0; i < nums.length; i++) {\n    const j = seen.get(target - nums[i]);\n    if (j !== undefined) return [j, i];\n    seen.set(nums[i], i);\n  }\n  return [];\n}\n',
  };
  for (const [language, code] of Object.entries(solutions)) {
    it(`passes a correct ${language} solution`, async () => {
      const reply = await execute(service, { language, code, functionName: 'two_sum', testCases: twoSumCases });
      expect(reply.status).toBe(200);
      expect(reply.body.results).toHaveLength(2);
      for (const result of reply.body.results ?? []) {
        expect(result).toMatchObject({ passed: true, error: null, stdout: '' });
        expect(result.runtime).toMatch(/^\d+ms$/);
      }
      expect(reply.body.results?.[0]).toMatchObject({ input: twoSumCases[0].args, expected: [0, 1], actual: [0, 1] });
    });
  }

  it('fails a wrong solution with the actual value it returned, in each language', async () => {
    const wrong = {
      python: 'def two_sum(nums, target):\n    return [len(nums), target]\n',
      javascript: 'const twoSum = (nums, target) => [nums.length, target];\n',
      typescript: 'export function twoSum(nums: number[], target: number): number[] { return [nums.length, target]; }\n',
    };
    for (const [language, code] of Object.entries(wrong)) {
      const reply = await execute(service, { language, code, functionName: 'two_sum', testCases: twoSumCases });
      expect(reply.status, language).toBe(200);
      expect(
        reply.body.results?.map((r) => [r.passed, r.actual, r.error]),
        language,
      ).toEqual([
        [false, [4, 9], null],
        [false, [3, 6], null],
      ]);
    }
  });

  it('accepts the language aliases case-insensitively', async () => {
    for (const language of ['PY', 'Js', 'ts']) {
      const reply = await execute(service, {
        language,
        code: language === 'PY' ? 'def f(x):\n    return x\n' : 'function f(x) { return x; }',
        testCases: [{ args: { x: 1 }, expected: 1 }],
      });
      expect(reply.status, language).toBe(200);
      expect(reply.body.results?.[0].passed, language).toBe(true);
    }
  });
});

describe('values', () => {
  it('keeps 3.0 a float and big integers exact in Python', async () => {
    const code = 'def probe(x, big):\n    return [isinstance(x, float), big + 1, type(big).__name__]\n';
    const body =
      '{"language":"python","code":' +
      JSON.stringify(code) +
      ',"testCases":[{"args":{"x":3.0,"big":12345678901234567890},"expected":[true,12345678901234567891,"int"]}]}';
    const reply = await fetch(`${service.url}/api/v1/code/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await reply.text();
    expect(reply.status).toBe(200);
    expect(text).toContain('12345678901234567891');
    expect(text).toContain('"input":{"x":3.0,"big":12345678901234567890}');
    expect(JSON.parse(text).results[0].passed).toBe(true);
  });

  it('compares numbers with a tolerance for floats, exactly for integers, and keeps booleans apart', async () => {
    const code =
      'def f(kind):\n    return {"float": 0.1 + 0.2, "int": 1000000001, "one": 1.0, "bool": True, "tuple": (1, 2), "set": {3, 1, 2}, "nan": float("nan")}[kind]\n';
    const testCases = [
      { args: { kind: 'float' }, expected: 0.3 },
      { args: { kind: 'int' }, expected: 1000000000 },
      { args: { kind: 'one' }, expected: 1 },
      { args: { kind: 'bool' }, expected: 1 },
      { args: { kind: 'tuple' }, expected: [1, 2] },
      { args: { kind: 'set' }, expected: [1, 2, 3] },
      { args: { kind: 'nan' }, expected: 'NaN' },
    ];
    const reply = await execute(service, { language: 'python', code, testCases });
    expect(reply.body.results?.map((r) => r.passed)).toEqual([true, false, true, false, true, true, true]);
  });

  it('encodes JavaScript values JSON cannot carry', async () => {
    const code =
      'function f(kind) {\n  return { undef: undefined, inf: -Infinity, big: 2n ** 70n, set: new Set(["b", "a"]), map: new Map([[1, "x"]]) }[kind];\n}\n';
    const testCases = ['undef', 'inf', 'big', 'set', 'map'].map((kind) => ({ args: { kind }, expected: null }));
    const reply = await execute(service, { language: 'javascript', code, testCases });
    expect(reply.body.results?.map((r) => r.actual)).toEqual([null, '-Infinity', 1180591620717411303424, ['a', 'b'], { 1: 'x' }]);
  });

  it('gives every case fresh arguments, so mutation does not leak into later cases or the echoed input', async () => {
    const code = 'def pop_all(items):\n    items.sort()\n    return items.pop()\n';
    const args = { items: [3, 1, 2] };
    const reply = await execute(service, {
      language: 'python',
      code,
      testCases: [
        { args, expected: 3 },
        { args, expected: 3 },
      ],
    });
    expect(reply.body.results?.map((r) => [r.passed, r.input])).toEqual([
      [true, args],
      [true, args],
    ]);
  });
});
