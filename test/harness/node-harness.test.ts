import { describe, expect, it } from 'vitest';
import { makeJob, NODE_HARNESS, runHarness, type Job, type JobCase } from './run-harness.js';

const job = (code: string, names: string[], cases: JobCase[], extra: Partial<Job> = {}) =>
  makeJob({ code, target: { names }, cases, ...extra }, 'solution.js');
const run = (code: string, names: string[], cases: JobCase[], extra: Partial<Job> = {}) =>
  runHarness(NODE_HARNESS, job(code, names, cases, extra));
const one = (args: unknown[] = [], undef: number[] = []): JobCase[] => [{ i: 0, args, kwargs: {}, undef }];

describe('node harness: the protocol', () => {
  it('prints the ready line first, then loaded, begin/result per case, done, and exits 0', async () => {
    const result = await run(
      'function add(a, b) {\n  return a + b;\n}\n',
      ['add'],
      [
        { i: 0, args: [1, 2], kwargs: {}, undef: [] },
        { i: 1, args: [10, 20], kwargs: {}, undef: [] },
      ],
    );
    expect(result.events[0]).toEqual({ kind: 'ready', version: `Node ${process.versions.node}` });
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

  it('replaces the positions in undef with undefined so that default parameters apply', async () => {
    const result = await run('function f(a, b = 10, c = 100) {\n  return [a, b, c];\n}\n', ['f'], one([1, null, 5], [1]));
    expect(result.result(0)?.value).toEqual([1, 10, 5]);
    const past = await run('function f(a, b = 10, c = 100) {\n  return [a, b, c];\n}\n', ['f'], one([1], [2]));
    expect(past.result(0)?.value).toEqual([1, 10, 100]);
  });

  it('finds let/const/class bindings and takes the first name that is a function', async () => {
    const result = await run('const two_sum = 3;\nconst twoSum = (x) => x * 2;\n', ['two_sum', 'twoSum'], one([7]));
    expect(result.result(0)?.value).toBe(14);
  });

  it('instantiates target.class freshly for every case, class-field methods included', async () => {
    const code = [
      'class Solution {',
      '  static made = 0;',
      '  calls = 0;',
      '  constructor() { Solution.made += 1; }',
      '  count(x) { this.calls += 1; return [Solution.made, this.calls, x]; }',
      '  arrow = (x) => x * 2;',
      '}',
    ].join('\n');
    const cases: JobCase[] = [
      { i: 0, args: ['a'], kwargs: {}, undef: [] },
      { i: 1, args: ['b'], kwargs: {}, undef: [] },
    ];
    const result = await runHarness(
      NODE_HARNESS,
      makeJob({ code, target: { class: 'Solution', names: ['missing', 'count'] }, cases }, 'solution.js'),
    );
    expect(result.result(0)?.value).toEqual([1, 1, 'a']);
    expect(result.result(1)?.value).toEqual([2, 1, 'b']);
    const field = await runHarness(
      NODE_HARNESS,
      makeJob({ code, target: { class: 'Solution', names: ['arrow'] }, cases: one([4]) }, 'solution.js'),
    );
    expect(field.result(0)?.value).toBe(8);
  });

  it('awaits a returned promise and times the whole await', async () => {
    const code = 'async function f(x) {\n  await new Promise((resolve) => setTimeout(resolve, 50));\n  return x * 2;\n}\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: [21], kwargs: {}, undef: [] },
        { i: 1, args: [2], kwargs: {}, undef: [] },
      ],
    );
    expect(result.result(0)).toMatchObject({ value: 42, error: null });
    expect(result.result(1)?.value).toBe(4);
    expect(result.result(0)?.ms).toBeGreaterThanOrEqual(45);
  });

  it('reports a promise that can never settle instead of exiting silently', async () => {
    const result = await run(
      'function f(x) {\n  return x ? new Promise(() => {}) : 1;\n}\n',
      ['f'],
      [
        { i: 0, args: [1], kwargs: {}, undef: [] },
        { i: 1, args: [0], kwargs: {}, undef: [] },
      ],
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'Error', message: 'the returned promise never settled' });
    expect(result.result(1)?.value).toBe(1);
    expect(result.exitCode).toBe(0);
  });

  it('runs the code as a sloppy-mode CommonJS script with a working require and module', async () => {
    const code = [
      'undeclared = 41;',
      'const path = require("path");',
      'function f() {',
      '  undeclared += 1;',
      '  return [undeclared, globalThis.undeclared, path.join("a", "b"), typeof module.exports, this === undefined, require.main === module];',
      '}',
    ].join('\n');
    const result = await run(code, ['f'], one());
    expect(result.result(0)?.value).toEqual([42, 42, 'a/b', 'object', false, false]);
  });

  it('finds a function assigned to module.exports', async () => {
    const named = await run('module.exports.solve = function (x) { return x + 1; };\n', ['solve'], one([1]));
    expect(named.result(0)?.value).toBe(2);
    const whole = await run('module.exports = (x) => x * 3;\n', ['solve'], one([2]));
    expect(whole.result(0)?.value).toBe(6);
  });

  it('runs a job of several megabytes', async () => {
    const numbers = Array.from({ length: 400_000 }, (_, n) => n);
    const result = await run('function f(xs) {\n  return [xs.length, xs.reduce((a, b) => a + b, 0)];\n}\n', ['f'], one([numbers]));
    expect(result.result(0)?.value).toEqual([400_000, (399_999 * 400_000) / 2]);
  });
});

