// Unicode, null bytes and invalid UTF-8 in code, arguments, return values and output: each must
// arrive where it belongs exactly (or as U+FFFD where the bytes were not UTF-8), and never break
// the frame channel or the JSON answer.
import { describe, expect, it } from 'vitest';
import { attack, attackBeside, RUNTIMES, useAttackService } from './support.js';

const TRICKY = 'héllo\u0000wörld 😀 𝄞 ß \u202eevil\u202c \u2028\u2029 \x1e\x1b[31m \r\n\t end';

describe.each(RUNTIMES)('encoding attacks under %s', (runtime) => {
  const ctx = useAttackService(runtime);

  it.concurrent('python: null bytes, astral characters and control characters round-trip in actual and stdout', async () => {
    const code = 'import sys\ndef f(s):\n    print(s)\n    sys.stderr.write(s + "|err\\n")\n    return s + "|\\u0000\\U0001d11e"\n';
    const { results } = await attack(ctx, 'python', code, { testCases: [{ args: { s: TRICKY }, expected: `${TRICKY}|\u0000𝄞` }] });
    expect(results[0]).toMatchObject({ passed: true, error: null, actual: `${TRICKY}|\u0000𝄞` });
    expect(results[0].stdout).toBe(`${TRICKY}\n${TRICKY}|err\n`);
    expect(results[0].input).toEqual({ s: TRICKY });
  });

  it.concurrent('javascript: null bytes, astral characters and control characters round-trip in actual and stdout', async () => {
    const code = "function f(s) {\n  console.log(s);\n  process.stderr.write(s + '|err\\n');\n  return s + '|\\u0000\\u{1d11e}';\n}\n";
    const { results } = await attack(ctx, 'javascript', code, { testCases: [{ args: { s: TRICKY }, expected: `${TRICKY}|\u0000𝄞` }] });
    expect(results[0]).toMatchObject({ passed: true, error: null, actual: `${TRICKY}|\u0000𝄞` });
    expect(results[0].stdout).toBe(`${TRICKY}\n${TRICKY}|err\n`);
  });

  it.concurrent('python: the same text written straight to fd 1 arrives intact', async () => {
    const code = 'import os\ndef f(s):\n    os.write(1, (s + "\\n").encode("utf-8"))\n    return len(s)\n';
    const { results } = await attack(ctx, 'python', code, { testCases: [{ args: { s: TRICKY }, expected: [...TRICKY].length }] });
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(results[0].stdout).toBe(`${TRICKY}\n`);
  });

  it.concurrent('python: invalid UTF-8 in output becomes U+FFFD, the result is unaffected', async () => {
    const code =
      'import os, sys\ndef f(x):\n    sys.stdout.buffer.write(b"a\\xff\\xfeb\\n")\n    os.write(1, b"c\\xc3(d\\n")\n    return x\n';
    const { results } = await attack(ctx, 'python', code);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(results[0].stdout).toContain('a\ufffd\ufffdb\n');
    expect(results[0].stdout).toContain('c\ufffd(d\n');
  });

  it.concurrent('javascript: invalid UTF-8 in output becomes U+FFFD, the result is unaffected', async () => {
    const code =
      "function f(x) {\n  process.stdout.write(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0x0a]));\n  require('fs').writeSync(1, Buffer.from([0x63, 0xc3, 0x28, 0x64, 0x0a]));\n  return x;\n}\n";
    // beside a /healthz prober and a victim execution: this file's representative (support.ts, attackBeside)
    const { results } = await attackBeside(ctx, 'javascript', code);
    expect(results[0]).toMatchObject({ passed: true, error: null });
    expect(results[0].stdout).toContain('a\ufffd\ufffdb\n');
    expect(results[0].stdout).toContain('c\ufffd(d\n');
  });

  it.concurrent('lone surrogates in arguments come back as themselves or as U+FFFD, never as broken JSON', async () => {
    const s = 'x\ud800y\udc00z';
    for (const [language, code] of [
      ['python', 'def f(s):\n    print(s)\n    return s\n'],
      ['javascript', 'function f(s) { console.log(s); return s; }'],
    ] as const) {
      const { reply, results } = await attack(ctx, language, code, { testCases: [{ args: { s }, expected: s }] });
      expect(reply.status, language).toBe(200);
      expect([s, 'x\ufffdy\ufffdz'], language).toContain(results[0].actual);
      expect([`${s}\n`, 'x\ufffdy\ufffdz\n', 'x\ufffd\ufffd\ufffdy\ufffd\ufffd\ufffdz\n'], language).toContain(results[0].stdout);
    }
  });

  it.concurrent('python: a null byte in the source is a clean load error for every case', async () => {
    const { reply, results } = await attack(ctx, 'python', 'def f(x):\n    return "a\u0000b"\n', {
      testCases: [
        { args: { x: 1 }, expected: 'a\u0000b' },
        { args: { x: 2 }, expected: 'a\u0000b' },
      ],
    });
    expect(reply.status).toBe(200);
    for (const r of results) expect(r.error).toMatch(/null (byte|character)/i);
  });

  it.concurrent('javascript: a raw null byte inside a string literal is valid source and round-trips', async () => {
    const { results } = await attack(ctx, 'javascript', 'function f(x) { return "a\u0000b"; }', {
      testCases: [{ args: { x: 1 }, expected: 'a\u0000b' }],
    });
    expect(results[0]).toMatchObject({ passed: true, error: null, actual: 'a\u0000b' });
  });

  it.concurrent('unicode identifiers and CRLF line endings load normally (and a BOM in JavaScript)', async () => {
    const py = await attack(ctx, 'python', 'def f(x):\r\n    ñandú = x * 2\r\n    return ñandú\r\n', {
      testCases: [{ args: { x: 2 }, expected: 4 }],
    });
    expect(py.results[0]).toMatchObject({ passed: true, error: null });
    const js = await attack(ctx, 'javascript', '\ufeffconst π = 3;\r\nfunction f(x) {\r\n  return x * π;\r\n}\r\n', {
      testCases: [{ args: { x: 2 }, expected: 6 }],
    });
    expect(js.results[0]).toMatchObject({ passed: true, error: null });
  });

  // An error's type name is the attacker's to choose (issue 13): line breaks in it, or in the
  // message, must not make the result's `error` more than one line (a log or a report that prints
  // it line by line would show a forged line). Both harnesses collapse them.
  const ONE_LINE = /^[^\r\n\u0085\u2028\u2029]+$/;

  it.concurrent('python: exception types named with newlines give a one-line error, at run and load time', async () => {
    const code = [
      'Bad = type("Bad\\nName\\r\\n", (Exception,), {})',
      'Ctl = type("\\u2028Evil\\x85\\u2029\\r", (ValueError,), {})',
      'def f(x):',
      '    if x == 1:',
      '        raise Bad("first line\\nsecond\\rthird\\u2028fourth")',
      '    raise Ctl("x")',
      '',
    ].join('\n');
    const testCases = [1, 2].map((x) => ({ args: { x }, expected: x }));
    const run = await attack(ctx, 'python', code, { testCases });
    expect(run.results.map((r) => r.error)).toEqual(['Bad Name: first line second third fourth (line 5)', 'Evil: x (line 6)']);
    const load = await attack(ctx, 'python', 'raise type("Load\\r\\nError\\n", (Exception,), {})("at\\rload")\ndef f(x):\n    return x\n', {
      testCases,
    });
    expect(load.results.map((r) => r.error)).toEqual(['Load Error: at load (line 1)', 'Load Error: at load (line 1)']);
    for (const r of [...run.results, ...load.results]) expect(r.error).toMatch(ONE_LINE);
  });

  it.concurrent('javascript: Error subclasses named with newlines (name and constructor name) give a one-line error', async () => {
    const code = [
      'class Bad extends Error {}',
      "const Named = { ['Ctor\\r\\nName\\u2028']: class extends Error {} }['Ctor\\r\\nName\\u2028'];",
      'function f(x) {',
      '  if (x === 1) {',
      "    const e = new Bad('first line\\nsecond\\rthird\\u2028fourth');",
      "    e.name = 'Bad\\nName\\r\\n';",
      '    throw e;',
      '  }',
      "  const e = new Named('x');",
      "  e.name = '';",
      '  throw e;',
      '}',
      '',
    ].join('\n');
    const { results } = await attack(ctx, 'javascript', code, { testCases: [1, 2].map((x) => ({ args: { x }, expected: x })) });
    // the line is where the error was made (the top of its stack)
    expect(results[0].error).toBe('Bad Name: first line second third fourth (line 5)');
    expect(results[1].error).toBe('Ctor Name: x (line 9)');
    for (const r of results) expect(r.error).toMatch(ONE_LINE);
  });
});
