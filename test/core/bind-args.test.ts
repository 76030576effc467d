import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LosslessNumber, parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { bindArgs, describeSignature } from '../../src/core/bind-args.js';
import type { Language } from '../../src/core/languages.js';
import type { ParamInfo } from '../../src/core/resolve/definitions.js';
import { findJsDefinitions } from '../../src/core/resolve/js-definitions.js';
import { findPythonDefinitions } from '../../src/core/resolve/python-definitions.js';
import { resolveFunction } from '../../src/core/resolve/resolve-function.js';

const pos = (name: string, hasDefault = false): ParamInfo => ({ name, kind: 'positional', hasDefault });
const kwOnly = (name: string, hasDefault = false): ParamInfo => ({ name, kind: 'keyword-only', hasDefault });
const rest = (name: string): ParamInfo => ({ name, kind: 'rest', hasDefault: false });
const kwargs = (name: string): ParamInfo => ({ name, kind: 'kwargs', hasDefault: false });
const n = (text: string) => new LosslessNumber(text);

describe('bindArgs, unknown signature', () => {
  it('passes values positionally in key order', () => {
    const three = n('3.0');
    expect(bindArgs({ b: 1, a: three }, undefined, 'python')).toEqual({ ok: true, args: [1, three], kwargs: {}, undef: [] });
  });
});

describe('bindArgs, Python', () => {
  it('binds exact names as keyword arguments, in any key order', () => {
    expect(bindArgs({ b: 2, a: 1 }, [pos('a'), pos('b')], 'python')).toEqual({ ok: true, args: [], kwargs: { a: 1, b: 2 }, undef: [] });
  });

  it('binds normalised names to the real parameter names', () => {
    expect(bindArgs({ numList: [1], Target_Value: 5 }, [pos('num_list'), pos('targetvalue')], 'python')).toEqual({
      ok: true,
      args: [],
      kwargs: { num_list: [1], targetvalue: 5 },
      undef: [],
    });
  });

  it('prefers an exact name over a convention match for the same parameter', () => {
    const result = bindArgs({ twoSum: 1, two_sum: 2 }, [pos('two_sum')], 'python', 'f');
    expect(result).toEqual({ ok: false, error: "unexpected argument(s) 'twoSum' for f(two_sum)" });
  });

  it('binds by key order when no key names a parameter', () => {
    expect(bindArgs({ x: 1, y: 2 }, [pos('a'), pos('b')], 'python')).toEqual({ ok: true, args: [1, 2], kwargs: {}, undef: [] });
  });

  it('rejects more positional values than the function takes', () => {
    expect(bindArgs({ x: 1, y: 2, z: 3 }, [pos('a'), pos('b')], 'python', 'f')).toEqual({
      ok: false,
      error: "unexpected argument(s) 'z' for f(a, b)",
    });
  });

  it('names extra keys when binding by name', () => {
    expect(bindArgs({ a: 1, x: 2, y: 3 }, [pos('a'), pos('b')], 'python', 'f')).toEqual({
      ok: false,
      error: "unexpected argument(s) 'x', 'y' for f(a, b)",
    });
  });

  it('lets defaults and missing required parameters be omitted', () => {
    expect(bindArgs({ c: 3 }, [pos('a'), pos('b', true), pos('c')], 'python')).toEqual({ ok: true, args: [], kwargs: { c: 3 }, undef: [] });
  });

  it('puts keyword-only parameters in kwargs', () => {
    expect(bindArgs({ a: 1, k: 2 }, [pos('a'), kwOnly('k')], 'python')).toEqual({ ok: true, args: [], kwargs: { a: 1, k: 2 }, undef: [] });
  });

  it('passes positional-only parameters by position', () => {
    const params: ParamInfo[] = [{ ...pos('a'), positionalOnly: true }, { ...pos('b', true), positionalOnly: true }, pos('c')];
    expect(bindArgs({ c: 3, a: 1 }, params, 'python')).toEqual({ ok: true, args: [1], kwargs: { c: 3 }, undef: [] });
    const gap = bindArgs({ b: 2 }, params, 'python', 'f');
    expect(gap.ok).toBe(false);
    if (!gap.ok) expect(gap.error).toContain("'a' can only be passed by position");
  });

  it('gives extra keys to *args in key order, with the positional parameters by position', () => {
    expect(bindArgs({ a: 1, x: 2, y: 3, k: 4 }, [pos('a'), rest('args'), kwOnly('k')], 'python')).toEqual({
      ok: true,
      args: [1, 2, 3],
      kwargs: { k: 4 },
      undef: [],
    });
  });

  it('spreads an array given under the *args name', () => {
    expect(bindArgs({ a: 1, args: [2, 3] }, [pos('a'), rest('args')], 'python')).toEqual({
      ok: true,
      args: [1, 2, 3],
      kwargs: {},
      undef: [],
    });
  });

  it('gives extra keys to **kwargs by name', () => {
    expect(bindArgs({ a: 1, x: 2 }, [pos('a'), kwargs('kw')], 'python')).toEqual({ ok: true, args: [], kwargs: { a: 1, x: 2 }, undef: [] });
    expect(bindArgs({ a: 1, x: 2 }, [pos('a'), rest('args'), kwargs('kw')], 'python')).toEqual({
      ok: true,
      args: [],
      kwargs: { a: 1, x: 2 },
      undef: [],
    });
  });

  it('passes values through untouched', () => {
    const body = parse('{"nums": [3.0, 9999999999999999999], "x": 1.50}') as Record<string, unknown>;
    const bound = bindArgs(body, [pos('nums'), pos('x')], 'python');
    expect(bound.ok && bound.kwargs.nums).toBe(body.nums);
    expect(bound.ok && bound.kwargs.x).toBe(body.x);
    expect(bound.ok && String(bound.kwargs.x)).toBe('1.50');
  });
});