describe('node harness: errors', () => {
  it('reports an exception with its name, message and the innermost user line', async () => {
    const code =
      'function helper(x) {\n  return x.y.z;\n}\nfunction f(x) {\n  return helper(x);\n}\nfunction g(s) {\n  return JSON.parse(s);\n}\n';
    const result = await run(code, ['f'], one([{}]));
    expect(result.result(0)).toMatchObject({ value: null, error: { type: 'TypeError', line: 2, column: null } });
    expect(result.result(0)?.error?.message).toMatch(/undefined/);
    const builtin = await run(code, ['g'], one(['{bad']));
    expect(builtin.result(0)?.error).toMatchObject({ type: 'SyntaxError', line: 8, column: null });
  });

  it('keeps running after a failing case and reports thrown non-errors', async () => {
    const code =
      'class MyError extends Error { constructor(m) { super(m); this.name = "MyError"; } }\nfunction f(x) {\n  if (x === 0) throw new MyError("mine");\n  if (x === 1) throw "text";\n  return x;\n}\n';
    const result = await run(
      code,
      ['f'],
      [0, 1, 2].map((x) => ({ i: x, args: [x], kwargs: {}, undef: [] })),
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'MyError', message: 'mine', line: 3 });
    expect(result.result(1)?.error).toMatchObject({ type: 'Error', message: "Uncaught 'text'", line: null });
    expect(result.result(2)).toMatchObject({ value: 2, error: null });
  });

  it('reports a syntax error with line and column as a load error, then done', async () => {
    const result = await run('function f(x) {\n  return x +;\n}\n', ['f'], one([1]));
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'done']);
    expect(result.loaded()).toMatchObject({ error: { type: 'SyntaxError', line: 2, column: 13 }, stdout: '' });
    const unclosed = await run('function f(x) {\n  return x;\n', ['f'], one([1]));
    expect(unclosed.loaded()?.error).toMatchObject({ type: 'SyntaxError', line: 3 });
  });

  it('reports an error thrown at the top level, with what was printed before it', async () => {
    const result = await run('console.log("before");\nconst x = 1;\nnull.boom;\n', ['f'], one());
    expect(result.loaded()).toMatchObject({ error: { type: 'TypeError', line: 3 }, stdout: 'before\n' });
    expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'done']);
  });

  it('names the functions it looked for when none exists', async () => {
    const result = await run('function other() {}\n', ['two_sum', 'twoSum'], one());
    expect(result.loaded()?.error).toEqual({
      type: 'ReferenceError',
      message: 'no function named two_sum or twoSum is defined',
      line: null,
      column: null,
    });
    const three = await run('const x = 1;\n', ['a', 'b', 'c'], one());
    expect(three.loaded()?.error?.message).toBe('no function named a, b or c is defined');
    const klass = await runHarness(
      NODE_HARNESS,
      makeJob({ code: 'const x = 1;\n', target: { class: 'Solution', names: ['f'] }, cases: one() }, 'solution.js'),
    );
    expect(klass.loaded()?.error).toMatchObject({ type: 'ReferenceError', message: 'no class named Solution is defined' });
  });

  it('reports stack overflow as an ordinary RangeError', async () => {
    const result = await run(
      'function f(x) {\n  return f(x + 1);\n}\n',
      ['f'],
      [
        { i: 0, args: [0], kwargs: {}, undef: [] },
        { i: 1, args: [0], kwargs: {}, undef: [] },
      ],
    );
    expect(result.result(0)?.error).toMatchObject({ type: 'RangeError', message: 'Maximum call stack size exceeded', line: 2 });
    expect(result.result(1)?.error?.type).toBe('RangeError');
    expect(result.exitCode).toBe(0);
  });

  it('survives errors nobody catches: they become the case output', async () => {
    const code =
      'async function f() {\n  Promise.reject(new Error("lost"));\n  setTimeout(() => { throw new Error("late"); }, 0);\n  await new Promise((r) => setTimeout(r, 30));\n  return 1;\n}\n';
    const result = await run(code, ['f'], one());
    expect(result.result(0)).toMatchObject({ value: 1, error: null });
    expect(result.result(0)?.stdout).toContain('Uncaught (in promise) Error: lost');
    expect(result.result(0)?.stdout).toContain('Uncaught Error: late');
  });

  it('gives user code an empty stdin', async () => {
    const result = await run('const fs = require("fs");\nfunction f() {\n  return fs.readFileSync(0, "utf8");\n}\n', ['f'], one());
    expect(result.result(0)).toMatchObject({ value: '', error: null });
  });
});

