import { describe, expect, it } from 'vitest';
import { FairQueue } from '../../src/core/fair-queue.js';
import { BusyError } from '../../src/web/errors.js';

/** A task that records when it starts and ends after `ms`. */
function recorder() {
  const started: string[] = [];
  const task =
    (name: string, ms = 20) =>
    () =>
      new Promise<string>((resolve) => {
        started.push(name);
        setTimeout(() => resolve(name), ms);
      });
  return { started, task };
}

describe('FairQueue', () => {
  it('serves callers in turn: a backlog of one caller delays another by one task, not all of them', async () => {
    const queue = new FairQueue({ concurrency: 1, limit: 100, maxWaitMs: 10_000 });
    const { started, task } = recorder();
    const flood = Array.from({ length: 6 }, (_, i) => queue.add('a', task(`a${i}`)));
    const victim = queue.add('b', task('b0'));
    await Promise.all([...flood, victim]);
    expect(started.indexOf('b0')).toBe(1);
    expect(started).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('alternates two callers with backlogs: a newcomer does not starve the caller that was there first', async () => {
    const queue = new FairQueue({ concurrency: 1, limit: 100, maxWaitMs: 10_000 });
    const { started, task } = recorder();
    const first = Array.from({ length: 4 }, (_, i) => queue.add('a', task(`a${i}`, 5)));
    const second = Array.from({ length: 4 }, (_, i) => queue.add('b', task(`b${i}`, 5)));
    await Promise.all([...first, ...second]);
    expect(started).toEqual(['a0', 'b0', 'a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
  });

  it('never runs more than its concurrency at once', async () => {
    const queue = new FairQueue({ concurrency: 2, limit: 100, maxWaitMs: 10_000 });
    let running = 0;
    let most = 0;
    const task = () => async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 10));
      running -= 1;
    };
    await Promise.all(Array.from({ length: 10 }, (_, i) => queue.add(`c${i % 3}`, task())));
    expect(most).toBe(2);
    await queue.onIdle();
    expect([queue.size, queue.pending]).toEqual([0, 0]);
  });

  it('refuses past its limit, and a task that cannot start within the longest wait, with Retry-After', async () => {
    const queue = new FairQueue({ concurrency: 1, limit: 1, maxWaitMs: 50 });
    const { task } = recorder();
    const running = queue.add('a', task('long', 200));
    const waiting = queue.add('a', task('late'));
    await expect(queue.add('b', task('over'))).rejects.toBeInstanceOf(BusyError);
    const refused = await waiting.catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BusyError);
    expect((refused as BusyError).message).toMatch(/within 50 ms/);
    expect((refused as BusyError).retryAfterSeconds).toBe(1);
    await running;
  });

  it('takes a waiting task out of its line when its signal aborts, rejecting with the reason', async () => {
    const queue = new FairQueue({ concurrency: 1, limit: 10, maxWaitMs: 10_000 });
    const { started, task } = recorder();
    const running = queue.add('a', task('first', 50));
    const controller = new AbortController();
    const cancelled = queue.add('a', task('cancelled'), controller.signal);
    controller.abort(new Error('key revoked'));
    await expect(cancelled).rejects.toThrow('key revoked');
    expect(queue.size).toBe(0);
    await running;
    await queue.onIdle();
    expect(started).toEqual(['first']);
  });
});
