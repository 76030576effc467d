import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Language } from '../../src/core/languages.js';
import type { FunctionDef } from '../../src/core/resolve/definitions.js';
import { findJsDefinitions } from '../../src/core/resolve/js-definitions.js';
import { findPythonDefinitions } from '../../src/core/resolve/python-definitions.js';
import { describeTried, resolveFunction, type NameFields } from '../../src/core/resolve/resolve-function.js';

const CORPUS = path.resolve(import.meta.dirname, '../../../shared/corpus');

interface CorpusLine {
  id: string;
  kind: string;
  request: NameFields & { code: string; language: Language };
  meta: { definedName: string; params: string[] };
}

function corpus(language: Language): CorpusLine[] {
  return readFileSync(path.join(CORPUS, `humaneval-${language}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as CorpusLine);
}

function definitions(code: string, language: Language): FunctionDef[] {
  return language === 'python' ? findPythonDefinitions(code) : findJsDefinitions(code, language);
}

function resolve(code: string, language: Language, request: NameFields) {
  return resolveFunction(request, language, definitions(code, language));
}

const fn = (name: string, className?: string): FunctionDef => ({ name, params: [], line: 1, ...(className ? { className } : {}) });

describe.each(['python', 'javascript', 'typescript'] as const)('HumanEval corpus (%s)', (language) => {
  const lines = corpus(language);

  it('has requests', () => expect(lines.length).toBeGreaterThan(100));

  it('resolves every request statically to the defined name with its parameters', () => {
    const wrong: string[] = [];
    for (const line of lines) {
      const resolution = resolve(line.request.code, line.request.language, line.request);
      const got = resolution.kind === 'static' ? resolution.def : undefined;
      if (got?.name !== line.meta.definedName || got.params.map((param) => param.name).join() !== line.meta.params.join()) {
        wrong.push(
          `${line.id} ${line.kind}: wanted ${line.meta.definedName}(${line.meta.params.join()}), got ${JSON.stringify(resolution)}`,
        );
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('resolveFunction order', () => {
  it('a: functionNames for the language wins over functionName', () => {
    const defs = [fn('two_sum'), fn('solve')];
    expect(resolveFunction({ functionName: 'two_sum', functionNames: { python: 'solve' } }, 'python', defs)).toEqual({
      kind: 'static',
      def: defs[1],
    });
  });

  it('a: typescript falls back to functionNames.javascript', () => {
    const defs = [fn('twoSum'), fn('solveIt')];
    expect(resolveFunction({ functionName: 'two_sum', functionNames: { javascript: 'solveIt' } }, 'typescript', defs)).toEqual({
      kind: 'static',
      def: defs[1],
    });
    expect(
      resolveFunction({ functionName: 'two_sum', functionNames: { javascript: 'solveIt', typescript: 'twoSum' } }, 'typescript', defs),
    ).toEqual({ kind: 'static', def: defs[0] });
  });

  it('a: an explicit name matching nothing falls through to functionName', () => {
    const defs = [fn('twoSum'), fn('helper')];
    expect(resolveFunction({ functionName: 'two_sum', functionNames: { javascript: 'missing' } }, 'javascript', defs)).toEqual({
      kind: 'static',
      def: defs[0],
    });
  });

  it('b: converted name first, then the legacy field, then functionName as given', () => {
    const defs = [fn('legacyName'), fn('two_sum'), fn('twoSum')];
    expect(resolveFunction({ functionName: 'two_sum', jsFunctionName: 'legacyName' }, 'javascript', defs)).toEqual({
      kind: 'static',
      def: defs[2],
    });
    // A definition the converted name reaches by conversion still beats the legacy name.
    expect(resolveFunction({ functionName: 'two_sum', jsFunctionName: 'legacyName' }, 'javascript', defs.slice(0, 2))).toEqual({
      kind: 'static',
      def: defs[1],
    });
    expect(resolveFunction({ functionName: 'two_sum', jsFunctionName: 'legacyName' }, 'javascript', [fn('helper'), defs[0]])).toEqual({
      kind: 'static',
      def: defs[0],
    });
    expect(resolveFunction({ functionName: 'two_sum', pythonFunctionName: 'legacyName' }, 'python', defs)).toEqual({
      kind: 'static',
      def: defs[1],
    });
  });

  it('b: the best rank wins, and a top-level function beats a method at equal rank', () => {
    const loose = fn('TWOSUM');
    const exactMethod = fn('two_sum', 'Solution');
    const exactTop = fn('two_sum');
    expect(resolveFunction({ functionName: 'two_sum' }, 'python', [loose, exactMethod])).toEqual({ kind: 'static', def: exactMethod });
    expect(resolveFunction({ functionName: 'two_sum' }, 'python', [exactMethod, exactTop, loose])).toEqual({
      kind: 'static',
      def: exactTop,
    });
  });

  it('b: a camelCase Python definition answers to the snake_case name', () => {
    const def = fn('digitSum');
    expect(resolveFunction({ functionName: 'digit_sum' }, 'python', [fn('helper_a'), def, fn('helper_b')])).toEqual({
      kind: 'static',
      def,
    });
  });

  it('c: the only top-level function is used whatever its name', () => {
    const def = fn('solve');
    expect(resolveFunction({ functionName: 'two_sum' }, 'python', [def])).toEqual({ kind: 'static', def });
    expect(resolveFunction({}, 'javascript', [def, fn('method', 'Solution')])).toEqual({ kind: 'static', def });
  });

  it('c: the only public method of Solution is used when there is no top-level function', () => {
    const def = fn('anything', 'Solution');
    expect(resolveFunction({ functionName: 'two_sum' }, 'python', [def])).toEqual({ kind: 'static', def });
  });

  it('d: falls back to a run-time lookup of every name, in order, deduplicated', () => {
    const defs = [fn('helper_one'), fn('helper_two')];
    expect(
      resolveFunction({ functionName: 'twoSum', functionNames: { python: 'solve' }, pythonFunctionName: 'legacy' }, 'python', defs),
    ).toEqual({ kind: 'deferred', names: ['solve', 'legacy', 'two_sum', 'twoSum'], tried: ['solve', 'legacy', 'two_sum', 'twoSum'] });
    expect(resolveFunction({ functionName: 'two_sum' }, 'javascript', [])).toEqual({
      kind: 'deferred',
      names: ['twoSum', 'two_sum'],
      tried: ['twoSum', 'two_sum'],
    });
  });

  it('d: looks the names up as methods of Solution when it has several methods and nothing is top-level', () => {
    const defs = [fn('first', 'Solution'), fn('second', 'Solution')];
    expect(resolveFunction({ functionName: 'two_sum' }, 'python', defs)).toEqual({
      kind: 'deferred',
      className: 'Solution',
      names: ['two_sum'],
      tried: ['two_sum'],
    });
  });

  it('d: drops names that are not identifiers, and gives up when none is left', () => {
    expect(resolveFunction({ functionName: 'two-sum', jsFunctionName: 'ok' }, 'javascript', [])).toEqual({
      kind: 'deferred',
      names: ['ok'],
      tried: ['ok', 'two-sum'],
    });
    expect(resolveFunction({ functionName: 'class' }, 'python', [])).toEqual({ kind: 'none', tried: ['class'] });
    expect(resolveFunction({}, 'python', [fn('a'), fn('b')])).toEqual({ kind: 'none', tried: [] });
  });

  it('uses definitions from real code: a lambda is found only at run time', () => {
    expect(resolve('square = lambda x: x * x\n', 'python', { functionName: 'square' })).toEqual({
      kind: 'deferred',
      names: ['square'],
      tried: ['square'],
    });
    expect(resolve('module.exports = { twoSum: (a) => a };', 'javascript', { functionName: 'two_sum' })).toEqual({
      kind: 'deferred',
      names: ['twoSum', 'two_sum'],
      tried: ['twoSum', 'two_sum'],
    });
  });
});

it('describeTried lists the names in the harness wording', () => {
  expect(describeTried(['two_sum', 'twoSum', 'solve'])).toBe('no function named two_sum, twoSum or solve is defined');
  expect(describeTried(['f'])).toBe('no function named f is defined');
  expect(describeTried([])).toMatch(/no function name was given/);
});
