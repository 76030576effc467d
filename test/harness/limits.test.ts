// Both harnesses as bare processes: the return-value limit (no giant frame is ever written), the
// cost of capturing huge output, error texts cut to size, and source that starts with a
// byte-order mark (docs/harness-protocol.md, sections 3 and 4).
import { describe, expect, it } from 'vitest';
import { makeJob, NODE_HARNESS, PYTHON_HARNESS, runHarness, type HarnessRun, type JobCase } from './run-harness.js';

const LIMIT = 1_048_576;
const MAX_ERROR_CHARS = 4096;
const tooLarge = (atLeast: number) => `return value too large: at least ${atLeast} bytes as JSON (limit ${LIMIT})`;
const cases = (...args: unknown[][]): JobCase[] => args.map((caseArgs, i) => ({ i, args: caseArgs, kwargs: {}, undef: [] }));
const largestFrame = (result: HarnessRun) => Math.max(...result.frames.map((frame) => frame.raw.length));

interface Language {
  name: string;
  command: readonly string[];
  filename: string;
  errorType: string;
  /** Source of `f(n)`, returning a value whose JSON is exactly `n` bytes (a string of `n - 2` characters). */
  sized: string;
  /** Source of `f(kind)`, returning a huge value of the named kind. */
  huge: string;
  /**
   * Source of `f()`, returning how much the process's peak resident memory (KiB, VmHWM: not
   * inherited from the parent like ru_maxrss) grew while 40 MB of output was captured.
   */
  capture: string;
  /** Source of `f()`, raising an error whose message has 100 000 characters. */
  longError: string;
}

const PYTHON: Language = {
  name: 'python',
  command: PYTHON_HARNESS,
  filename: 'solution.py',
  errorType: 'ValueError',
  sized: 'def f(n):\n    return "x" * (n - 2)\n',
  huge: [
    'def f(kind):',
    '    if kind == "string":',
    '        return "x" * 20_000_000',
    '    if kind == "list":',
    '        return [0] * 20_000_000',
    '    if kind == "integer":',
    '        return 10 ** 1_200_000',
    '    if kind == "nested":',
    '        return {"a": [["y" * 100_000] * 10] * 2}',
    '    return {str(i): "v" * 10 for i in range(300_000)}',
  ].join('\n'),
  capture: [
    'import re, sys',
    'def peak():',
    '    return int(re.search(r"VmHWM:\\s*(\\d+)", open("/proc/self/status").read()).group(1))',
    'def f():',
    '    text = "\\u00e9" * 20_000_000',
    '    data = text.encode()',
    '    before = peak()',
    '    print(text)',
    '    sys.stdout.buffer.write(data)',
    '    return peak() - before',
  ].join('\n'),
  longError: 'def f():\n    raise ValueError("e" * 100_000)\n',
};

const NODE: Language = {
  name: 'node',
  command: NODE_HARNESS,
  filename: 'solution.js',
  errorType: 'RangeError',
  sized: "function f(n) { return 'x'.repeat(n - 2); }",
  huge: [
    'function f(kind) {',
    "  if (kind === 'string') return 'x'.repeat(20_000_000);",
    "  if (kind === 'list') return new Array(20_000_000).fill(0);",
    "  if (kind === 'integer') return 10n ** 1_200_000n;",
    "  if (kind === 'nested') return { a: Array(2).fill(Array(10).fill('y'.repeat(100_000))) };",
    "  return Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [String(i), 'v'.repeat(10)]));",
    '}',
  ].join('\n'),
  capture: [
    "const peak = () => Number(/VmHWM:\\s*(\\d+)/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]);",
    'function f() {',
    "  const text = '\\u00e9'.repeat(20_000_000);",
    "  const data = Buffer.from(text, 'utf8');",
    '  const before = peak();',
    '  process.stdout.write(text);',
    '  process.stdout.write(data);',
    '  return peak() - before;',
    '}',
  ].join('\n'),
  longError: "function f() { throw new RangeError('e'.repeat(100_000)); }",
};

describe.each([PYTHON, NODE])('$name harness: limits', (language) => {
  const run = (code: string, jobCases: JobCase[]) =>
    runHarness(language.command, makeJob({ code, target: { names: ['f'] }, cases: jobCases }, language.filename));

  it('returns a value of exactly the limit and fails one byte over it', async () => {
    const result = await run(language.sized, cases([LIMIT], [LIMIT + 1], [10]));
    expect(result.result(0)?.error).toBeNull();
    expect(result.result(0)?.value).toHaveLength(LIMIT - 2);
    expect(result.result(1)).toMatchObject({
      value: null,
      error: { type: language.errorType, message: tooLarge(LIMIT + 1), line: null, column: null },
    });
    expect(result.result(2)).toMatchObject({ value: 'x'.repeat(8), error: null });
    expect(result.exitCode).toBe(0);
  });

  it.each(['string', 'list', 'integer', 'nested', 'object'])(
    'fails a huge %s with a clear error and writes no giant frame',
    async (kind) => {
      const result = await run(language.huge, cases([kind], ['list']));
      const error = result.result(0)?.error;
      expect(error).toMatchObject({ type: language.errorType, line: null, column: null });
      const atLeast = Number(/^return value too large: at least (\d+) bytes as JSON \(limit \d+\)$/.exec(error?.message ?? '')?.[1]);
      expect(error?.message).toBe(tooLarge(atLeast));
      expect(atLeast).toBeGreaterThan(LIMIT);
      // a string's and an array's size is known before they are read
      expect(result.result(1)?.error?.message).toBe(tooLarge(40_000_001));
      if (kind === 'string') expect(atLeast).toBe(20_000_002);
      expect(result.frames.map((frame) => frame.t)).toEqual(['loaded', 'begin', 'result', 'begin', 'result', 'done']);
      expect(largestFrame(result)).toBeLessThan(4096);
    },
  );

  it('captures 40 MB of output without holding a copy of it', async () => {
    const result = await run(language.capture, cases([]));
    const frame = result.result(0);
    expect(frame?.error).toBeNull();
    expect(frame?.stdout?.endsWith('\n...[truncated]')).toBe(true);
    // a copy of the output would be 20 000 to 40 000 KiB
    expect(frame?.value).toBeLessThan(8_000);
  });

  it('cuts an error message to 4096 characters', async () => {
    const result = await run(language.longError, cases([]));
    expect(result.result(0)?.error).toMatchObject({ message: 'e'.repeat(MAX_ERROR_CHARS) });
  });
});

describe('source with a byte-order mark', () => {
  it('python: runs as CPython runs a file that starts with one, lines and columns unchanged', async () => {
    const run = (code: string) => runHarness(PYTHON_HARNESS, makeJob({ code, target: { names: ['f'] }, cases: cases([2]) }));
    const result = await run('\ufeffdef f(x):\n    return x * 21\n');
    expect(result.loaded()?.error).toBeNull();
    expect(result.result(0)?.value).toBe(42);
    const broken = await run('\ufeffdef f(x) return\n');
    expect(broken.loaded()?.error).toMatchObject({
      type: 'SyntaxError',
      line: 1,
      column: (await run('def f(x) return\n')).loaded()?.error?.column,
    });
  });

  it('node: runs as Node runs a file that starts with one (V8 reads it as white space)', async () => {
    const result = await runHarness(
      NODE_HARNESS,
      makeJob({ code: '\ufefffunction f(x) {\n  return x * 21;\n}\n', target: { names: ['f'] }, cases: cases([2]) }, 'solution.js'),
    );
    expect(result.loaded()?.error).toBeNull();
    expect(result.result(0)?.value).toBe(42);
  });
});