describe('node harness: output', () => {
  it('captures stdout and stderr per case in write order, load output leading case 0', async () => {
    const code =
      'console.log("loading");\nfunction f(x) {\n  console.log("out", x);\n  console.error("err", x);\n  process.stdout.write("more\\n");\n  process.stderr.write(Buffer.from("bytes\\n"));\n  return x;\n}\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: [1], kwargs: {}, undef: [] },
        { i: 1, args: [2], kwargs: {}, undef: [] },
      ],
    );
    expect(result.result(0)?.stdout).toBe('loading\nout 1\nerr 1\nmore\nbytes\n');
    expect(result.result(1)?.stdout).toBe('out 2\nerr 2\nmore\nbytes\n');
    expect(result.stray).toBe('');
  });

  it('caps each case at stdoutCap bytes on a character boundary and marks the cut', async () => {
    const code = 'function f(s, n) {\n  for (let i = 0; i < n; i++) process.stdout.write(s);\n  return n;\n}\n';
    const cases: JobCase[] = [
      { i: 0, args: ['x', 100_000], kwargs: {}, undef: [] },
      { i: 1, args: ['é', 10], kwargs: {}, undef: [] },
      { i: 2, args: ['y', 10], kwargs: {}, undef: [] },
    ];
    const result = await run(code, ['f'], cases, { stdoutCap: 11 });
    expect(result.result(0)).toMatchObject({ value: 100_000, stdout: `${'x'.repeat(11)}\n...[truncated]` });
    expect(result.result(1)?.stdout).toBe(`${'é'.repeat(5)}\n...[truncated]`);
    expect(result.result(2)?.stdout).toBe('y'.repeat(10));
  });

  it('calls the callback of each captured write once, after the write, without a tick per write', async () => {
    // Two million writes that never yield: one queued tick each took about 160 MB, past this heap.
    // Started from source whatever HARNESS_START says: a startup snapshot loads only under the heap
    // limit it was built for.
    const code =
      'function f(n) {\n  let called = 0;\n  const counted = () => { called += 1; };\n  for (let i = 0; i < n; i++) process.stderr.write("x", counted);\n  const before = called;\n  return new Promise((resolve) => setImmediate(() => resolve([before, called])));\n}\n';
    const result = await runHarness(['node', 'runners/node/harness.cjs'], job(code, ['f'], one([2_000_000])), {
      env: { ...process.env, NODE_OPTIONS: '--max-old-space-size=24' },
    });
    expect(result.result(0), result.stderr).toMatchObject({ value: [0, 2_000_000], error: null });
  });

  it('keeps stray fd-level output out of the frames, in order before the case result', async () => {
    const code =
      'const fs = require("fs");\nfunction f(x) {\n  fs.writeSync(1, "raw ");\n  fs.writeSync(2, "to stderr\\n");\n  console.log("captured");\n  return x;\n}\n';
    const result = await run(code, ['f'], one([1]));
    expect(result.result(0)).toMatchObject({ value: 1, stdout: 'captured\n' });
    const kinds = result.events.map((event) => (event.kind === 'frame' ? event.frame.t : event.kind));
    expect(kinds).toEqual(['ready', 'loaded', 'begin', 'stray', 'result', 'done']);
    expect(result.stray).toBe('raw ');
    expect(result.stderr).toBe('to stderr\n');
  });

  it('treats a frame printed without the nonce as ordinary output', async () => {
    const fake = `\\x1e${'0'.repeat(32)} {"t":"result","i":0,"value":999,"error":null,"ms":1,"stdout":""}`;
    const code = `const fs = require("fs");\nfunction f() {\n  console.log('${fake}');\n  fs.writeSync(1, '${fake}\\n');\n  console.log('\\x1eready Node 1');\n  return 1;\n}\n`;
    const result = await run(code, ['f'], one());
    const results = result.frames.filter((frame) => frame.t === 'result');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ value: 1 });
    expect(results[0].stdout).toContain('"value":999');
    expect(result.stray).toContain('"value":999');
  });

  it('still delivers frames after user code destroys process.stdout or closes fd 1', async () => {
    const code =
      'const fs = require("fs");\nfunction f(x) {\n  if (x === 0) process.stdout.destroy();\n  if (x === 1) fs.closeSync(1);\n  console.log("case", x);\n  return x;\n}\n';
    const result = await run(
      code,
      ['f'],
      [0, 1, 2].map((x) => ({ i: x, args: [x], kwargs: {}, undef: [] })),
    );
    expect(result.result(0)).toMatchObject({ value: 0, error: null });
    expect(result.result(1)).toMatchObject({ value: 1, error: null, stdout: 'case 1\n' });
    expect(result.result(2)).toMatchObject({ value: 2, stdout: 'case 2\n' });
    expect(result.frames.at(-1)?.t).toBe('done');
    expect(result.exitCode).toBe(0);
  });
});

