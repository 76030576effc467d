/**
 * `npm run bench`: the same 10-case Python and JavaScript workloads through a bare harness process,
 * a naive `docker run --rm` runner, the container churn ceiling of each path, and this service with
 * each driver, all in one run. Prints a table, the ratios of issue 12's targets and where the CPU of
 * one execution goes, and writes them as JSON under bench/results/ (docs/performance.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import Docker from 'dockerode';
import { loadConfig } from '../src/config.js';
import { prepareExecution } from '../src/core/execute/prepare.js';
import type { ExecuteRequest } from '../src/core/request-schema.js';
import { pickOciRuntime } from '../src/core/sandbox/engine.js';
import { findExecutable } from '../src/core/sandbox/oci/runtime-cli.js';
import { runnerSettings } from '../src/service.js';
import { processCpu, sandboxCgroupCpuMs } from './cpu-counters.js';
import { runInTurns, runLoad, type LoadResult } from './load.js';
import { phaseLines, targetRatios, type Phases, type Row } from './report.js';
import { bareRequest } from './targets/bare.js';
import { churnRequest, naiveRequest } from './targets/naive.js';
import { ociChurnRequest, ociRootfsDir, startOciEngine } from './targets/oci.js';
import { startPostgres } from '../test/platform/support/servers.js';
import { buildService } from '../test/support/build-service.js';
import { serviceRequest, startServiceProcess } from './targets/service.js';
import { startTier } from './targets/tier.js';
import { NO_SANDBOX, WORKLOADS, type WorkloadName } from './workloads.js';

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 100);
// Paced concurrency 1: one request every 250 ms, below the engine's container churn rate, as a
// single user's requests arrive; back-to-back requests faster than the churn rate drain any pool.
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);
/**
 * BENCH_ONLY=group,group…: only those groups of rows (a few minutes instead of the whole table);
 * `hop` alone writes bench/results/hop, any other selection bench/results/partial.
 */
