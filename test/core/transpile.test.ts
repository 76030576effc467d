import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { prepareJavaScript, transpileTypeScript } from '../../src/core/transpile.js';

interface Loaded {
  context: vm.Context;
  module: { exports: Record<string, unknown> };
}

/** Loads code the way a CommonJS-style harness would: a classic script with `module` and `exports`. */
function load(code: string): Loaded {
  const module = { exports: {} as Record<string, unknown> };
  const context = vm.createContext({ module, exports: module.exports });
  new vm.Script(code, { filename: 'solution.js' }).runInContext(context);
  return { context, module };
}

function call(loaded: Loaded, name: string, ...args: unknown[]): unknown {
  const fn = vm.runInContext(`typeof ${name} === 'function' ? ${name} : exports.${name}`, loaded.context) as (...a: unknown[]) => unknown;
  return fn(...args);
}

/** The solution.js line of the innermost frame of the error `run` throws. */
function thrownLine(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    const match = /solution\.js:(\d+)/.exec(String((error as Error).stack));
    if (match) return Number(match[1]);
  }
  throw new Error('no solution.js frame');
}

function prepared(code: string): string {
  const result = prepareJavaScript(code);
  if (!result.ok) throw new Error(result.error);
  return result.code;
}

function compiled(code: string) {
  const result = transpileTypeScript(code);
  if (!result.ok) throw new Error(result.error);
  return result;
}

/** Same length and the same line breaks in the same places: no line or column moved. */
function expectSameLayout(before: string, after: string) {
  expect(after.length).toBe(before.length);
  const breaks = (text: string) => [...text.matchAll(/[\n\r\u2028\u2029]/g)].map((match) => match.index);
  expect(breaks(after)).toEqual(breaks(before));
}

describe('prepareJavaScript', () => {
  it('leaves code without exports exactly as it is', () => {
    const code = 'function f(a) {\n  return a + 1;\n}\n';
    expect(prepared(code)).toBe(code);
  });

  it('blanks export keywords before declarations, keeping every position', () => {
    const code = [
      'export function add(a, b) { return a + b; }',
      'export async function later(x) { return x; }',
      'export const twice = (x) => x * 2;',
      'export let counter = 0;',
      'export class Solution { run(n) { return n + 1; } }',
      'export default function main(x) { return -x; }',
    ].join('\n');
    const out = prepared(code);
    expectSameLayout(code, out);
    expect(out.split('\n')[0]).toBe('       function add(a, b) { return a + b; }');
    const loaded = load(out);
    expect(call(loaded, 'add', 2, 3)).toBe(5);
    expect(call(loaded, 'twice', 4)).toBe(8);
    expect(call(loaded, 'main', 4)).toBe(-4);
    expect(vm.runInContext('new Solution().run(1)', loaded.context)).toBe(2);
  });

  it('removes export lists and re-exports whole, keeping line breaks', () => {
    const code =
      'function a() { return 1; }\nconst b = a()\nexport {\n  a,\n  b as c,\n}\n(function () { globalThis.ran = true; })()\nexport * from "./other.js";\nexport { x } from "./x.js";\n';
    const out = prepared(code);
    expectSameLayout(code, out);
    expect(out).not.toContain('export');
    const loaded = load(out);
    expect(vm.runInContext('ran', loaded.context)).toBe(true);
    expect(vm.runInContext('b', loaded.context)).toBe(1);
  });

  it('turns an anonymous default export into module.exports', () => {
    const arrow = prepared('export default (a, b) => a * b;\n');
    expect(arrow).toBe('module.exports=(a, b) => a * b;\n');
    expect((load(arrow).module.exports as unknown as (a: number, b: number) => number)(3, 4)).toBe(12);

    const fn = prepared('export default function (a) { return a; }\n');
    expectSameLayout('export default function (a) { return a; }\n', fn);
    expect(typeof load(fn).module.exports).toBe('function');
  });

  it('keeps V8 error positions pointing at the original code', () => {
    const code = 'export function boom(a) {\n  const x = 1;\n  throw new Error("line 3");\n}\n';
    const loaded = load(prepared(code));
    expect(thrownLine(() => call(loaded, 'boom', 1))).toBe(3);
  });

  it('leaves import statements for the runtime to reject', () => {
    const code = 'import fs from "node:fs";\nexport function f() {}\n';
    const out = prepared(code);
    expect(out.startsWith('import fs from "node:fs";')).toBe(true);
    expect(() => load(out)).toThrow(/import statement outside a module/);
  });

  it('still prepares code with a syntax error, for V8 to report', () => {
    const code = 'export function f(a) {\n  return a +;\n}\n';
    const out = prepared(code);
    expectSameLayout(code, out);
    expect(() => load(out)).toThrow(SyntaxError);
  });

  it('keeps sloppy-mode code working', () => {
    const code = 'function f() { undeclared = 5; return undeclared; }\n';
    expect(call(load(prepared(code)), 'f')).toBe(5);
  });
});

