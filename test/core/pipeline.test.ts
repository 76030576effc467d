// The execution pipeline (queue, pool, job, results) on fake sandboxes that answer in the harness
// protocol's bytes; test/api and test/attacks run the same paths on Docker with the real harnesses.
import { describe, expect, it } from 'vitest';
import type { Execution } from '../../src/core/runner.js';
import { exactJson } from '../../src/web/json.js';
import { fakeRunner, num } from '../support/fake-runner.js';
import type { HarnessScript } from '../support/fake-sandbox.js';

const ADD = 'def add(a, b):\n    return a + b\n';

/** A request with `count` cases of add(a=i, b=i), each expecting `expected` (default: the exact sum). */
function addRequest(count: number, extra: Record<string, unknown> = {}) {
  const testCases = Array.from({ length: count }, (_, i) => ({
    args: { a: num(String(i)), b: num(String(i)) },
    expected: num(String(2 * i)),
  }));
  return { language: 'python', code: ADD, testCases, ...extra };
}

/** Answers case i with 2i, as add would. */
const adds: HarnessScript = { job: (job, harness) => harness.answerAll(job, (c) => ({ value: String(2 * c.i) })) };

const errors = (execution: Execution) => execution.results.map((r) => r.error);

describe('a job on fake sandboxes', () => {
  it('compares returned values with the expected ones exactly: 3.0 equals 3, big integers to the last digit', async () => {
    const big = '12345678901234567890123';
    const { runner, engine } = fakeRunner({
      job: (job, harness) => {
        const values = ['3', '12345678901234567890124', big, '[1,2]'];
        const error = { type: 'ZeroDivisionError', message: 'division by\n  zero', line: 2, column: null };
        harness.answerAll(job, (c) => (c.i < values.length ? { value: values[c.i], ms: 60_000 } : { error }));
      },
    });
    const execution = await runner.execute({
      language: 'Py',
      code: ADD,
      testCases: [
        { args: { a: num('1.5'), b: num('1.5') }, expected: num('3.0') },
        { args: { a: num(big), b: num('1') }, expected: num(big) },
        { args: { a: num(big), b: num('0') }, expected: num(big) },
        { args: { a: [num('1')], b: [num('2')] }, expected: [num('1'), num('2')] },
        { args: { a: num('1'), b: num('0') }, expected: null },
      ],
    });

    expect(execution.status).toBe('completed');
    expect(execution.language).toBe('python');
    expect(engine.started.map((s) => s.interpreter)).toEqual(['python']);
    // the harness receives every number as the request wrote it
    expect(engine.jobs[0].cases.map((c) => exactJson(c.kwargs))).toEqual([
      '{"a":1.5,"b":1.5}',
      `{"a":${big},"b":1}`,
      `{"a":${big},"b":0}`,
      '{"a":[1],"b":[2]}',
      '{"a":1,"b":0}',
    ]);
    expect(execution.results.map((r) => r.passed)).toEqual([true, false, true, true, false]);
    expect(execution.results.map((r) => exactJson(r.actual))).toEqual(['3', '12345678901234567890124', big, '[1,2]', 'null']);
    expect(errors(execution)).toEqual([null, null, null, null, 'ZeroDivisionError: division by zero (line 2)']);
    // a reported time is never longer than the job has run
    expect(Number.parseInt(execution.results[0].runtime, 10)).toBeLessThan(1_000);
    expect(engine.started[0].sandbox.disposed).toBe(true);
  });

  it("gives each case its captured and stray output, under the output cap, cut on a character's boundary", async () => {
    const { runner } = fakeRunner(
      {
        job: (job, harness) => {
          harness.loaded();
          harness.begin(0);
          harness.write('from fd 1\n');
          harness.result(0, { value: '0', stdout: 'hi\n' });
          harness.begin(1);
          harness.stderr('warning\n');
          harness.result(1, { value: '2' });
          harness.begin(2);
          harness.result(2, { value: '4', stdout: 'x'.repeat(100) });
          harness.begin(3);
          harness.result(3, { value: '6', stdout: `a${'é'.repeat(40)}` });
          harness.done();
        },
      },
      { stdoutCapBytes: 64 },
    );
    const execution = await runner.execute(addRequest(4));
    expect(execution.results.map((r) => r.stdout)).toEqual([
      'hi\nfrom fd 1\n',
      'warning\n',
      `${'x'.repeat(64)}\n...[truncated]`,
      `a${'é'.repeat(31)}\n...[truncated]`,
    ]);
    expect(execution.results.every((r) => r.passed)).toBe(true);
  });

  it('reads frames split across writes, and forged, malformed or foreign frames as output', async () => {
    const { runner, engine } = fakeRunner(
      {
        job: (job, harness) => {
          harness.loaded();
          harness.begin(0);
          const frame = `\x1e${job.nonce} {"t":"result","i":0,"value":0,"error":null,"ms":1,"stdout":""}\n`;
          for (const piece of [frame.slice(0, 1), frame.slice(1, 20), frame.slice(20)]) harness.write(piece);
          harness.begin(1);
          harness.write('\x1e00000000000000000000000000000000 {"t":"done"}\n');
          harness.write(`\x1e${job.nonce} {"t":"done"\n`);
          harness.write(`\x1e${job.nonce} {"t":"result","i":1e400}\n`);
          harness.write(Buffer.from([0x6f, 0x6b, 0xff, 0x0a]));
          harness.result(1, { value: '2' });
          harness.done();
        },
      },
      { stdoutCapBytes: 4096 },
    );
    const execution = await runner.execute(addRequest(2));
    const nonce = engine.jobs[0].nonce;
    expect(execution.results.map((r) => r.passed)).toEqual([true, true]);
    expect(execution.results[0].stdout).toBe('');
    expect(execution.results[1].stdout).toBe(
      `\x1e00000000000000000000000000000000 {"t":"done"}\n\x1e${nonce} {"t":"done"\n\x1e${nonce} {"t":"result","i":1e400}\nok\ufffd\n`,
    );
  });

  it('fails every case with a load error, keeping what the module printed', async () => {
    const { runner } = fakeRunner({
      job: (_job, harness) => {
        harness.loaded({ type: 'SyntaxError', message: 'invalid syntax', line: 2, column: 5 }, 'loading\n');
        harness.done();
      },
    });
    const execution = await runner.execute(addRequest(2));
    expect(errors(execution)).toEqual(['SyntaxError: invalid syntax (line 2, column 5)', 'SyntaxError: invalid syntax (line 2, column 5)']);
    expect(execution.results.map((r) => r.stdout)).toEqual(['loading\n', '']);
  });

  it("reports a TypeScript error on the TypeScript source's line", async () => {
    const { runner, engine } = fakeRunner({
      job: (job, harness) => harness.answerAll(job, () => ({ error: { type: 'TypeError', message: 'boom', line: 2, column: 11 } })),
    });
    const code = 'type N = number;\n\nfunction add(a: N, b: N): N {\n  const s = a + b;\n  return s;\n}\n';
    const execution = await runner.execute({
      language: 'ts',
      code,
      testCases: [{ args: { a: num('1'), b: num('2') }, expected: num('3') }],
    });
    expect(engine.started.map((s) => s.interpreter)).toEqual(['node']);
    expect(engine.jobs[0].code).not.toContain(': N');
    expect(errors(execution)).toEqual(['TypeError: boom (line 4)']);
  });

  it('fails every case without starting a sandbox when no function can be resolved', async () => {
    const { runner, engine } = fakeRunner(adds);
    const execution = await runner.execute({ language: 'python', code: 'x = 1\n', testCases: [{ args: {}, expected: null }] });
    expect(errors(execution)).toEqual(['no function to call was found; tried no names']);
    expect(engine.started).toHaveLength(0);
  });

  it('times out one case and runs the cases after it in a fresh sandbox', async () => {
    const { runner, engine } = fakeRunner({
      job: (job, harness) => {
        harness.loaded();
        for (const c of job.cases) {
          harness.begin(c.i);
          if (c.i === 1) return; // the call never returns
          harness.result(c.i, { value: String(2 * c.i) });
        }
        harness.done();
      },
    });
    const execution = await runner.execute(addRequest(3, { caseTimeoutMs: num('150') }));
    expect(execution.status).toBe('completed');
    expect(errors(execution)).toEqual([null, 'timed out', null]);
    expect(execution.results.map((r) => r.passed)).toEqual([true, false, true]);
    expect(engine.jobs.map((job) => job.cases.map((c) => c.i))).toEqual([[0, 1, 2], [2]]);
    expect(engine.started.map((s) => s.sandbox.killed)).toEqual([true, false]);
  });

  it('stops at the execution deadline with the results so far', async () => {
    const { runner, engine } = fakeRunner(
      {
        job: (job, harness) => {
          harness.loaded();
          harness.begin(0);
          harness.result(0, { value: '0' });
          harness.begin(1);
        },
      },
      { timeoutMs: 300 },
    );
    const startedAt = Date.now();
    const execution = await runner.execute(addRequest(3));
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
    expect(execution.status).toBe('timed-out');
    expect(errors(execution)).toEqual([null, 'timed out', 'timed out']);
    expect(execution.results[0].passed).toBe(true);
    expect(engine.started[0].sandbox.killed).toBe(true);
  });

  it('reports cases left when the harness finished without them', async () => {
    const { runner } = fakeRunner({
      job: (_job, harness) => {
        harness.loaded();
        harness.begin(0);
        harness.result(0, { value: '0' });
        harness.done();
      },
    });
    const execution = await runner.execute(addRequest(2));
    expect(errors(execution)).toEqual([null, 'the harness finished without a result for this case']);
  });
});

