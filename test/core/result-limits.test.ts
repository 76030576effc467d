// What an execution's results may cost the host (issue 13): the result budget, the digit cap of
// integers compared on the host, large frames read in the JSON worker, and comparing and writing
// the response in slices of the event loop. On fake sandboxes, so without Docker;
// test/attacks/result-flood.test.ts runs the same attacks on the real harnesses.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { valuesEqual } from '../../src/core/compare.js';
import { rawActualText } from '../../src/core/execute/collect-results.js';
import { JsonWorker, jsonWorker } from '../../src/core/execute/json-worker.js';
import { executionJson } from '../../src/core/execute/response-json.js';
import { ResultBudget } from '../../src/core/execute/result-budget.js';
import { DEFAULT_LIMITS, FrameParser, type HarnessEvent } from '../../src/core/sandbox/frame-parser.js';
import { exactJson } from '../../src/web/json.js';
import { fakeRunner, num } from '../support/fake-runner.js';
import type { FakeHarness, ReceivedJob } from '../support/fake-sandbox.js';

const ECHO = 'def f(x):\n    return x\n';
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A request of `count` cases, case i with argument i expecting `expected(i)` (null by default). */
function request(count: number, expected: (i: number) => unknown = () => null) {
  return {
    language: 'python',
    code: ECHO,
    testCases: Array.from({ length: count }, (_, i) => ({ args: { x: num(String(i)) }, expected: expected(i) })),
  };
}

/**
 * A harness that answers case by case, one turn of the event loop apart, as a real process's output
 * arrives. `value` is the JSON text of case i's value, written as it is (the fake's own
 * `result()` would parse and serialise it on this thread, which is not what is measured).
 */
function pacedScript(value: (i: number) => string, stdout: (i: number) => string = () => '') {
  return {
    job: async (job: ReceivedJob, harness: FakeHarness) => {
      harness.loaded();
      for (const c of job.cases) {
        harness.begin(c.i);
        const fields = `"error":null,"ms":1,"stdout":${JSON.stringify(stdout(c.i))}`;
        harness.write(`\x1e${job.nonce} {"t":"result","i":${c.i},"value":${value(c.i)},${fields}}\n`);
        await nextTurn();
      }
      harness.done();
    },
  };
}

