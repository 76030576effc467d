// The pool's bookkeeping with stand-in containers whose start and removal take real time, so
// that the races with close() are exercised deterministically (the Docker-backed behaviour is
// covered by test/attacks/shutdown.test.ts and test/faults).
import { describe, expect, it } from 'vitest';
import { ContainerBudget } from '../../src/core/sandbox/budget.js';
import { SandboxPool, type PoolOptions } from '../../src/core/sandbox/pool.js';
import type { Sandbox } from '../../src/core/sandbox/sandbox.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts containers that exist: from the start of creation until removal has finished. */
function fakeEngine(startMs: number, removeMs: number) {
  const engine = { live: 0, started: 0 };
  const start = async (): Promise<Sandbox> => {
    engine.live += 1;
    engine.started += 1;
    await sleep(startMs);
    let removed: Promise<void> | undefined;
    const sandbox = {
      createdAt: Date.now(),
      isAlive: true,
      ready: Promise.resolve('fake 1.0'),
      dispose: () =>
        (removed ??= sleep(removeMs).then(() => {
          engine.live -= 1;
        })),
    };
    return sandbox as unknown as Sandbox;
  };
  return { engine, start };
}

const options = (overrides: Partial<PoolOptions> = {}): PoolOptions => ({
  minIdle: 2,
  maxSize: 4,
  refillConcurrency: 2,
  maxAgeMs: 60_000,
  idleShrinkMs: 60_000,
  readyTimeoutMs: 5_000,
  ...overrides,
});

describe('SandboxPool', () => {
  it('fills to its idle size and hands each container out once', async () => {
    const { engine, start } = fakeEngine(5, 1);
    const pool = new SandboxPool(start, options(), new ContainerBudget(10));
    await sleep(40);
    expect(pool.stats.ready).toBe(2);
    const a = await pool.acquire();
    const b = await pool.acquire();
    expect(a).not.toBe(b);
    pool.retire(a);
    pool.retire(b);
    await pool.close();
    expect(engine.live).toBe(0);
  });

  it('close() resolves only after containers still starting have been removed', async () => {
    const { engine, start } = fakeEngine(50, 30);
    const pool = new SandboxPool(start, options(), new ContainerBudget(10));
    await sleep(5);
    expect(pool.stats.starting).toBeGreaterThan(0);
    await pool.close();
    expect(engine.started).toBeGreaterThan(0);
    expect(engine.live).toBe(0);
  });

  it('close() waits for retired containers whose removal is under way', async () => {
    const { engine, start } = fakeEngine(1, 50);
    const pool = new SandboxPool(start, options({ minIdle: 0 }), new ContainerBudget(10));
    const sandbox = await pool.acquire();
    pool.retire(sandbox);
    await pool.close();
    expect(engine.live).toBe(0);
  });

  it('rejects waiters on close and never exceeds the shared budget', async () => {
    const { engine, start } = fakeEngine(20, 1);
    const budget = new ContainerBudget(3);
    const pool = new SandboxPool(start, options({ minIdle: 0, maxSize: 8, refillConcurrency: 8 }), budget);
    const waiting = Array.from({ length: 6 }, () => pool.acquire());
    await sleep(1);
    expect(budget.used).toBe(3);
    const settled = Promise.allSettled(waiting);
    await sleep(60);
    await pool.close();
    const outcomes = await settled;
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(3);
    for (const o of outcomes) if (o.status === 'fulfilled') pool.retire(o.value);
    await sleep(10);
    expect(engine.live).toBe(0);
  });
});
