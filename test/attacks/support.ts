/**
 * Shared helpers for the attack suite (test/attacks/*.test.ts).
 *
 * Every attack runs against the real service and the real Docker engine, once per OCI runtime
 * named in ATTACK_RUNTIMES (default "runc,runsc"). With ATTACK_DRIVER=oci the same attacks run
 * against the oci sandbox driver instead (the runtime binary started directly, no daemon; default
 * runtime "crun"): the services of every file, shutdown.test.ts's included, get SANDBOX_DRIVER=oci
 * and one shared folder of unpacked runner images. The suite runs the service with a 5 s
 * execution budget (EXECUTION_TIMEOUT_MS=5000) to keep CI short; the default 15 s path is
 * covered by test/api/execute-faults.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import type { Service } from '../../src/service.js';
import { ociLayout } from '../../src/core/sandbox/oci/oci-engine.js';
import { findExecutable, RuntimeCli } from '../../src/core/sandbox/oci/runtime-cli.js';
import {
  execute,
  leftoverContainers,
  parseExecuteReply,
  sendExecute,
  startTestService,
  type ExecuteReply,
  type RawExecuteReply,
} from '../support/service.js';
import { instanceCgroupsLeft } from '../support/cgroups.js';
import { hostProcessesWith } from '../support/host-processes.js';
import { eventually } from '../support/eventually.js';

/** The sandbox driver under attack: docker (the default) or oci. */
const DRIVER = process.env.ATTACK_DRIVER === 'oci' ? 'oci' : 'docker';
if (DRIVER === 'oci') {
  process.env.SANDBOX_DRIVER = 'oci';
  process.env.SANDBOX_ROOTFS_DIR ??= join(os.tmpdir(), 'code-runner-oci-rootfs');
}
export const RUNTIMES = (process.env.ATTACK_RUNTIMES ?? (DRIVER === 'oci' ? 'crun' : 'runc,runsc'))
  .split(',')
  .map((r) => r.trim())
  .filter(Boolean);
/**
 * An attack test starts when its file does and may then wait its turn for a slot (see takeSlot)
 * behind the other attacks of both vitest workers, and behind an attackBeside that takes them all:
 * a file of a dozen 5 s attacks waits longer than vitest's default 60 s. Timings are asserted
 * from when an attack holds its slot, so the wait only needs room.
 */
vi.setConfig({ testTimeout: 180_000 });

/** The execution budget the attack services run with. */
export const BUDGET_MS = 5_000;
/** Every attack must be answered within the budget plus one second. */
const ANSWER_WITHIN_MS = BUDGET_MS + 1_000;
/**
 * Attacks in flight at once on this machine, across test files (see takeSlot). One per core by
 * default: many attacks pin a CPU for the whole budget, and with more of them than cores the suite
 * would measure its own overload (normal executions time out waiting for a CPU) instead of the
 * attack; docs/security.md, "Noisy neighbours", has the numbers.
 */
const ATTACK_CONCURRENCY = Math.max(1, Number(process.env.ATTACK_CONCURRENCY ?? os.availableParallelism()));