/** The longest gap between ticks of a 2 ms timer while `work` runs: how long the event loop was held. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 2);
  try {
    const result = await work();
    return { result, stallMs: Math.round(stallMs) };
  } finally {
    clearInterval(timer);
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('result budget', () => {
  it('counts bytes up to its limit and says so past it', () => {
    const budget = new ResultBudget(100);
    expect(budget.spend(60)).toBe(true);
    expect(budget.spend(40)).toBe(true);
    expect(budget.exhausted).toBe(false);
    expect(budget.spend(1)).toBe(false);
    expect(budget.usedBytes).toBe(101);
    expect(budget.message).toBe('result budget of 100 bytes used up: the values returned so far are too large');
  });

  it('stops the sandbox past the budget, keeps the results before it, and fails the rest saying why (200, not 408)', async () => {
    const value = (i: number) => JSON.stringify(String(i).repeat(30_000));
    const { runner, engine } = fakeRunner(pacedScript(value), {
      resultBudgetBytes: 100_000,
      request: { maxCodeBytes: 4096, maxTestCases: 50, maxDepth: 16, maxCaseTimeoutMs: 2_000 },
    });
    const execution = await runner.execute(request(10, (i) => String(i).repeat(30_000)));

    expect(execution.status).toBe('completed');
    const message = 'result budget of 100000 bytes used up: the values returned so far are too large';
    // three frames of about 30 KB fit; the fourth goes past 100 000 bytes and is not even read
    expect(execution.results.map((r) => r.error)).toEqual([null, null, null, ...Array<string>(7).fill(message)]);
    expect(execution.results.map((r) => r.passed)).toEqual([true, true, true, ...Array<boolean>(7).fill(false)]);
    expect(execution.results.slice(3).map((r) => r.actual)).toEqual(Array(7).fill(null));
    expect(engine.started).toHaveLength(1);
    expect(engine.started[0].sandbox.killed).toBe(true);
  });

  it('counts captured output and errors too, across the containers of one execution', async () => {
    // 40 KB of output per case; the budget is spent by output alone
    const { runner } = fakeRunner(
      pacedScript(
        () => '1',
        () => 'o'.repeat(40_000),
      ),
      {
        resultBudgetBytes: 100_000,
        stdoutCapBytes: 50_000,
      },
    );
    const execution = await runner.execute(request(5, () => num('1')));
    expect(execution.results.map((r) => r.error === null)).toEqual([true, true, false, false, false]);
    expect(execution.results[2].error).toMatch(/^result budget of 100000 bytes used up/);
  });

  it('leaves an execution under the budget untouched', async () => {
    const { runner } = fakeRunner(pacedScript((i) => String(i)));
    const execution = await runner.execute(request(5, (i) => num(String(i))));
    expect(execution.results.map((r) => [r.passed, r.error])).toEqual(Array(5).fill([true, null]));
  });
});

describe('integers past the digit cap', () => {
  const digits = (n: number, lead = '1') => lead + '7'.repeat(n - 1);

  it('are compared as digit strings, sign normalised, without BigInt()', () => {
    const long = digits(5_000);
    vi.stubGlobal('BigInt', () => {
      throw new Error('BigInt() called for an integer past the cap');
    });
    expect(valuesEqual(num(long), num(long))).toBe(true);
    expect(valuesEqual(num(`-${long}`), num(`-${long}`))).toBe(true);
    expect(valuesEqual(num(long), num(`-${long}`))).toBe(false);
    expect(valuesEqual(num(long), num(digits(5_000, '2')))).toBe(false);
    expect(valuesEqual([num(long)], [num(`${long}0`)])).toBe(false);
    // a float never equals such an integer
    expect(valuesEqual(num(long), num('1.0e4999'))).toBe(false);
  });

  it('stay exact below the cap, where BigInt compares them', () => {
    const atCap = digits(4_300);
    expect(valuesEqual(num(atCap), num(atCap))).toBe(true);
    expect(valuesEqual(num(atCap), num(digits(4_300, '2')))).toBe(false);
    expect(valuesEqual(num('-0'), num('0'))).toBe(true);
    expect(valuesEqual(num('3'), num('3.0'))).toBe(true);
  });

  it('cost a million-digit comparison milliseconds, not seconds', () => {
    const million = digits(1_000_000);
    const started = performance.now();
    expect(valuesEqual(num(million), num(million))).toBe(true);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('large frames off the event loop', () => {
  it('the frame parser passes a frame line over 8 KiB on unparsed, and parses a smaller one', () => {
    const events: HarnessEvent[] = [];
    const parser = new FrameParser((event) => events.push(event));
    const nonce = 'ab'.repeat(16);
    parser.setNonce(nonce);
    const small = `{"t":"result","i":0,"value":"${'s'.repeat(8000)}"}`;
    const large = `{"t":"result","i":1,"value":"${'l'.repeat(DEFAULT_LIMITS.inlineFrameBytes ?? 0)}"}`;
    parser.push(Buffer.from(`\x1e${nonce} ${small}\n\x1e${nonce} ${large}\n`));
    expect(events.map((e) => e.kind)).toEqual(['frame', 'frame-text']);
    expect(events[1]).toEqual({ kind: 'frame-text', text: large, bytes: nonce.length + 1 + large.length });
  });

  it('the JSON worker reads a frame and hands back exact value text, and rejects a malformed one', async () => {
    const worker = new JsonWorker();
    try {
      const wire = await worker.readFrame(
        '{"t":"result","i":3,"value":[3.0,12345678901234567890123,"x"],"error":null,"ms":1.5,"stdout":"hi"}',
      );
      expect(wire).toEqual({ t: 'result', i: 3, ms: 1.5, error: null, stdout: 'hi', value: '[3.0,12345678901234567890123,"x"]' });
      expect(await worker.readFrame('{"t":"result","i":1e400}')).toBeNull();
      expect(await worker.readFrame('{"t":"result",')).toBeNull();
      expect(await worker.equal('[3, 2]', '[3.0, 2.0000000000001]')).toBe(true);
      expect(await worker.equal('[3, 2]', '[3, 2, 1]')).toBe(false);
      // done by the thread, not by the fallback on this one
      expect(worker.threadFailures).toBe(0);
    } finally {
      await worker.close();
    }
  });

  it('keeps exact numbers in large values, compares them in the worker, and keeps frames in order', async () => {
    // 30 000 floats written as 3.0 and a 60-digit integer: over 8 KiB, so read in the worker
    const big = `9${'1'.repeat(59)}`;
    const floats = `[${Array<string>(30_000).fill('3.0').join(',')},${big}]`;
    const value = (i: number) => (i === 1 ? floats : String(i));
    const { runner } = fakeRunner(pacedScript(value));
    const expected = (i: number) => (i === 1 ? [...Array<unknown>(30_000).fill(num('3')), num(big)] : num(String(i)));
    const execution = await runner.execute(request(3, expected));

    expect(execution.results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [true, null],
      [true, null],
    ]);
    const [, large] = execution.results;
    expect(rawActualText(large)).toBe(floats);
    // read as a value (as the MCP tool does), it is parsed then, exactly
    expect(exactJson(large.actual)).toBe(floats);
    const body = await executionJson(execution.results);
    expect(body).toContain(`"actual":${floats}`);
    expect(JSON.parse(body).results).toHaveLength(3);
  });

  it('keeps a large result that arrives just before the process exits', async () => {
    const huge = JSON.stringify('h'.repeat(200_000));
    const { runner } = fakeRunner({
      job: (job, harness) => {
        harness.loaded();
        harness.begin(0);
        harness.result(0, { value: huge });
        harness.exit(0);
      },
    });
    const execution = await runner.execute(request(2));
    expect(execution.results.map((r) => r.error)).toEqual([null, 'the sandbox process exited before this case finished (exit code 0)']);
    expect(rawActualText(execution.results[0])).toBe(huge);
  });

  it('a large frame that is malformed is stray output of the case', async () => {
    const { runner } = fakeRunner(
      {
        job: (job, harness) => {
          harness.loaded();
          harness.begin(0);
          harness.write(`\x1e${job.nonce} {"t":"result","i":0,"value":"${'m'.repeat(70_000)}"\n`);
          harness.result(0, { value: '0' });
          harness.done();
        },
      },
      { stdoutCapBytes: 1024 },
    );
    const [result] = (await runner.execute(request(1, () => num('0')))).results;
    expect(result.passed).toBe(true);
    expect(result.stdout.startsWith(`\x1e`)).toBe(true);
    expect(result.stdout).toMatch(/m{100}/);
    expect(result.stdout.endsWith('\n...[truncated]')).toBe(true);
  });
});

describe('the event loop stays free', () => {
  const settings = {
    request: { maxCodeBytes: 4096, maxTestCases: 100, maxDepth: 16, maxCaseTimeoutMs: 10_000 },
    timeoutMs: 20_000,
  };

  const strings = JSON.stringify('s'.repeat(1_000_000));
  const list = `[${Array.from({ length: 150_000 }, (_, k) => k).join(',')}]`;
  const integer = `7${'3'.repeat(759_999)}`;
  const floats = `[${Array<string>(12_000).fill('1.5').join(',')}]`;

  it.each([
    ['100 strings of 1 000 000 characters', 100, strings],
    ['100 lists of 150 000 integers', 100, list],
    ['20 integers of 760 000 digits', 20, integer],
    ['100 lists of 12 000 floats', 100, floats],
  ])('%s: no step holds it long, from the first frame to the written response', async (_name, count, value) => {
    await jsonWorker.readFrame('{"t":"done"}'); // the worker's start-up is not what is measured
    const { runner } = fakeRunner(
      pacedScript(() => value),
      settings,
    );
    expect(jsonWorker.threadFailures).toBe(0);
    const { result, stallMs } = await longestStall(async () => {
      const execution = await runner.execute(request(count, () => [num('1')]));
      return { execution, body: await executionJson(execution.results) };
    });
    const { execution, body } = result;
    // each step is a few milliseconds; the margin is for a 2-core machine where the worker, the
    // collector's threads and the test runner compete for the cores with this thread
    expect(stallMs, `longest event-loop stall ${stallMs} ms`).toBeLessThan(150);
    expect(execution.results.some((r) => r.error?.startsWith('result budget of 4194304 bytes used up'))).toBe(true);
    expect(execution.results.every((r) => !r.passed)).toBe(true);
    expect(body.length).toBeLessThan(4 * 1024 * 1024 + 64 * 1024);
  });

  it('writes the same body exactJson writes', async () => {
    const { runner } = fakeRunner(
      pacedScript(
        (i) => (i === 0 ? '3.0' : '"x\\ny"'),
        () => 'out',
      ),
    );
    const execution = await runner.execute(request(2, (i) => (i === 0 ? num('3') : 'x\ny')));
    const expected = exactJson({ results: execution.results });
    expect(await executionJson(execution.results)).toBe(expected);
    expect(await executionJson(execution.results, 'execution timed out after 5 ms')).toBe(
      exactJson({ error: 'execution timed out after 5 ms', results: execution.results }),
    );
  });
});
