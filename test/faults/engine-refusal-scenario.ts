import { expect, onTestFailed } from 'vitest';
import type { PoolStats } from '../../src/core/sandbox/pool.js';
import type { Service } from '../../src/service.js';
import { execute, startTestService, type ExecuteReply } from '../support/service.js';
import { eventually } from '../support/eventually.js';

/** How the engine is made to refuse: the Docker proxy or the runtime wrapper. */
export interface EngineFault {
  refuse(): void | Promise<void>;
  accept(): void | Promise<void>;
  /** Kill and removal requests refused so far. */
  refused(): { kill: number; remove: number };
  /** What the fault injector saw, for a failing test to print. */
  log(): string;
}

/** Short, so that the sweep's work is seen within a test; the default is 30 s (DEFAULT_SWEEP_INTERVAL_MS). */
export const SWEEP_INTERVAL_MS = 2_000;
const REFUSAL_MS = 10_000;
const TIMEOUT_MS = 8_000;
const MAX_CONTAINERS = 6;

/**
 * The service's settings for the scenario: six containers at most (the budget), an 8 s execution limit (the pools' ready timeout too),
 * one warm container per language, the short sweep interval, and warnings logged (the refused stages show up).
 */
function refusalEnv(): Record<string, string> {
  return {
    SANDBOX_MAX_CONTAINERS: String(MAX_CONTAINERS),
    CONCURRENCY: String(MAX_CONTAINERS),
    POOL_MIN_PYTHON: '1',
    POOL_MIN_NODE: '1',
    EXECUTION_TIMEOUT_MS: String(TIMEOUT_MS),
    SANDBOX_SWEEP_INTERVAL_MS: String(SWEEP_INTERVAL_MS),
    LOG_LEVEL: 'warn',
  };
}

const sleeper = (x: number) => ({
  language: 'python',
  code: 'import time\ndef f(x):\n    time.sleep(0.3)\n    return x\n',
  testCases: [{ args: { x }, expected: x }],
});
const loop = { language: 'python', code: 'def f(x):\n    while True:\n        pass\n', testCases: [{ args: { x: 1 }, expected: 1 }] };
const nodeJob = { language: 'javascript', code: 'function f(x) { return x * 2; }', testCases: [{ args: { x: 4 }, expected: 8 }] };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function sum(pools: Record<string, PoolStats>, pick: (stats: PoolStats) => number): number {
  return Object.values(pools).reduce((total, stats) => total + pick(stats), 0);
}

/** Every container the pools account for: ready, starting, in use, and stranded (refused removal). */
function accounted(service: Service): number {
  return sum(service.runner.stats().pools, (s) => s.ready + s.starting + s.inUse + s.stranded);
}

export interface RefusalFigures {
  /** From the end of the refusal until no container of the instance was left beyond the warm pool. */
  sweptMs: number;
  answersMs: number[];
}

/**
 * Refuses kill and remove for 10 s while a timed-out execution (its kill refused) and two correct ones
 * run; asserts their usual answers, that every container that exists is counted in the budget while
 * the engine refuses, that once it accepts the leftovers are removed within the sweep interval and the
 * budget is whole again (as many executions at once as it allows), and that the service still serves.
 */
export async function refusalScenario(
  service: Service,
  fault: EngineFault,
  containers: () => Promise<number>,
  /** How many of the three retired containers the refusal strands (the driver's own answer, see its test). */
  stranded: number,
  figures: RefusalFigures,
): Promise<void> {
  const report: string[] = [];
  onTestFailed(async () => {
    console.error(
      [
        `--- what the engine refusal test saw (service instance ${service.config.SANDBOX_INSTANCE})`,
        ...report,
        `pool stats now: ${JSON.stringify(service.runner.stats().pools)}`,
        `containers of the instance now: ${await containers().catch((error: Error) => error.message)}`,
        '--- fault injector log',
        fault.log(),
      ].join('\n'),
    );
  });
  const note = (line: string) => report.push(line);

  const warm = () => service.runner.stats().pools.python.ready >= 1 && service.runner.stats().pools.node.ready >= 1;
  expect(await eventually(warm, 60_000), 'the warm containers came up').toBe(true);
  await fault.refuse();
  const refusedAt = Date.now();
  const timed = async (body: object): Promise<ExecuteReply> => {
    const start = Date.now();
    const reply = await execute(service, body);
    figures.answersMs.push(Date.now() - start);
    note(`answer ${reply.status} after ${Date.now() - start} ms: ${JSON.stringify(reply.body).slice(0, 300)}`);
    return reply;
  };
  const [timedOut, python, node] = await Promise.all([timed(loop), timed(sleeper(7)), timed(nodeJob)]);
  expect(timedOut.status, 'the infinite loop is answered 408 though its kill is refused').toBe(408);
  expect(timedOut.body.results?.[0].error).toBe('timed out');
  expect(python.status).toBe(200);
  expect(python.body.results?.[0].passed).toBe(true);
  expect(node.status).toBe(200);
  expect(node.body.results?.[0].passed).toBe(true);

  // The retired containers that could not be removed are still there, and still in the budget.
  expect(
    await eventually(() => sum(service.runner.stats().pools, (s) => s.stranded) === stranded, 5_000),
    `${stranded} containers are held as stranded`,
  ).toBe(true);
  await eventually(() => sum(service.runner.stats().pools, (s) => s.starting) === 0, 10_000);
  const during = { exist: await containers(), counted: accounted(service) };
  note(
    `while refused: ${during.exist} containers exist, the pools count ${during.counted}; refused so far ${JSON.stringify(fault.refused())}`,
  );
  expect(during.counted, 'the budget counts every container that exists').toBe(during.exist);
  expect(during.counted).toBeLessThanOrEqual(MAX_CONTAINERS);
  expect(fault.refused().kill, 'the timed-out container was refused a kill').toBeGreaterThan(0);
  expect(fault.refused().remove).toBeGreaterThanOrEqual(stranded);

  await wait(Math.max(0, REFUSAL_MS - (Date.now() - refusedAt)));
  await fault.accept();
  const acceptedAt = Date.now();
  const warmOnly = async () => sum(service.runner.stats().pools, (s) => s.stranded) === 0 && (await containers()) === accounted(service);
  const swept = await eventually(warmOnly, SWEEP_INTERVAL_MS + 3_000);
  figures.sweptMs = Date.now() - acceptedAt;
  note(`swept ${swept} ${figures.sweptMs} ms after the engine accepted again`);
  expect(swept, `the leftovers were removed within the sweep interval (${SWEEP_INTERVAL_MS} ms) and a margin`).toBe(true);

  // The whole budget is usable again: as many executions at once as it has containers.
  const after = await Promise.all(Array.from({ length: MAX_CONTAINERS }, (_, i) => timed(sleeper(i))));
  expect(after.map((reply) => reply.status)).toEqual(Array(MAX_CONTAINERS).fill(200));
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
}

/** Starts the service for the scenario with the driver's settings on top. */
export function startRefusalService(env: Record<string, string>): Promise<Service> {
  return startTestService({ ...refusalEnv(), ...env });
}
