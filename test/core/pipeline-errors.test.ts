// The runner's typed failures on fake sandboxes, and the HTTP answer each one gets.
import { describe, expect, it } from 'vitest';
import { httpAnswer } from '../../src/web/error-map.js';
import { BusyError, SandboxError, ShuttingDownError, UnsupportedLanguageError, ValidationError } from '../../src/web/errors.js';
import { fakeRunner, num } from '../support/fake-runner.js';
import type { HarnessScript } from '../support/fake-sandbox.js';

const REQUEST = {
  language: 'python',
  code: 'def f(x):\n    return x\n',
  testCases: [{ args: { x: num('1') }, expected: num('1') }],
};

/** Answers every case with 1, once `opened` resolves: a job that runs until the test lets it finish. */
function gated(): { script: HarnessScript; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const script: HarnessScript = {
    job: async (job, harness) => {
      await opened;
      harness.answerAll(job, () => ({ value: '1' }));
    },
  };
  return { script, open };
}

/** The error `promise` rejects with, which must be an instance of `type`. */
async function failure<T extends Error>(promise: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}

describe('runner failures and their HTTP answers', () => {
  it('refuses an invalid request with every offending field (400)', async () => {
    const { runner, engine } = fakeRunner({ job: () => undefined });
    const error = await failure(
      runner.execute({ language: 'python', code: '', testCases: [], caseTimeoutMs: num('999999') }),
      ValidationError,
    );
    const issues = [
      { path: ['code'], message: 'code must not be empty' },
      { path: ['testCases'], message: 'at least one test case is required' },
      { path: ['caseTimeoutMs'], message: 'Too big: expected number to be <=2000' },
    ];
    expect(error.issues).toEqual(issues);
    expect(httpAnswer(error)).toEqual({ status: 400, body: { error: error.message, issues }, headers: undefined });
    expect(error.message).toBe(
      'validation failed: code: code must not be empty; testCases: at least one test case is required; caseTimeoutMs: Too big: expected number to be <=2000',
    );
    expect(engine.started).toHaveLength(0);
  });

  it('refuses a language it does not support (422)', async () => {
    const { runner, engine } = fakeRunner({ job: () => undefined });
    const error = await failure(runner.execute({ ...REQUEST, language: 'ruby' }), UnsupportedLanguageError);
    const message = 'language "ruby" is not supported; use one of python, javascript, typescript';
    expect(httpAnswer(error)).toEqual({ status: 422, body: { error: message }, headers: undefined });
    expect(engine.started).toHaveLength(0);
  });

  it('refuses work while its queue is full (503, retry after 1 s), and runs what it took', async () => {
    const { script, open } = gated();
    const { runner } = fakeRunner(script, { concurrency: 1, queueLimit: 1 });
    const running = runner.execute(REQUEST);
    const queued = runner.execute(REQUEST);
    expect(runner.stats()).toMatchObject({ running: 1, queued: 1 });
    const error = await failure(runner.execute(REQUEST), BusyError);
    expect(httpAnswer(error)).toEqual({
      status: 503,
      body: { error: 'the execution queue is full; retry shortly' },
      headers: { 'retry-after': '1' },
    });
    open();
    for (const execution of await Promise.all([running, queued])) expect(execution.results.map((r) => r.passed)).toEqual([true]);
  });

  it('refuses new work while shutting down (503, retry after 5 s), finishes what runs, then removes every sandbox', async () => {
    const { script, open } = gated();
    const { runner, engine } = fakeRunner(script);
    const running = runner.execute(REQUEST);
    const closed = runner.close();
    const error = await failure(runner.execute(REQUEST), ShuttingDownError);
    expect(httpAnswer(error)).toEqual({ status: 503, body: { error: 'the runner is shutting down' }, headers: { 'retry-after': '5' } });
    expect(await runner.readiness()).toEqual({ ready: false, checks: { engine: 'ok', runner: 'shutting down' } });
    open();
    expect((await running).results.map((r) => r.passed)).toEqual([true]);
    await closed;
    expect(engine.removeAllCalls).toBe(1);
    expect(engine.started.map((s) => s.sandbox.disposed)).toEqual([true]);
  });

  it('fails with the stage when the engine loses the sandbox mid-run (502)', async () => {
    const { runner, engine } = fakeRunner({
      job: (_job, harness) => {
        harness.loaded();
        harness.begin(0);
        harness.loseEngine();
      },
    });
    const error = await failure(runner.execute(REQUEST), SandboxError);
    expect(error.stage).toBe('wait');
    expect(httpAnswer(error)).toEqual({ status: 502, body: { error: 'code runner failed at wait: socket hang up' }, headers: undefined });
    expect(engine.started[0].sandbox.disposed).toBe(true);
  });

  it('fails with the stage when a sandbox cannot start or its harness exits before it is ready (502)', async () => {
    const missingImage = fakeRunner({
      start: () => {
        throw new SandboxError('image', 'runner image missing: no such image: fake-python');
      },
      job: () => undefined,
    });
    const image = await failure(missingImage.runner.execute(REQUEST), SandboxError);
    expect(image.stage).toBe('image');
    expect(httpAnswer(image).body.error).toBe('code runner failed at image: runner image missing: no such image: fake-python');

    const crashing = fakeRunner({ start: (harness) => harness.exit(1), job: () => undefined });
    const start = await failure(crashing.runner.execute(REQUEST), SandboxError);
    expect(start.stage).toBe('start');
    expect(httpAnswer(start)).toEqual({
      status: 502,
      body: { error: 'code runner failed at start: the harness exited before it was ready' },
      headers: undefined,
    });
  });
});
