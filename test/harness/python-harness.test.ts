import { describe, expect, it } from 'vitest';
import { makeJob, PYTHON_HARNESS, runHarness, type Job, type JobCase } from './run-harness.js';

const run = (code: string, names: string[], cases: JobCase[], extra: Partial<Job> = {}) =>
  runHarness(PYTHON_HARNESS, makeJob({ code, target: { names }, cases, ...extra }));

const one = (args: unknown[] = [], kwargs: Record<string, unknown> = {}): JobCase[] => [{ i: 0, args, kwargs, undef: [] }];

describe('python harness: the protocol', () => {
  it('prints the ready line first, then loaded, begin/result per case, done, and exits 0', async () => {
    const result = await run(
      'def add(a, b):\n    return a + b\n',
      ['add'],
      [
        { i: 0, args: [1, 2], kwargs: {} },
        { i: 1, args: [10, 20], kwargs: {} },
      ],
    );
    expect(result.events[0]).toEqual({ kind: 'ready', version: expect.stringMatching(/^Python 3\.\d+\.\d+$/) });
    expect(result.frames.map((frame) => `${frame.t}${frame.i ?? ''}`)).toEqual([
      'loaded',
      'begin0',
      'result0',
      'begin1',
      'result1',
      'done',
    ]);
    expect(result.loaded()?.error).toBeNull();
    expect(result.result(0)).toMatchObject({ value: 3, error: null, stdout: '' });
    expect(result.result(1)?.value).toBe(30);
    expect(typeof result.result(0)?.ms).toBe('number');
    expect(result.stray).toBe('');
    expect(result.exitCode).toBe(0);
  });

  it('passes kwargs as keyword arguments', async () => {
    const result = await run('def f(a, *, k=1, m=0):\n    return [a, k, m]\n', ['f'], one([5], { k: 3, m: 4 }));
    expect(result.result(0)?.value).toEqual([5, 3, 4]);
  });

  it('takes the first name that exists and is callable', async () => {
    const result = await run('two_sum = 3\ndef twoSum(x):\n    return x\n', ['two_sum', 'twoSum'], one([7]));
    expect(result.result(0)?.value).toBe(7);
  });

  it('instantiates target.class freshly for every case', async () => {
    const code = [
      'class Solution:',
      '    made = 0',
      '    def __init__(self):',
      '        Solution.made += 1',
      '        self.calls = 0',
      '    def count(self, x):',
      '        self.calls += 1',
      '        return [Solution.made, self.calls, x]',
    ].join('\n');
    const result = await runHarness(
      PYTHON_HARNESS,
      makeJob({
        code,
        target: { class: 'Solution', names: ['missing', 'count'] },
        cases: [
          { i: 0, args: ['a'], kwargs: {} },
          { i: 1, args: ['b'], kwargs: {} },
        ],
      }),
    );
    expect(result.result(0)?.value).toEqual([1, 1, 'a']);
    expect(result.result(1)?.value).toEqual([2, 1, 'b']);
  });

  it('runs a coroutine with asyncio.run and times the whole await', async () => {
    const code = 'import asyncio\nasync def f(x):\n    await asyncio.sleep(0.05)\n    return x * 2\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: [21], kwargs: {} },
        { i: 1, args: [2], kwargs: {} },
      ],
    );
    expect(result.result(0)).toMatchObject({ value: 42, error: null });
    expect(result.result(1)?.value).toBe(4);
    expect(result.result(0)?.ms).toBeGreaterThanOrEqual(45);
  });

  it('does not run the __main__ block: the module is named "solution"', async () => {
    const code = 'ran = []\nif __name__ == "__main__":\n    ran.append(1)\n    print("main ran")\ndef f():\n    return [__name__, ran]\n';
    const result = await run(code, ['f'], one());
    expect(result.result(0)).toMatchObject({ value: ['solution', []], stdout: '' });
  });

  it('runs a job of several megabytes', async () => {
    const numbers = Array.from({ length: 400_000 }, (_, n) => n);
    const result = await run('def f(xs):\n    return [len(xs), sum(xs)]\n', ['f'], one([numbers]));
    expect(result.result(0)?.value).toEqual([400_000, (399_999 * 400_000) / 2]);
  });
});