describe('transpileTypeScript', () => {
  it('erases types, interfaces, generics and runs enums and exported functions', () => {
    const code = [
      'interface Point { x: number; y: number }',
      'type Pair<T> = [T, T];',
      'enum Direction { Up = 1, Down, Left, Right }',
      'function first<T>(items: T[]): T | undefined {',
      '  return items[0];',
      '}',
      'export function manhattan(a: Point, b: Point): number {',
      '  return Math.abs(a.x - b.x) + Math.abs(a.y - b.y);',
      '}',
      'export const swap = <T,>([p, q]: Pair<T>): Pair<T> => [q, p];',
      'export class Solution {',
      '  private readonly base: number = 10;',
      '  direction(name: keyof typeof Direction): number { return Direction[name] + this.base; }',
      '}',
      'const answer = first<number>([42, 7]) as number;',
    ].join('\n');
    const result = compiled(code);
    const loaded = load(result.code);
    expect(call(loaded, 'manhattan', { x: 1, y: 2 }, { x: 4, y: 6 })).toBe(7);
    expect(call(loaded, 'swap', [1, 2])).toEqual([2, 1]);
    expect(vm.runInContext('new exports.Solution().direction("Left")', loaded.context)).toBe(13);
    expect(vm.runInContext('answer', loaded.context)).toBe(42);
    expect(vm.runInContext('first(["a"])', loaded.context)).toBe('a');
  });

  it('adds "use strict" only to modules', () => {
    expect(compiled('function f(x: number) { return x; }\n').code).not.toContain('use strict');
    expect(compiled('export function f(x: number) { return x; }\n').code).toContain('"use strict"');
    expect(compiled('function f() { return 1; }\n').code).not.toContain('sourceMappingURL');
  });

  it('maps output lines back to the TypeScript lines', () => {
    const code = [
      'interface Unused { a: string }', // 1
      'type Alias = number;', // 2
      '', // 3
      'export function divide(', // 4
      '  a: number,', // 5
      '  b: number,', // 6
      '): number {', // 7
      '  const checked: number =', // 8
      '    b;', // 9
      '  if (checked === 0) {', // 10
      '    throw new RangeError("zero");', // 11
      '  }', // 12
      '  return a / b;', // 13
      '}', // 14
      'enum E { A }', // 15
      'export const fails = (n: number): never => {', // 16
      '  throw new Error(`n=${n}`);', // 17
      '};', // 18
    ].join('\n');
    const result = compiled(code);
    const loaded = load(result.code);
    expect(call(loaded, 'divide', 6, 3)).toBe(2);
    expect(result.lineMap(thrownLine(() => call(loaded, 'divide', 1, 0)))).toBe(11);
    expect(result.lineMap(thrownLine(() => call(loaded, 'fails', 1)))).toBe(17);
    // Lines TypeScript adds ("use strict", the exports preamble) still map inside the source.
    expect(result.lineMap(1)).toBeGreaterThanOrEqual(1);
    expect(result.lineMap(1)).toBeLessThanOrEqual(18);
  });

  it('reports a syntax error with its line and column', () => {
    expect(transpileTypeScript('function f(a: number) {\n  return a +;\n}\n')).toEqual({
      ok: false,
      error: 'SyntaxError: Expression expected. (line 2, column 13)',
    });
    expect(transpileTypeScript('const x = 1;\nfunction g(a: number {\n}\n')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^SyntaxError: .* \(line 2, column \d+\)$/),
    });
  });

  it('does not type-check', () => {
    const result = compiled(
      'const n: number = "not a number" as any as string as unknown as number;\nfunction f(): string { return n as unknown as string; }\nlet s: string = 5 as unknown as string;\n',
    );
    expect(call(load(result.code), 'f')).toBe('not a number');
  });

  it('transpiles every TypeScript request of the HumanEval corpus', () => {
    const file = path.resolve(import.meta.dirname, '../../../shared/corpus/humaneval-typescript.jsonl');
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const text of lines) {
      const { id, kind, request } = JSON.parse(text) as { id: string; kind: string; request: { code: string } };
      const result = transpileTypeScript(request.code);
      if (!result.ok) failures.push(`${id} ${kind}: ${result.error}`);
      else {
        try {
          load(result.code);
        } catch (error) {
          failures.push(`${id} ${kind}: does not load: ${String(error)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
