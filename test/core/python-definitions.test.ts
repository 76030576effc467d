import { describe, expect, it } from 'vitest';
import { findPythonDefinitions } from '../../src/core/resolve/python-definitions.js';

const names = (code: string) => findPythonDefinitions(code).map((def) => (def.className ? `${def.className}.${def.name}` : def.name));

describe('findPythonDefinitions', () => {
  it('skips a leading byte-order mark, as Python does', () => {
    const defs = findPythonDefinitions('\uFEFFdef first(a):\n    return a\n\ndef second(b):\n    return b\n');
    expect(defs.map((def) => [def.name, def.line])).toEqual([
      ['first', 1],
      ['second', 4],
    ]);
  });

  it('finds top-level, async and decorated functions with their lines', () => {
    const code = [
      'import functools',
      '',
      'def first(a, b):',
      '    return a + b',
      '',
      'async def second(x):',
      '    return x',
      '',
      '@functools.lru_cache(maxsize=None)',
      'def third(n):',
      '    return n',
    ].join('\n');
    expect(findPythonDefinitions(code)).toEqual([
      {
        name: 'first',
        params: [
          { name: 'a', kind: 'positional', hasDefault: false },
          { name: 'b', kind: 'positional', hasDefault: false },
        ],
        line: 3,
      },
      { name: 'second', params: [{ name: 'x', kind: 'positional', hasDefault: false }], line: 6 },
      { name: 'third', params: [{ name: 'n', kind: 'positional', hasDefault: false }], line: 10 },
    ]);
  });

  it('reads every kind of parameter, ignoring annotations and complex defaults', () => {
    const [def] = findPythonDefinitions(
      'def f(a, b: int = 1, /, c=lambda x, y: x, *args: int, d, e: "x/y" = (1, 2), **kw) -> int:\n    pass\n',
    );
    expect(def.params).toEqual([
      { name: 'a', kind: 'positional', hasDefault: false, positionalOnly: true },
      { name: 'b', kind: 'positional', hasDefault: true, positionalOnly: true },
      { name: 'c', kind: 'positional', hasDefault: true },
      { name: 'args', kind: 'rest', hasDefault: false },
      { name: 'd', kind: 'keyword-only', hasDefault: false },
      { name: 'e', kind: 'keyword-only', hasDefault: true },
      { name: 'kw', kind: 'kwargs', hasDefault: false },
    ]);
  });

  it('treats parameters after a bare * as keyword-only', () => {
    const [def] = findPythonDefinitions('def f(a, *, k=3, m):\n    pass\n');
    expect(def.params).toEqual([
      { name: 'a', kind: 'positional', hasDefault: false },
      { name: 'k', kind: 'keyword-only', hasDefault: true },
      { name: 'm', kind: 'keyword-only', hasDefault: false },
    ]);
  });

  it('does not mistake a / in a comment for the positional-only marker', () => {
    const [def] = findPythonDefinitions('def f(a,  # a/b\n      b):\n    pass\n');
    expect(def.params.every((param) => param.positionalOnly === undefined)).toBe(true);
  });

  it('takes public methods of class Solution, without self or cls', () => {
    const code = [
      'class Solution(object):',
      '    def __init__(self):',
      '        self.memo = {}',
      '    def twoSum(self, nums, target):',
      '        return []',
      '    @staticmethod',
      '    def helper(x, y=2):',
      '        return x',
      '    @classmethod',
      '    def build(cls, n):',
      '        return n',
      '    def _private(self, z):',
      '        return z',
      '    @property',
      '    def size(self):',
      '        return 0',
    ].join('\n');
    const defs = findPythonDefinitions(code);
    expect(defs.map((def) => [def.className, def.name, def.params.map((param) => param.name), def.line])).toEqual([
      ['Solution', 'twoSum', ['nums', 'target'], 4],
      ['Solution', 'helper', ['x', 'y'], 7],
      ['Solution', 'build', ['n'], 10],
    ]);
  });

  it('ignores nested functions, other classes, and definitions inside blocks', () => {
    const code = [
      'class Other:',
      '    def method(self): pass',
      'def outer(a):',
      '    def inner(b):',
      '        return b',
      '    return inner(a)',
      'if True:',
      '    def conditional(): pass',
      'square = lambda x: x * x',
    ].join('\n');
    expect(names(code)).toEqual(['outer']);
  });

  it('is not confused by def inside strings and docstrings', () => {
    const code = [
      'def real(x):',
      '    """',
      '    def fake(y):',
      '        pass',
      '    """',
      "    s = 'def other(z): pass'",
      '    return x',
      'TEMPLATE = """',
      'def template_fn(q):',
      '    return q',
      '"""',
    ].join('\n');
    expect(names(code)).toEqual(['real']);
  });

  it('keeps the last definition of a name', () => {
    const defs = findPythonDefinitions('def f(a):\n    pass\n\ndef g():\n    pass\n\ndef f(a, b):\n    pass\n');
    expect(defs.map((def) => [def.name, def.params.length, def.line])).toEqual([
      ['g', 0, 4],
      ['f', 2, 7],
    ]);
  });

  it('reads only the last class Solution', () => {
    const code = 'class Solution:\n    def old(self, a):\n        pass\n\nclass Solution:\n    def new(self, b):\n        pass\n';
    expect(names(code)).toEqual(['Solution.new']);
  });

  it('survives syntax errors elsewhere in the file', () => {
    const code = 'def broken(a, b\n\ndef good(x, y=1):\n    return x +\n\nclass Solution:\n    def solve(self, n):\n        return n\n';
    expect(names(code)).toEqual(expect.arrayContaining(['good', 'Solution.solve']));
    const good = findPythonDefinitions(code).find((def) => def.name === 'good');
    expect(good?.params.map((param) => [param.name, param.hasDefault])).toEqual([
      ['x', false],
      ['y', true],
    ]);
  });

  it('handles an empty or definition-free source', () => {
    expect(findPythonDefinitions('')).toEqual([]);
    expect(findPythonDefinitions('print("hi")\n')).toEqual([]);
  });
});
