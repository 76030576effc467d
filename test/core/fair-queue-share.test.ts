// A caller's share of the slots: one caller cannot hold every slot, so another never waits for a long job to end.
import { expect, it } from 'vitest';
import { FairQueue } from '../../src/core/fair-queue.js';

/** A task that records the callers running beside it when it starts, and ends when `release` is called. */
function gate() {
  const running: string[] = [];
  const seen: string[][] = [];
  const releases: Array<() => void> = [];
  const task = (name: string) => () =>
    new Promise<void>((resolve) => {
      running.push(name);
      seen.push([...running]);
      releases.push(() => {
        running.splice(running.indexOf(name), 1);
        resolve();
      });
    });
  return { running, seen, task, releaseAll: () => releases.splice(0).forEach((release) => release()) };
}

it('leaves a slot to the other callers: a flood of long tasks holds perCaller slots, a newcomer starts at once', async () => {
  const queue = new FairQueue({ concurrency: 4, limit: 100, maxWaitMs: 10_000, perCaller: 3 });
  const { running, task, releaseAll } = gate();
  const flood = Array.from({ length: 6 }, (_, i) => queue.add('attacker', task(`a${i}`)));
  await Promise.resolve();
  expect(running, 'the flood alone').toEqual(['a0', 'a1', 'a2']);
  expect([queue.pending, queue.size]).toEqual([3, 3]);

  const newcomer = queue.add('candidate', task('c0'));
  await Promise.resolve();
  expect(running, 'the newcomer beside the flood, without waiting for any of it').toEqual(['a0', 'a1', 'a2', 'c0']);

  while (running.length > 0) {
    releaseAll();
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all([...flood, newcomer]);
  await queue.onIdle();
});

it('without perCaller, one caller may use every slot', async () => {
  const queue = new FairQueue({ concurrency: 2, limit: 10, maxWaitMs: 10_000 });
  const { seen, task, releaseAll } = gate();
  const both = [queue.add('a', task('a0')), queue.add('a', task('a1'))];
  await Promise.resolve();
  expect(seen.at(-1)).toEqual(['a0', 'a1']);
  releaseAll();
  await Promise.all(both);
});
