// What the host decides before any sandbox is involved: the source to send, the function to call,
// each case's arguments laid out for the harness, or one error for every case.
import { describe, expect, it } from 'vitest';
import { prepareExecution, type Prepared } from '../../src/core/execute/prepare.js';
import { parseLanguage, type Language } from '../../src/core/languages.js';
import type { ExecuteRequest } from '../../src/core/request-schema.js';
import { exactJson } from '../../src/web/json.js';
import { num } from '../support/fake-runner.js';

function prepare(language: Language, code: string, testCases: ExecuteRequest['testCases'], functionName?: string): Prepared {
  return prepareExecution({ language, code, testCases, ...(functionName ? { functionName } : {}) }, language, 64);
}

function runnable(prepared: Prepared): Extract<Prepared, { kind: 'run' }> {
  if (prepared.kind !== 'run') throw new Error(`expected a job, got: ${prepared.error}`);
  return prepared;
}

describe('prepareExecution', () => {
  it('resolves language names and aliases case-insensitively, and nothing else', () => {
    expect(['Python', 'py', ' JS ', 'javascript', 'TS', 'typescript'].map(parseLanguage)).toEqual([
      'python',
      'python',
      'javascript',
      'javascript',
      'typescript',
      'typescript',
    ]);
    expect(parseLanguage('ruby')).toBeUndefined();
  });

  it('calls a Python method on a fresh Solution, binding arguments by name and keeping numbers exact', () => {
    const code = 'class Solution:\n    def two_sum(self, nums, target):\n        return []\n';
    const prepared = runnable(prepare('python', code, [{ args: { target: num('9.0'), nums: [num('2'), num('7')] }, expected: [] }]));
    expect(prepared.interpreter).toBe('python');
    expect(prepared.job.filename).toBe('solution.py');
    expect(prepared.job.code).toBe(code);
    expect(prepared.job.target).toEqual({ class: 'Solution', names: ['two_sum'] });
    expect(prepared.job.cases).toHaveLength(1);
    expect(exactJson(prepared.job.cases[0])).toBe('{"i":0,"args":[],"kwargs":{"nums":[2,7],"target":9.0},"undef":[]}');
  });

  it('transpiles TypeScript for the node interpreter, lays arguments out in parameter order and maps lines back', () => {
    const code = 'type N = number;\n\nfunction add(a: N, b: N = 2): N {\n  const s = a + b;\n  return s;\n}\n';
    const prepared = runnable(
      prepare('typescript', code, [
        { args: { b: num('1'), a: num('2') }, expected: num('3') },
        { args: { a: num('1'), b: num('2'), c: num('3') }, expected: num('3') },
      ]),
    );
    expect(prepared.interpreter).toBe('node');
    expect(prepared.job.filename).toBe('solution.js');
    expect(prepared.job.code).toBe('function add(a, b = 2) {\n    const s = a + b;\n    return s;\n}\n');
    expect(prepared.job.target).toEqual({ names: ['add'] });
    expect(prepared.job.cases.map((c) => [c.i, exactJson(c.args)])).toEqual([[0, '[2,1]']]);
    // the case that cannot be bound never reaches the sandbox and fails on its own
    expect([...prepared.caseErrors]).toEqual([[1, "unexpected argument(s) 'c' for add(a, b=…)"]]);
    expect(prepared.job.lineMap?.(2)).toBe(4);
  });

  it('fails every case when no function can be resolved', () => {
    expect(prepare('python', 'x = 1\n', [{ args: {}, expected: null }])).toEqual({
      kind: 'fail-all',
      error: 'no function to call was found; tried no names',
    });
    expect(prepare('python', 'x = 1\ny = 2\n', [{ args: {}, expected: null }], 'two sum')).toEqual({
      kind: 'fail-all',
      error: 'no function to call was found; tried two sum',
    });
  });

  it('fails every case with the first TypeScript syntax error, where it is', () => {
    const prepared = prepare('typescript', 'function add(a: number, b: number): number {\n  return a +\n}\n', [
      { args: {}, expected: null },
    ]);
    expect(prepared).toEqual({ kind: 'fail-all', error: 'SyntaxError: Expression expected. (line 3, column 1)' });
  });
});