export type AttackLanguage = 'python' | 'javascript';
interface TestCase {
  args: Record<string, unknown>;
  expected: unknown;
}
interface CaseResult {
  input: unknown;
  expected: unknown;
  actual: unknown;
  passed: boolean;
  runtime: string;
  stdout: string;
  error: string | null;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const marker = (prefix = 'pwned') => `${prefix}-${randomBytes(6).toString('hex')}`;
const oneCase: TestCase[] = [{ args: { x: 1 }, expected: 1 }];

/** The service of one describe block (one runtime). */
export interface AttackContext {
  readonly runtime: string;
  readonly service: Service;
}

/**
 * Starts one service for the enclosing describe block under `runtime`, and at the end checks that
 * nothing leaked: once the service has settled, the only containers with its label are the warm
 * pool's; after close, there are none at all.
 */
export function useAttackService(runtime: string, env: Record<string, string> = {}): AttackContext {
  let service: Service | undefined;
  const context: AttackContext = {
    runtime,
    get service(): Service {
      if (!service) throw new Error('the attack service is not running');
      return service;
    },
  };
  // Starting and closing a service start and remove containers (a gVisor start costs about a core
  // for half a second): done holding a slot, like an attack, so that no attack measured beside
  // its neighbours (attackBeside) shares the machine with them.
  beforeAll(async () => {
    service = await withSlots(1, () => startTestService({ SANDBOX_RUNTIME: runtime, EXECUTION_TIMEOUT_MS: String(BUDGET_MS), ...env }));
  });
  afterAll(async () => {
    if (!service) return;
    const open = service;
    await withSlots(1, async () => {
      try {
        await expectSettled(open);
      } finally {
        await open.close();
      }
    });
    // close() can resolve while pool containers that were still starting are being removed
    // (see shutdown.test.ts for the strict check); here a leak is one that never goes away.
    const closed = service;
    expect(await eventually(async () => (await leftovers(closed)) === 0, 10_000, 250), 'containers left after close').toBe(true);
  });
  return context;
}

interface SandboxInfo {
  Id: string;
  State: string;
}

/** The oci driver's containers of the service: those in its runtime's state directory. */
async function ociContainers(service: Service): Promise<SandboxInfo[]> {
  const { DATA_DIR, SANDBOX_INSTANCE, SANDBOX_ROOTFS_DIR, SANDBOX_RUNTIME } = service.config;
  const layout = ociLayout(DATA_DIR, SANDBOX_INSTANCE, SANDBOX_ROOTFS_DIR);
  const name = SANDBOX_RUNTIME === 'auto' ? 'crun' : SANDBOX_RUNTIME;
  const runtime = new RuntimeCli(name, findExecutable(name) ?? name, layout.state);
  return (await runtime.list()).map((c) => ({ Id: c.id, State: c.status }));
}

/** The service's sandbox containers that exist right now (any state), for either driver. */
export async function labelledContainers(service: Service): Promise<SandboxInfo[]> {
  if (service.config.SANDBOX_DRIVER === 'oci') return ociContainers(service);
  const docker = new Docker({ socketPath: service.config.DOCKER_SOCKET });
  return docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${service.config.SANDBOX_INSTANCE}`] } });
}

/**
 * What a closed service left: its containers, or for the oci driver (whose data folder, with the
 * runtime's state, is gone by then) the runtime processes that name that state directory, and under
 * either driver the instance's cgroups, which the service keeps around each container's.
 */
async function leftovers(service: Service): Promise<number> {
  const cgroups = instanceCgroupsLeft(service.config.SANDBOX_INSTANCE);
  if (service.config.SANDBOX_DRIVER !== 'oci') return (await leftoverContainers(service)) + cgroups.length;
  const { state } = ociLayout(service.config.DATA_DIR, service.config.SANDBOX_INSTANCE);
  return hostProcessesWith(state).length + cgroups.length;
}

/**
 * Waits (up to 20 s) until no execution is queued or running and every container with the
 * service's label is one of the warm pool's (ready or starting); fails naming what is left.
 */
async function expectSettled(service: Service): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const stats = service.runner.stats();
    const pools = Object.values(stats.pools);
    const pooled = pools.reduce((n, p) => n + p.ready + p.starting, 0);
    const busy = stats.queued + stats.running + pools.reduce((n, p) => n + p.inUse + p.waiting, 0);
    // `crun list` fails as a whole while one container's state is half written (a pool container
    // starting): that is not settled yet, and the next look sees it whole.
    const { containers, error } = await labelledContainers(service).then(
      (containers) => ({ containers, error: '' }),
      (error: unknown) => ({ containers: [] as SandboxInfo[], error: String(error) }),
    );
    const notRunning = containers.filter((c) => c.State !== 'running').map((c) => `${c.Id.slice(0, 12)} ${c.State}`);
    if (error) notRunning.push(error);
    if (busy === 0 && containers.length <= pooled && notRunning.length === 0) return;
    if (Date.now() > deadline) {
      expect({ busy, containers: containers.length, notRunning }, 'the service did not settle: leaked containers?').toEqual({
        busy: 0,
        containers: Math.min(containers.length, pooled),
        notRunning: [],
      });
    }
    await sleep(250);
  }
}

/** Waits (up to 5 s) until no execution runs and no pool container is starting or in use. */
async function poolRefilled(service: Service): Promise<void> {
  await eventually(
    () => {
      const stats = service.runner.stats();
      const pools = Object.values(stats.pools);
      return stats.queued + stats.running + pools.reduce((n, p) => n + p.starting + p.inUse + p.waiting, 0) === 0;
    },
    5_000,
    50,
  );
}

/**
 * A semaphore shared by every test process on this machine (vitest runs two files at a time, and
 * a developer may run the suite while CI does): a slot is a file created with O_EXCL. Timing is
 * measured from when an attack holds a slot, and the whole machine never has more than
 * ATTACK_CONCURRENCY attacks (each followed by its normal execution) in flight. A slot whose owner
 * died, or that is older than any attack can take, is taken over.
 */
const SLOT_DIR = join(os.tmpdir(), 'code-runner-attack-slots');
const STALE_SLOT_MS = 60_000;

function ownerAlive(path: string): boolean {
  try {
    if (Date.now() - statSync(path).mtimeMs > STALE_SLOT_MS) return false;
    const pid = Number(readFileSync(path, 'utf8'));
    if (!pid) return true; // being written right now
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function takeSlot(): Promise<() => void> {
  mkdirSync(SLOT_DIR, { recursive: true });
  for (;;) {
    for (let i = 0; i < ATTACK_CONCURRENCY; i += 1) {
      const path = join(SLOT_DIR, `slot-${i}`);
      try {
        writeFileSync(path, String(process.pid), { flag: 'wx' });
        return () => rmSync(path, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (!ownerAlive(path)) rmSync(path, { force: true });
      }
    }
    await sleep(25 + Math.random() * 50);
  }
}

/**
 * The gate a taker of more than one slot passes first: two of them each holding one slot and
 * waiting for the other's would wait for each other until the slots went stale. Single-slot takers
 * never wait while holding a slot, so they need no gate.
 */
async function takeGate(): Promise<() => void> {
  mkdirSync(SLOT_DIR, { recursive: true });
  const path = join(SLOT_DIR, 'gate');
  for (;;) {
    try {
      writeFileSync(path, String(process.pid), { flag: 'wx' });
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!ownerAlive(path)) rmSync(path, { force: true });
    }
    await sleep(25 + Math.random() * 50);
  }
}

/** Whether an attack that takes every slot (attackBeside) holds the gate: it is waiting for them, or running. */
function besideWaiting(): boolean {
  try {
    statSync(join(SLOT_DIR, 'gate'));
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` holding `count` slots (for a test that puts several executions in flight at once). */
export async function withSlots<T>(count: number, work: () => Promise<T>): Promise<T> {
  const releases: Array<() => void> = [];
  const wanted = Math.min(count, ATTACK_CONCURRENCY);
  try {
    if (wanted > 1) releases.push(await takeGate());
    for (let i = 0; i < wanted; i += 1) releases.push(await takeSlot());
    return await work();
  } finally {
    for (const release of releases) release();
  }
}

export interface AttackOptions {
  /** Defaults to one case, `{ x: 1 }` expecting 1. */
  testCases?: TestCase[];
  /** Defaults to `f`, the entry point of every attack. */
  functionName?: string;
}

export interface AttackOutcome {
  reply: ExecuteReply;
  results: CaseResult[];
  elapsedMs: number;
  /** The longest event-loop stall of the service's process while the attack ran. */
  maxLoopDelayMs: number;
}

/**
 * Sends one hostile execution and checks the common promises: a well-formed answer (200 or 408),
 * within the budget plus one second, and a correct normal execution right after it.
 */
export async function attack(
  ctx: AttackContext,
  language: AttackLanguage | 'typescript',
  code: string,
  options: AttackOptions = {},
): Promise<AttackOutcome> {
  const { outcome } = await runAttack(ctx, language, code, options, false);
  return outcome;
}

/** What the neighbours of an attack saw (see attackBeside). */
export interface BesideFigures {
  /** The longest time a /healthz probe waited for its answer, from when it was due. */
  longestHealthWaitMs: number;
  probes: number;
  /** From sending the victim's execution to its answer. */
  victimMs: number;
}

/** The bounds of issue 13: no attack stalls /healthz for 100 ms or another caller's small execution for a second. */
const BESIDE_HEALTH_WAIT_MS = 100;
const BESIDE_VICTIM_MS = 1_000;
/**
 * A stall the attack causes comes back every time it runs; one the machine causes (the scheduler
 * giving the event loop's core to other work: a fresh-clone CI run measured 107 ms once, at a load
 * of 9.9, for a flood that stays at 20-75 ms otherwise) rarely twice in a row. An attack whose
 * neighbours waited past a bound is measured again, up to this many times in all, and fails only
 * when every attempt did; every attempt's figures are logged and named in the failure.
 */
const BESIDE_ATTEMPTS = 3;

/**
 * `attack`, with neighbours: a prober asks /healthz every 20 ms from when the attack is sent until
 * both it and the victim are answered, and a victim (a small correct Python execution) is sent one
 * second in. Asserts the prober's longest wait under 100 ms and the victim answered correctly
 * within a second (BESIDE_ATTEMPTS), besides everything `attack` asserts. It holds every attack
 * slot, so that no other attack of the suite shares the machine with it: what is measured is this
 * attack's effect. The figures are logged (one line, "beside: …") for docs/security.md.
 */
export async function attackBeside(
  ctx: AttackContext,
  language: AttackLanguage | 'typescript',
  code: string,
  options: AttackOptions = {},
): Promise<AttackOutcome & { beside: BesideFigures }> {
  const summaries: string[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const { outcome, beside } = await runAttack(ctx, language, code, options, true);
    if (!beside) throw new Error('no figures from beside the attack');
    const summary = `beside: ${ctx.runtime} ${language} attack answered ${outcome.reply.status} after ${outcome.elapsedMs} ms; longest /healthz wait ${beside.longestHealthWaitMs} ms over ${beside.probes} probes; victim ${beside.victimMs} ms; load ${os.loadavg()[0].toFixed(2)}${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
    console.log(summary);
    summaries.push(summary);
    const within = beside.longestHealthWaitMs < BESIDE_HEALTH_WAIT_MS && beside.victimMs < BESIDE_VICTIM_MS;
    if (within || attempt === BESIDE_ATTEMPTS) {
      expect(beside.longestHealthWaitMs, summaries.join('\n')).toBeLessThan(BESIDE_HEALTH_WAIT_MS);
      expect(beside.victimMs, summaries.join('\n')).toBeLessThan(BESIDE_VICTIM_MS);
      return { ...outcome, beside };
    }
  }
}

async function runAttack(
  ctx: AttackContext,
  language: AttackLanguage | 'typescript',
  code: string,
  options: AttackOptions,
  withNeighbours: boolean,
): Promise<{ outcome: AttackOutcome; beside?: BesideFigures }> {
  const testCases = options.testCases ?? oneCase;
  const body = { language, code, testCases, functionName: options.functionName ?? 'f' };
  const measured = await withSlots(withNeighbours ? ATTACK_CONCURRENCY : 1, async () => {
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
    if (withNeighbours) await poolRefilled(ctx.service);
    const prober = withNeighbours ? startProber(ctx.service) : undefined;
    let raw: RawExecuteReply;
    let elapsedMs: number;
    let victimReply: VictimReply | undefined;
    let probed: { longestWaitMs: number; probes: number } | undefined;
    try {
      const started = Date.now();
      const victim = withNeighbours ? sendVictim(ctx.service, 1_000) : undefined;
      raw = await sendExecute(ctx.service, body);
      elapsedMs = Date.now() - started;
      victimReply = await victim;
    } finally {
      // a failed attack must not leave the prober running
      probed = await prober?.stop();
      histogram.disable();
    }
    // Decoded once the service is no longer measured: the attacker's client parsing a 4 MB answer
    // (20-40 ms) runs on this process's one thread, which the service shares here and never would
    // with a client elsewhere.
    const reply = parseExecuteReply(raw);
    // the normal execution right after the attack, still inside the slot
    const health = await checkHealth(ctx, language === 'typescript' ? 'javascript' : language);
    // The pool's refills (of the attack's container and the normal one's) are part of this
    // attack's cost. When an attack measured beside its neighbours is waiting for the slots, they
    // are waited for inside the slot, so that they do not land in its measurement; otherwise the
    // slot goes at once (waiting every time would lengthen the suite by a gVisor start per attack).
    if (withNeighbours || besideWaiting()) await poolRefilled(ctx.service);
    return { reply, elapsedMs, maxLoopDelayMs: Math.round(histogram.max / 1e6), health, victimReply, probed };
  });
  const { reply, elapsedMs, victimReply, probed } = measured;
  expect([200, 408], `status ${reply.status}: ${JSON.stringify(reply.body).slice(0, 500)}`).toContain(reply.status);
  expect(elapsedMs, `answered after ${elapsedMs} ms`).toBeLessThanOrEqual(ANSWER_WITHIN_MS);
  const results = expectWellFormed(reply, testCases);
  expectHealthyReply(measured.health);
  const outcome = { reply, results, elapsedMs, maxLoopDelayMs: measured.maxLoopDelayMs };
  if (!victimReply || !probed) return { outcome };
  expectVictimAnswered(victimReply);
  return { outcome, beside: { longestHealthWaitMs: probed.longestWaitMs, probes: probed.probes, victimMs: victimReply.elapsedMs } };
}

interface Prober {
  /** Stops probing (after the probe in flight) and reports the longest wait and how many probes were answered. */
  stop(): Promise<{ longestWaitMs: number; probes: number }>;
}

/**
 * Asks `service`'s /healthz every `everyMs` (20 ms) until stopped. A probe's wait runs from when it
 * was due to its answer: the service runs in the test's process, so a stalled event loop also
 * delays the prober's own timer, and that delay is part of what a real client would have waited.
 */
function startProber(service: Service, everyMs = 20): Prober {
  let running = true;
  let longestWaitMs = 0;
  let probes = 0;
  let failure: unknown;
  const loop = (async () => {
    let due = performance.now();
    while (running) {
      const response = await fetch(`${service.url}/healthz`);
      await response.arrayBuffer();
      const answered = performance.now();
      if (!response.ok) throw new Error(`/healthz answered ${response.status}`);
      longestWaitMs = Math.max(longestWaitMs, answered - due);
      probes += 1;
      due += everyMs;
      if (due < answered) due = answered;
      await sleep(due - answered);
    }
  })().catch((error: unknown) => {
    // kept for stop(), so that a failed probe is not an unhandled rejection meanwhile
    failure = error;
  });
  return {
    async stop() {
      running = false;
      await loop;
      if (failure) throw failure;
      return { longestWaitMs: Math.round(longestWaitMs), probes };
    },
  };
}

/** The victim beside an attack: a small correct Python execution. */
export const VICTIM = {
  language: 'python',
  code: 'def add(a, b):\n    return a + b\n',
  testCases: [
    { args: { a: 1, b: 2 }, expected: 3 },
    { args: { a: 'x', b: 'y' }, expected: 'xy' },
  ],
} as const;

interface VictimReply {
  reply: ExecuteReply;
  /** From sending the victim to its answer. */
  elapsedMs: number;
}

/** Sends VICTIM to `service` after `afterMs`. */
async function sendVictim(service: Service, afterMs: number): Promise<VictimReply> {
  await sleep(afterMs);
  const sent = performance.now();
  const reply = await execute(service, VICTIM);
  return { reply, elapsedMs: Math.round(performance.now() - sent) };
}

/** The victim got 200 with both of its cases passing. */
function expectVictimAnswered({ reply }: VictimReply): void {
  expect(reply.status, `the victim: ${JSON.stringify(reply.body).slice(0, 300)}`).toBe(200);
  expect(reply.body.results?.map((r) => [r.passed, r.error])).toEqual([
    [true, null],
    [true, null],
  ]);
}

/** The shape every 200/408 answer has: one result per case, in order, each with one-line error or null. */
function expectWellFormed(reply: ExecuteReply, testCases: TestCase[]): CaseResult[] {
  const results = reply.body.results as CaseResult[] | undefined;
  expect(Array.isArray(results), 'results is an array').toBe(true);
  expect(results).toHaveLength(testCases.length);
  for (const [i, result] of (results ?? []).entries()) {
    expect(Object.keys(result).sort()).toEqual(['actual', 'error', 'expected', 'input', 'passed', 'runtime', 'stdout']);
    expect(result.input).toEqual(testCases[i].args);
    expect(result.expected).toEqual(testCases[i].expected);
    expect(typeof result.passed).toBe('boolean');
    expect(result.runtime).toMatch(/^\d+ms$/);
    expect(typeof result.stdout).toBe('string');
    expect(Buffer.byteLength(result.stdout)).toBeLessThanOrEqual(64 * 1024 + '\n...[truncated]'.length);
    if (result.error !== null) {
      expect(typeof result.error).toBe('string');
      expect(result.error.length).toBeGreaterThan(0);
      // one line for a terminal or a log too: no "\r", NEL or Unicode line or paragraph separator either
      expect(result.error).not.toMatch(/[\n\r\u0085\u2028\u2029]/);
      expect(result.passed).toBe(false);
    }
  }
  if (reply.status === 408) {
    expect(reply.body.error).toMatch(/timed out/);
    expect(results?.some((r) => r.error === 'timed out')).toBe(true);
  }
  return results ?? [];
}

const SANITY: Record<AttackLanguage, string> = {
  python: 'def add(a, b):\n    return a + b\n',
  javascript: 'function add(a, b) {\n  return a + b;\n}\n',
};
const SANITY_CASES: TestCase[] = [
  { args: { a: 1, b: 2 }, expected: 3 },
  { args: { a: 'x', b: 'y' }, expected: 'xy' },
];

interface HealthReply {
  language: AttackLanguage;
  reply: ExecuteReply;
  elapsedMs: number;
}

async function checkHealth(ctx: AttackContext, language: AttackLanguage): Promise<HealthReply> {
  const started = Date.now();
  const reply = await execute(ctx.service, { language, code: SANITY[language], testCases: SANITY_CASES });
  return { language, reply, elapsedMs: Date.now() - started };
}

function expectHealthyReply({ language, reply, elapsedMs }: HealthReply): void {
  expect(reply.status, `normal ${language} execution after an attack: ${JSON.stringify(reply.body).slice(0, 300)}`).toBe(200);
  expect(reply.body.results?.map((r) => [r.passed, r.error, r.stdout])).toEqual([
    [true, null, ''],
    [true, null, ''],
  ]);
  expect(elapsedMs, 'normal execution time').toBeLessThan(ANSWER_WITHIN_MS);
}

/** Polls the host for processes carrying `text` in their command line until `stop` resolves; whether any was seen. */
export async function watchHostProcesses(text: string, stop: Promise<unknown>): Promise<boolean> {
  let done = false;
  void stop
    .finally(() => {
      done = true;
    })
    .catch(() => undefined);
  let seen = false;
  while (!done && !seen) {
    seen = hostProcessesWith(text).length > 0;
    await sleep(50);
  }
  return seen;
}

/** The docker bridge's gateway address on the host (where containers on the default bridge reach it). */
export function dockerGateway(): string {
  const bridge = os.networkInterfaces().docker0?.find((a) => a.family === 'IPv4');
  return bridge?.address ?? '172.17.0.1';
}