describe('node harness: values', () => {
  const value = async (code: string, args: unknown[] = []) => {
    const result = await run(code, ['f'], one(args));
    expect(result.result(0)?.error).toBeNull();
    return result.result(0)!;
  };
  const rawValue = (raw: string) => raw.slice(raw.indexOf('"value":') + 8, raw.indexOf(',"error":'));

  it('writes NaN and the infinities as strings, -0 as 0 and BigInt exactly', async () => {
    const frame = await value(
      'function f() {\n  return [NaN, Infinity, -Infinity, -0, 0.1, 1e21, 2n ** 100n, -5n, undefined, null, true];\n}\n',
    );
    expect(rawValue(frame.raw)).toBe(`["NaN","Infinity","-Infinity",0,0.1,1e+21,${2n ** 100n},-5,null,null,true]`);
  });

  it('writes Sets sorted when orderable, Maps and plain objects as objects, holes as null', async () => {
    const code =
      'function f() {\n  const holes = [1, , 3];\n  return [new Set([3, 1, 2]), new Set(["b", "a"]), new Set([2, "a", 1]), new Map([[1, "a"], [true, "b"]]), { z: 1, a: [2] }, holes, Object.create(null)];\n}\n';
    const frame = await value(code);
    expect(rawValue(frame.raw)).toBe('[[1,2,3],["a","b"],[2,"a",1],{"1":"a","true":"b"},{"z":1,"a":[2]},[1,null,3],{}]');
  });

  it('falls back to util.inspect for other values, cycles and deep nesting', async () => {
    const code = [
      'class Point { constructor() { this.x = 1; } }',
      'function f() {',
      '  const a = [1];',
      '  a.push(a);',
      '  let deep = [];',
      '  for (let i = 0; i < 300; i++) deep = [deep];',
      '  return [new Point(), function named() {}, Symbol("s"), a, deep, new Uint8Array([1, 2])];',
      '}',
    ].join('\n');
    const frame = await value(code);
    const [point, fn, symbol, cycle, deep, bytes] = frame.value as unknown[];
    expect(point).toBe('Point { x: 1 }');
    expect(fn).toBe('[Function: named]');
    expect(symbol).toBe('Symbol(s)');
    expect(cycle).toEqual([1, '<ref *1> [ 1, [Circular *1] ]']);
    expect(bytes).toBe('Uint8Array(2) [ 1, 2 ]');
    let level: unknown = deep;
    let depth = 1;
    while (Array.isArray(level)) {
      level = level[0];
      depth += 1;
    }
    expect(depth).toBe(256);
    expect(typeof level).toBe('string');
  });

  it('gives every case its own argument objects', async () => {
    const code = 'function f(xs) {\n  xs.push(9);\n  return xs;\n}\n';
    const result = await run(
      code,
      ['f'],
      [
        { i: 0, args: [[1]], kwargs: {}, undef: [] },
        { i: 1, args: [[1]], kwargs: {}, undef: [] },
      ],
    );
    expect(result.result(0)?.value).toEqual([1, 9]);
    expect(result.result(1)?.value).toEqual([1, 9]);
  });
});