describe('a sandbox process that dies mid-run', () => {
  const dying = (die: (harness: Parameters<HarnessScript['job']>[1]) => void, afterCases: number): HarnessScript => ({
    job: (job, harness) => {
      harness.loaded();
      for (const c of job.cases.slice(0, afterCases)) {
        harness.begin(c.i);
        harness.result(c.i, { value: String(2 * c.i) });
      }
      die(harness);
    },
  });

  it('fails the cases without a result with its exit code', async () => {
    const { runner } = fakeRunner(dying((harness) => harness.exit(139), 1));
    const execution = await runner.execute(addRequest(3));
    const exited = 'the sandbox process exited before this case finished (exit code 139)';
    expect(execution.status).toBe('completed');
    expect(errors(execution)).toEqual([null, exited, exited]);
  });

  it("gives the first case what it wrote when it died before any case's result", async () => {
    const { runner } = fakeRunner(
      dying((harness) => {
        harness.stderr('Fatal Python error: Aborted\n');
        harness.exit(134);
      }, 0),
    );
    const execution = await runner.execute(addRequest(2));
    expect(errors(execution)).toEqual([
      'the sandbox process exited before this case finished (exit code 134)',
      'the sandbox process exited before this case finished (exit code 134)',
    ]);
    expect(execution.results.map((r) => r.stdout)).toEqual(['Fatal Python error: Aborted\n', '']);
  });

  it('says the memory limit when the kernel or V8 ended it for memory', async () => {
    const oom = fakeRunner(dying((harness) => harness.exit(137, true), 1));
    expect(errors(await oom.runner.execute(addRequest(2)))).toEqual([null, 'memory limit exceeded (256 MB)']);

    const heap = fakeRunner(
      dying((harness) => {
        harness.stderr('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n');
        harness.exit(134);
      }, 1),
    );
    expect(errors(await heap.runner.execute(addRequest(2)))).toEqual([null, 'memory limit exceeded (256 MB)']);
  });
});
