import { describe, expect, it } from 'vitest';
import { findJsDefinitions } from '../../src/core/resolve/js-definitions.js';

const summary = (code: string, language: 'javascript' | 'typescript' = 'javascript') =>
  findJsDefinitions(code, language).map(
    (def) =>
      `${def.className ? `${def.className}.` : ''}${def.name}(${def.params.map((p) => `${p.kind === 'rest' ? '...' : ''}${p.name}${p.hasDefault ? '?' : ''}`).join(', ')})@${def.line}`,
  );

describe('findJsDefinitions', () => {
  it('finds every top-level function form', () => {
    const code = [
      'function a(x) {}',
      'async function b(x, y) {}',
      'export function c() {}',
      'export default function d(z) {}',
      'const e = (p, q) => p + q;',
      'let f = async x => x;',
      'var g = function (m) { return m; };',
      'export const h = function named(n) {};',
      'const i = ((k) => k);',
      'const notAFunction = 3, j = (w) => w;',
      'function* k(n) {}',
    ].join('\n');
    expect(summary(code)).toEqual([
      'a(x)@1',
      'b(x, y)@2',
      'c()@3',
      'd(z)@4',
      'e(p, q)@5',
      'f(x)@6',
      'g(m)@7',
      'h(n)@8',
      'i(k)@9',
      'j(w)@10',
      'k(n)@11',
    ]);
  });

  it('reads destructured, rest, default and optional parameters', () => {
    const code = 'function f({ a, b }, [c], d = 1, e?: number, ...rest: number[]) {}\nfunction g(this: Window, x: string) {}';
    expect(findJsDefinitions(code, 'typescript')).toEqual([
      {
        name: 'f',
        line: 1,
        params: [
          { name: 'arg0', kind: 'positional', hasDefault: false },
          { name: 'arg1', kind: 'positional', hasDefault: false },
          { name: 'd', kind: 'positional', hasDefault: true },
          { name: 'e', kind: 'positional', hasDefault: true },
          { name: 'rest', kind: 'rest', hasDefault: false },
        ],
      },
      { name: 'g', line: 2, params: [{ name: 'x', kind: 'positional', hasDefault: false }] },
    ]);
  });

  it('takes public instance methods of class Solution only', () => {
    const code = [
      'export class Solution {',
      '  private cache = new Map();',
      '  #secret(x) { return x; }',
      '  constructor() {}',
      '  twoSum(nums: number[], target: number): number[] { return []; }',
      '  static make(n) { return n; }',
      '  private helper(y) { return y; }',
      '  protected guarded(y) { return y; }',
      '  _internal(z) { return z; }',
      '  get size() { return 0; }',
      '  arrow = (a, b) => a + b;',
      '  async later(t) { return t; }',
      '}',
    ].join('\n');
    expect(summary(code, 'typescript')).toEqual(['Solution.twoSum(nums, target)@5', 'Solution.arrow(a, b)@11', 'Solution.later(t)@12']);
  });

  it('ignores other classes, nested functions and non-declarations', () => {
    const code = [
      'class Helper { run(x) { return x; } }',
      'function outer(a) { function inner(b) { return b; } return inner(a); }',
      'if (true) { function conditional() {} }',
      'module.exports = function (q) { return q; };',
      'exports.other = (r) => r;',
      'implicitGlobal = (s) => s;',
    ].join('\n');
    expect(summary(code)).toEqual(['outer(a)@2']);
  });

  it('skips overload signatures and declarations without a body', () => {
    const code = [
      'declare function ambient(x: number): number;',
      'function over(a: string): string;',
      'function over(a: number): number;',
      'function over(a: any, b?: any) { return a; }',
    ].join('\n');
    expect(summary(code, 'typescript')).toEqual(['over(a, b?)@4']);
  });

  it('is not confused by functions inside strings, comments and templates', () => {
    const code = [
      '/* function fake(a) {} */',
      '// function alsoFake(b) {}',
      'const text = `function tpl(c) {}`;',
      'function real(d) { return "function str(e) {}"; }',
    ].join('\n');
    expect(summary(code)).toEqual(['real(d)@4']);
  });

  it('keeps the last definition of a name', () => {
    expect(summary('function f(a) {}\nfunction g() {}\nfunction f(a, b) {}')).toEqual(['g()@2', 'f(a, b)@3']);
  });

  it('survives syntax errors', () => {
    const code = 'function good(x, y = 2) { return x + y; }\nfunction broken(a {\n';
    expect(summary(code)[0]).toBe('good(x, y?)@1');
  });

  it('parses TypeScript-only syntax', () => {
    const code = [
      'interface Point { x: number }',
      'type Pair<T> = [T, T];',
      'enum Color { Red, Green }',
      'export const pick = <T,>(items: T[], index: number = 0): T => items[index];',
      'const cast = (<(v: unknown) => unknown>((v) => v));',
    ].join('\n');
    expect(summary(code, 'typescript')).toEqual(['pick(items, index?)@4', 'cast(v)@5']);
  });
});