describe('bindArgs, JavaScript', () => {
  it('builds the positional list in parameter order', () => {
    expect(bindArgs({ target: 9, nums: [2, 7] }, [pos('nums'), pos('target')], 'javascript')).toEqual({
      ok: true,
      args: [[2, 7], 9],
      kwargs: {},
      undef: [],
    });
  });

  it('binds snake_case keys to camelCase parameters', () => {
    expect(bindArgs({ num_list: [1], max_value: 2 }, [pos('numList'), pos('maxValue')], 'javascript')).toEqual({
      ok: true,
      args: [[1], 2],
      kwargs: {},
      undef: [],
    });
  });

  it('marks omitted parameters before a given one as undefined', () => {
    expect(bindArgs({ c: 3 }, [pos('a', true), pos('b', true), pos('c'), pos('d', true)], 'javascript')).toEqual({
      ok: true,
      args: [null, null, 3],
      kwargs: {},
      undef: [0, 1],
    });
  });

  it('drops trailing omitted parameters', () => {
    expect(bindArgs({ a: 1 }, [pos('a'), pos('b', true)], 'javascript')).toEqual({ ok: true, args: [1], kwargs: {}, undef: [] });
  });

  it('gives extra keys to the rest parameter after every positional one', () => {
    expect(bindArgs({ x: 5, a: 1, y: 6 }, [pos('a'), pos('b', true), rest('more')], 'javascript')).toEqual({
      ok: true,
      args: [1, null, 5, 6],
      kwargs: {},
      undef: [1],
    });
    expect(bindArgs({ more: [1, 2] }, [rest('more')], 'javascript')).toEqual({ ok: true, args: [1, 2], kwargs: {}, undef: [] });
  });

  it('binds by key order, rest included, when no key names a parameter', () => {
    expect(bindArgs({ p: 1, q: 2, r: 3 }, [pos('a'), rest('more')], 'javascript')).toEqual({
      ok: true,
      args: [1, 2, 3],
      kwargs: {},
      undef: [],
    });
  });

  it('names extra keys in the error', () => {
    expect(bindArgs({ a: 1, zz: 2 }, [pos('a'), pos('b', true)], 'javascript', 'f')).toEqual({
      ok: false,
      error: "unexpected argument(s) 'zz' for f(a, b=…)",
    });
  });

  it('binds an empty object to an empty call', () => {
    expect(bindArgs({}, [pos('a', true)], 'javascript')).toEqual({ ok: true, args: [], kwargs: {}, undef: [] });
  });
});

it("describeSignature writes each language's syntax", () => {
  const params: ParamInfo[] = [{ ...pos('a'), positionalOnly: true }, pos('b', true), rest('args'), kwOnly('k'), kwargs('kw')];
  expect(describeSignature('f', params, 'python')).toBe('f(a, /, b=…, *args, k, **kw)');
  expect(describeSignature('f', [pos('a'), kwOnly('k')], 'python')).toBe('f(a, *, k)');
  expect(describeSignature('g', [pos('a'), rest('r')], 'javascript')).toBe('g(a, ...r)');
});

describe.each(['python', 'javascript', 'typescript'] as const)('HumanEval corpus (%s)', (language: Language) => {
  it('binds every test case by name, in the parameter order', () => {
    const file = path.resolve(import.meta.dirname, `../../../shared/corpus/humaneval-${language}.jsonl`);
    const problems: string[] = [];
    for (const text of readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')) {
      const line = parse(text) as {
        id: string;
        request: { code: string; functionName: string; testCases: Array<{ args: Record<string, unknown> }> };
      };
      const defs = language === 'python' ? findPythonDefinitions(line.request.code) : findJsDefinitions(line.request.code, language);
      const resolution = resolveFunction(line.request, language, defs);
      if (resolution.kind !== 'static') {
        problems.push(`${line.id}: not resolved`);
        continue;
      }
      for (const testCase of line.request.testCases) {
        const bound = bindArgs(testCase.args, resolution.def.params, language, resolution.def.name);
        const values = Object.values(testCase.args);
        const ok =
          bound.ok &&
          (language === 'python'
            ? bound.args.length === 0 &&
              Object.values(bound.kwargs).every((value, i) => value === values[i]) &&
              Object.keys(bound.kwargs).length === values.length
            : bound.undef.length === 0 && bound.args.length === values.length && bound.args.every((value, i) => value === values[i]));
        if (!ok) problems.push(`${line.id}: ${JSON.stringify(bound)}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