describe('python harness: errors', () => {
  it('reports an exception with its type, message and the innermost user line', async () => {
    const code =
      'import json\n\ndef helper(x):\n    y = 0\n    return x / y\n\ndef f(x):\n    return helper(x)\n\ndef g(s):\n    return json.loads(s)\n';
    const result = await run(code, ['f'], one([1]));
    expect(result.result(0)).toMatchObject({
      value: null,
      error: { type: 'ZeroDivisionError', message: 'division by zero', line: 5, column: null },
    });
    const library = await run(code, ['g'], one(['{bad']));
    expect(library.result(0)?.error).toMatchObject({ type: 'JSONDecodeError', line: 11 });
  });

  it('keeps running cases after one fails, SystemExit included', async () => {
    const code = 'import sys\ndef f(x):\n    if x == 0:\n        sys.exit(3)\n    if x == 1:\n        raise KeyError("k")\n    return x\n';
    const result = await run(
      code,
      ['f'],
      [0, 1, 2].map((x) => ({ i: x, args: [x], kwargs: {} })),
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'SystemExit', message: '3', line: 4 });
    expect(result.result(1)?.error).toMatchObject({ type: 'KeyError', message: "'k'", line: 6 });
    expect(result.result(2)).toMatchObject({ value: 2, error: null });
    expect(result.frames.at(-1)?.t).toBe('done');
    expect(result.exitCode).toBe(0);
  });

  it('reports a syntax error with line and column as a load error, then done', async () => {
    const result = await run('def f(x):\n    return (x\n', ['f'], one([1]));
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'done']);
    expect(result.loaded()).toMatchObject({
      error: { type: 'SyntaxError', message: "'(' was never closed", line: 2, column: 12 },
      stdout: '',
    });
    const indent = await run('def f(x):\nreturn x\n', ['f'], one([1]));
    expect(indent.loaded()?.error).toMatchObject({ type: 'IndentationError', line: 2, column: 1 });
  });

  it('reports an error raised at the top level, with what was printed before it', async () => {
    const result = await run('print("before")\nx = 1\nraise ValueError("top")\n', ['f'], one());
    expect(result.loaded()).toMatchObject({ error: { type: 'ValueError', message: 'top', line: 3 }, stdout: 'before\n' });
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'done']);
  });

  it('names the functions it looked for when none exists', async () => {
    const result = await run('def other():\n    pass\n', ['two_sum', 'twoSum'], one());
    expect(result.loaded()?.error).toEqual({
      type: 'NameError',
      message: 'no function named two_sum or twoSum is defined',
      line: null,
      column: null,
    });
    const three = await run('x = 1\n', ['a', 'b', 'c'], one());
    expect(three.loaded()?.error?.message).toBe('no function named a, b or c is defined');
    const klass = await runHarness(PYTHON_HARNESS, makeJob({ code: 'x = 1\n', target: { class: 'Solution', names: ['f'] }, cases: one() }));
    expect(klass.loaded()?.error).toMatchObject({ type: 'NameError', message: 'no class named Solution is defined' });
  });

  it('reports recursion overflow as an ordinary RecursionError', async () => {
    const result = await run(
      'def f(x):\n    return f(x + 1)\n',
      ['f'],
      [
        { i: 0, args: [0], kwargs: {} },
        { i: 1, args: [0], kwargs: {} },
      ],
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'RecursionError', line: 2 });
    expect(result.result(1)?.error?.type).toBe('RecursionError');
    expect(result.exitCode).toBe(0);
  });

  it('gives user code an empty stdin: input() raises EOFError', async () => {
    const code = 'import os, sys\ndef f():\n    return [sys.stdin.read(), os.read(0, 10).decode()]\ndef g():\n    return input("prompt")\n';
    const empty = await run(code, ['f'], one());
    expect(empty.result(0)?.value).toEqual(['', '']);
    const result = await run(code, ['g'], one());
    expect(result.result(0)?.error).toMatchObject({ type: 'EOFError', line: 5 });
  });
});

describe('python harness: output', () => {
  it('captures stdout and stderr per case in write order, load output leading case 0', async () => {
    const code =
      'import sys\nprint("loading")\ndef f(x):\n    print("out", x)\n    print("err", x, file=sys.stderr)\n    sys.stdout.write("more\\n")\n    return x\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: [1], kwargs: {} },
        { i: 1, args: [2], kwargs: {} },
      ],
    );
    expect(result.result(0)?.stdout).toBe('loading\nout 1\nerr 1\nmore\n');
    expect(result.result(1)?.stdout).toBe('out 2\nerr 2\nmore\n');
    expect(result.stray).toBe('');
  });

  it('caps each case at stdoutCap bytes on a character boundary and marks the cut', async () => {
    const code = 'def f(s, n):\n    for _ in range(n):\n        print(s, end="")\n    return n\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: ['x', 100_000], kwargs: {} },
        { i: 1, args: ['é', 10], kwargs: {} },
        { i: 2, args: ['y', 10], kwargs: {} },
      ],
      { stdoutCap: 11 },
    );
    expect(result.result(0)).toMatchObject({ value: 100_000, stdout: `${'x'.repeat(11)}\n...[truncated]` });
    expect(result.result(1)?.stdout).toBe(`${'é'.repeat(5)}\n...[truncated]`);
    expect(result.result(2)?.stdout).toBe('y'.repeat(10));
  });

  it('keeps stray fd-level output out of the frames, in order before the case result', async () => {
    const code =
      'import os, sys\ndef f(x):\n    os.write(1, b"raw ")\n    sys.__stdout__.write("buffered\\n")\n    print("captured")\n    return x\n';
    const result = await run(code, ['f'], one([1]));
    expect(result.result(0)).toMatchObject({ value: 1, stdout: 'captured\n' });
    const kinds = result.events.map((event) => (event.kind === 'frame' ? event.frame.t : event.kind));
    expect(kinds).toEqual(['ready', 'loaded', 'begin', 'stray', 'result', 'done']);
    expect(result.stray).toBe('raw buffered\n');
  });

  it('treats a frame printed without the nonce as ordinary output', async () => {
    const fake = '\\x1e' + '0'.repeat(32) + ' {"t":"result","i":0,"value":999,"error":null,"ms":1,"stdout":""}';
    const code = `import os\ndef f():\n    print('${fake}')\n    os.write(1, b'${fake}\\n')\n    print('\\x1eready Python 9')\n    return 1\n`;
    const result = await run(code, ['f'], one());
    const results = result.frames.filter((frame) => frame.t === 'result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ value: 1 });
    expect(results[0].stdout).toContain('"value":999');
    expect(result.stray).toContain('"value":999');
  });

  it('still delivers frames after user code closes sys.stdout or fd 1', async () => {
    const code =
      'import os, sys\ndef f(x):\n    if x == 0:\n        sys.stdout.close()\n    if x == 1:\n        os.close(1)\n    print("case", x)\n    return x\n';
    const result = await run(
      code,
      ['f'],
      [0, 1, 2].map((x) => ({ i: x, args: [x], kwargs: {} })),
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'ValueError', message: 'I/O operation on closed file.' });
    expect(result.result(1)).toMatchObject({ value: 1, stdout: 'case 1\n' });
    expect(result.result(2)).toMatchObject({ value: 2, stdout: 'case 2\n' });
    expect(result.frames.at(-1)?.t).toBe('done');
    expect(result.exitCode).toBe(0);
  });
});