const GROUPS = ['bare', 'naive', 'churn', 'pool-off', 'pool', 'hop', 'oci', 'oci-churn', 'postgres', 'runsc', 'oci-runsc'] as const;
type Group = (typeof GROUPS)[number];
const only = process.env.BENCH_ONLY?.split(',').map((g) => g.trim());
const unknown = only?.filter((g) => !(GROUPS as readonly string[]).includes(g)) ?? [];
if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown group ${unknown.join(', ')} (groups: ${GROUPS.join(', ')})`);
const wants = (group: Group) => !only || only.includes(group);
const HOP_ONLY = only?.length === 1 && only[0] === 'hop';
const config = loadConfig();
const settings = runnerSettings(config);
const docker = new Docker({ socketPath: config.DOCKER_SOCKET });
const runtime = await pickOciRuntime(docker, config.SANDBOX_RUNTIME);
const runtimes = Object.keys(((await docker.info()) as { Runtimes?: object }).Runtimes ?? {});
const withRunsc = process.env.BENCH_SKIP_RUNSC !== '1';
// The images `npm run images` unpacked: every oci-driver service of the run starts on them instead of unpacking its own.
const rootfsDir = ociRootfsDir(config.DATA_DIR, config.SANDBOX_ROOTFS_DIR);
await buildService();

type Level = 1 | 'paced' | 4 | 8;
const rows: Row[] = [];
const ratios: Record<string, string> = {};

/** What a row's processes have spent so far (the service's own, what it reaped, its sandboxes' cgroup); read around the c8 cell. */
type PhaseProbe = () => { selfMs: number; childrenMs: number; containersMs: number };
/** For rows whose processes the bench starts itself (bare harnesses, the oci churn): what it reaped, and the sandboxes of `instance`. */
const benchProbe =
  (instance?: string): PhaseProbe =>
  () => ({ selfMs: NaN, childrenMs: processCpu(process.pid).childrenMs, containersMs: instance ? sandboxCgroupCpuMs(instance) : NaN });

async function measure(
  target: string,
  workload: string,
  request: () => Promise<void>,
  levels: Level[] = [1, 4, 8],
  probe?: PhaseProbe,
): Promise<Row> {
  await runLoad(request, 5, 1); // warm-up
  const row: Row = { target, workload, c1: await runLoad(request, TOTAL, 1) };
  if (levels.includes('paced')) row.c1Paced = await runLoad(request, TOTAL, 1, PACE_MS);
  if (levels.includes(4)) row.c4 = await runLoad(request, TOTAL, 4);
  if (levels.includes(8)) {
    const before = probe?.();
    row.c8 = await runLoad(request, TOTAL, 8);
    const after = probe?.();
    if (before && after) {
      const answered = Math.max(1, row.c8.requests - row.c8.failures);
      const phases: Phases = {
        serviceMs: (after.selfMs - before.selfMs) / answered,
        reapedMs: (after.childrenMs - before.childrenMs) / answered,
        sandboxesMs: (after.containersMs - before.containersMs) / answered,
      };
      row.phases = phases;
    }
  }
  rows.push(row);
  process.stderr.write(`[bench] ${target} / ${workload} done\n`);
  return row;
}

const names: WorkloadName[] = ['python', 'javascript'];
for (const name of names) {
  const request = WORKLOADS[name] as unknown as ExecuteRequest;
  const prepared = prepareExecution(request, name, settings.stdoutCapBytes);
  if (prepared.kind !== 'run') throw new Error(`workload ${name} does not prepare`);
  const image = settings.images[prepared.interpreter];
  if (wants('bare'))
    await measure('bare process (no isolation)', name, bareRequest(prepared.interpreter, prepared.job, 10), [1, 4, 8], benchProbe());
  if (wants('naive'))
    await measure(`naive docker run --rm (${runtime})`, name, naiveRequest(image, runtime, settings.limits, prepared.job, 10));
}
if (wants('churn'))
  await measure(`container churn ceiling (${runtime})`, 'none', churnRequest(docker, settings.images.python, runtime, settings.limits));

/** The churn ceiling of the oci path: the driver's own engine, bundle config and runtime, running `true`. */
async function ociChurnRow(choice: 'auto' | 'runsc', label: string): Promise<void> {
  const oci = await startOciEngine(docker, settings.images, settings.limits, choice, rootfsDir);
  try {
    await measure(label, 'none', ociChurnRequest(oci.engine), [1, 4, 8], benchProbe(oci.instance));
  } finally {
    await oci.stop();
  }
}

/**
 * The service's rows, both workloads; the c8 cell of each also records where the service's CPU
 * went: its own process, the processes it started and reaped (the OCI runtime and, under it, the
 * sandboxes), and what the sandboxes' cgroup counted (the oci driver's; Docker's sandboxes are not
 * the service's children, so with the docker driver both are about nil).
 */
async function serviceRows(label: string, env: Record<string, string>, port: number, levels: Level[] = [1, 'paced', 4, 8]) {
  const service = await startServiceProcess(port, env);
  const pid = service.child.pid;
  const probe: PhaseProbe | undefined =
    pid === undefined ? undefined : () => ({ ...processCpu(pid), containersMs: sandboxCgroupCpuMs(service.instance) });
  try {
    for (const name of names) {
      const row = await measure(label, name, serviceRequest(service.url, WORKLOADS[name], 10), levels, probe);
      row.peakRssMb = service.peakRssMb();
    }
  } finally {
    await service.stop();
  }
}
/**
 * The single node and the tier on one workload: paced c1 in turns (the added latency), back-to-back
 * c1, and c8 four times in the order single, hop, hop, single (the throughput ratio, with a drift of
 * the shared machine during the cells cancelled out to first order).
 */
async function compareHop(
  labels: [string, string],
  workload: string,
  direct: () => Promise<void>,
  hop: () => Promise<void>,
  paceMs: number,
) {
  await runLoad(direct, 5, 1);
  await runLoad(hop, 5, 1);
  const turns = await runInTurns(direct, hop, TOTAL, paceMs);
  const c1 = [await runLoad(direct, TOTAL, 1), await runLoad(hop, TOTAL, 1)];
  const c8: [LoadResult[], LoadResult[]] = [[], []];
  for (const k of [0, 1, 1, 0]) c8[k].push(await runLoad([direct, hop][k], TOTAL, 8));
  const merged = (cells: LoadResult[]): LoadResult => ({
    ...cells[0],
    requests: cells.length * TOTAL,
    perSecond: cells.reduce((sum, r) => sum + r.perSecond, 0) / cells.length,
    p95Ms: Math.max(...cells.map((r) => r.p95Ms)),
    cpuMsPerRequest: cells.reduce((sum, r) => sum + r.cpuMsPerRequest, 0) / cells.length,
    failures: cells.reduce((sum, r) => sum + r.failures, 0),
  });
  const [singleRow, hopRow] = [0, 1].map((k): Row => ({
    target: labels[k],
    workload,
    c1: c1[k],
    c1Paced: [turns.a, turns.b][k],
    c8: merged(c8[k]),
  }));
  rows.push(singleRow, hopRow);
  process.stderr.write(`[bench] hop / ${workload} done\n`);
  ratios[`${workload}: hop added median latency, paced c1 in turns (ms)`] = (turns.b.medianMs - turns.a.medianMs).toFixed(2);
  ratios[`${workload}: hop c1 median - single c1 median, back to back (ms)`] = (c1[1].medianMs - c1[0].medianMs).toFixed(1);
  ratios[`${workload}: hop c8 req/s / single c8 req/s (2 cells each, single-hop-hop-single)`] = (
    (hopRow.c8?.perSecond ?? 0) / (singleRow.c8?.perSecond ?? 1)
  ).toFixed(3);
  return [singleRow, hopRow];
}

/** What the api → runner hop costs: the single node and the tier (a runner node and an api node) side by side, in the same run. */
async function hopRows(): Promise<void> {
  const env = { POOL_ENABLED: 'true', SANDBOX_RUNTIME: runtime };
  const single = await startServiceProcess(18188, env);
  const tier = await startTier(18186, env);
  try {
    for (const name of names) {
      const [singleRow, hopRow] = await compareHop(
        [`service, pool on (${runtime}), beside the tier`, `api → runner hop, pool on (${runtime})`],
        name,
        serviceRequest(single.url, WORKLOADS[name], 10),
        serviceRequest(tier.url, WORKLOADS[name], 10),
        PACE_MS,
      );
      singleRow.peakRssMb = single.peakRssMb();
      hopRow.peakRssMb = tier.api.peakRssMb() + tier.runner.peakRssMb();
    }
    ratios['hop peak RSS, api + runner (MB)'] = `${tier.api.peakRssMb().toFixed(0)} + ${tier.runner.peakRssMb().toFixed(0)}`;
    // the HTTP path alone (no sandbox): the hop's own cost, without the containers' noise around it
    await compareHop(
      ['service, beside the tier', 'api → runner hop'],
      'no sandbox',
      serviceRequest(single.url, NO_SANDBOX, 10, false),
      serviceRequest(tier.url, NO_SANDBOX, 10, false),
      20,
    );
  } finally {
    await tier.stop();
    await single.stop();
  }
}
const ociEnv = (ociRuntime: string) => ({
  POOL_ENABLED: 'true',
  SANDBOX_DRIVER: 'oci',
  SANDBOX_RUNTIME: ociRuntime,
  SANDBOX_ROOTFS_DIR: rootfsDir,
});
if (wants('pool-off')) await serviceRows(`service, pool off (${runtime})`, { POOL_ENABLED: 'false', SANDBOX_RUNTIME: runtime }, 18181);
if (wants('pool')) await serviceRows(`service, pool on (${runtime})`, { POOL_ENABLED: 'true', SANDBOX_RUNTIME: runtime }, 18182);
if (wants('hop')) await hopRows();
// The oci driver: the same service, each sandbox started by crun itself from the unpacked image, no daemon per request.
if (wants('oci-churn')) await ociChurnRow('auto', 'oci churn ceiling (crun)');
if (wants('oci')) await serviceRows('service, pool on, oci driver (crun)', ociEnv('auto'), 18185);
if (wants('postgres')) {
  // The same service with its platform data in a PostgreSQL server (DATABASE_URL) instead of the
  // embedded PGlite: what the runner itself costs in RSS, without the embedded database's WebAssembly.
  const postgres = await startPostgres();
  try {
    await serviceRows(
      `service, pool on (${runtime}), external PostgreSQL`,
      { POOL_ENABLED: 'true', SANDBOX_RUNTIME: runtime, DATABASE_URL: await postgres.createDatabase() },
      18184,
    );
  } finally {
    await postgres.stop();
  }
}
if (withRunsc && wants('runsc') && runtimes.includes('runsc')) {
  await measure('container churn ceiling (runsc)', 'none', churnRequest(docker, settings.images.python, 'runsc', settings.limits));
  await serviceRows('service, pool on (runsc)', { POOL_ENABLED: 'true', SANDBOX_RUNTIME: 'runsc' }, 18183);
}
// gVisor started by runsc itself from the same bundles, beside the Docker runsc rows.
if (withRunsc && wants('oci-runsc') && findExecutable('runsc')) {
  await ociChurnRow('runsc', 'oci churn ceiling (runsc)');
  await serviceRows('service, pool on, oci driver (runsc)', ociEnv('runsc'), 18187);
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));
const lines = [
  '| target | workload | c1 median ms | c1 p95 ms | c1 paced median ms | c4 req/s | c4 p95 ms | c8 req/s | c8 p95 ms | c8 CPU ms/req | peak RSS MB |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    (r) =>
      `| ${r.target} | ${r.workload} | ${fmt(r.c1.medianMs, 1)} | ${fmt(r.c1.p95Ms, 1)} | ${fmt(r.c1Paced?.medianMs, 1)} | ${fmt(r.c4?.perSecond, 1)} | ${fmt(r.c4?.p95Ms)} | ${fmt(r.c8?.perSecond, 1)} | ${fmt(r.c8?.p95Ms)} | ${fmt(r.c8?.cpuMsPerRequest)} | ${fmt(r.peakRssMb)} |`,
  ),
];
Object.assign(ratios, targetRatios(rows, names, runtime));
const failures = rows.reduce(
  (sum, r) => sum + r.c1.failures + (r.c1Paced?.failures ?? 0) + (r.c4?.failures ?? 0) + (r.c8?.failures ?? 0),
  0,
);
const cores = os.cpus().length;
const machine = `${cores} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, runtime ${runtime}`;
const table = [
  `Machine: ${machine}`,
  `Requests per cell: ${TOTAL}; paced c1: one request every ${PACE_MS} ms; failed requests: ${failures}`,
  `Load (1, 5, 15 min) at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
  '',
  ...lines,
  '',
  ...Object.entries(ratios).map(([k, v]) => `- ${k}: ${v}`),
  '',
  ...phaseLines(rows, cores),
].join('\n');
process.stdout.write(`${table}\n`);

mkdirSync('bench/results', { recursive: true });
const record = { date: new Date().toISOString(), machine, requestsPerCell: TOTAL, runtime, only, rows, ratios, failures };
// a partial run does not replace the whole table
const file = !only ? 'bench/results/latest' : HOP_ONLY ? 'bench/results/hop' : 'bench/results/partial';
writeFileSync(`${file}.json`, `${JSON.stringify(record, null, 2)}\n`);
writeFileSync(`${file}.md`, `${table}\n`);