describe('python harness: values', () => {
  const value = async (code: string, args: unknown[] = []) => {
    const result = await run(code, ['f'], one(args));
    expect(result.result(0)?.error).toBeNull();
    return result.result(0)!;
  };
  const rawValue = (raw: string) => raw.slice(raw.indexOf('"value":') + 8, raw.indexOf(',"error":'));

  it('writes NaN and the infinities as strings and floats in float form', async () => {
    const frame = await value('def f():\n    return [float("nan"), float("inf"), -float("inf"), 2.0, 0.1, 1e300, -0.0]\n');
    expect(rawValue(frame.raw)).toBe('["NaN","Infinity","-Infinity",2.0,0.1,1e+300,-0.0]');
  });

  it('keeps 3.0 a float and integers beyond 2^53 exact, both ways', async () => {
    const big = '123456789012345678901234567890';
    const job = makeJob({
      code: 'def f(x, n):\n    return [isinstance(x, float), x, n + 1, type(n).__name__, 2 ** 100]\n',
      target: { names: ['f'] },
      cases: [],
    });
    const line = JSON.stringify(job).replace('"cases":[]', `"cases":[{"i":0,"args":[3.0,${big}],"kwargs":{},"undef":[]}]`);
    const result = await runHarness(PYTHON_HARNESS, line);
    expect(rawValue(result.result(0)!.raw)).toBe(`[true,3.0,${big.slice(0, -1)}1,"int",${2n ** 100n}]`);
  });

  it('writes sets sorted when orderable, tuples as arrays and dict keys as strings', async () => {
    const frame = await value(
      'def f():\n    return [{3, 1, 2}, frozenset({"b", "a"}), (1, (2, 3)), {1: "a", None: "b", 2.5: "c", (1, 2): "d", False: "e"}, set()]\n',
    );
    expect(rawValue(frame.raw)).toBe('[[1,2,3],["a","b"],[1,[2,3]],{"1":"a","null":"b","2.5":"c","(1, 2)":"d","false":"e"},[]]');
    const mixed = await value('def f():\n    return {1, "a"}\n');
    expect(mixed.value).toEqual(expect.arrayContaining([1, 'a']));
  });

  it('falls back to repr for other objects, cycles and deep nesting', async () => {
    const code = [
      'class Point:',
      '    def __repr__(self):',
      '        return "Point(1, 2)"',
      'class Broken:',
      '    def __repr__(self):',
      '        raise RuntimeError("no")',
      'def f():',
      '    a = [1]',
      '    a.append(a)',
      '    deep = []',
      '    for _ in range(300):',
      '        deep = [deep]',
      '    return [Point(), Broken(), a, b"x", deep]',
    ].join('\n');
    const frame = await value(code);
    const [point, broken, cycle, bytes, deep] = frame.value as unknown[];
    expect(point).toBe('Point(1, 2)');
    expect(broken).toBe('<Broken object>');
    expect(cycle).toEqual([1, '[1, [...]]']);
    expect(bytes).toBe("b'x'");
    let level: unknown = deep;
    let depth = 1;
    while (Array.isArray(level)) {
      level = level[0];
      depth += 1;
    }
    expect(depth).toBe(256);
    expect(typeof level).toBe('string');
  });
});
