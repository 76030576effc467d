/**
 * `npm run bench`: the same 10-case Python and JavaScript workloads through a bare harness process,
 * a naive `docker run --rm` runner, the container churn ceiling, and this service with the pool
 * off and on, all in one run. Prints a table and writes it as JSON under bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import Docker from 'dockerode';
import { loadConfig } from '../src/config.js';
import { prepareExecution } from '../src/core/execute/prepare.js';
import type { ExecuteRequest } from '../src/core/request-schema.js';
import { pickOciRuntime } from '../src/core/sandbox/engine.js';
import { runnerSettings } from '../src/service.js';
import { runInTurns, runLoad, type LoadResult } from './load.js';
import { bareRequest } from './targets/bare.js';
import { churnRequest, naiveRequest } from './targets/naive.js';
import { startPostgres } from '../test/platform/support/servers.js';
import { buildService } from '../test/support/build-service.js';
import { serviceRequest, startServiceProcess } from './targets/service.js';
import { startTier } from './targets/tier.js';
import { NO_SANDBOX, WORKLOADS, type WorkloadName } from './workloads.js';

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 100);
// Paced concurrency 1: one request every 250 ms, below the engine's container churn rate, as a
// single user's requests arrive; back-to-back requests faster than the churn rate drain any pool.
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);
// BENCH_ONLY=hop: only the api → runner hop and the single node beside it (a few minutes instead of the whole table).
const HOP_ONLY = process.env.BENCH_ONLY === 'hop';
const config = loadConfig();
const settings = runnerSettings(config);
const docker = new Docker({ socketPath: config.DOCKER_SOCKET });
const runtime = await pickOciRuntime(docker, config.SANDBOX_RUNTIME);
const runtimes = Object.keys(((await docker.info()) as { Runtimes?: object }).Runtimes ?? {});
await buildService();

interface Row {
  target: string;
  workload: string;
  c1: LoadResult;
  c1Paced?: LoadResult;
  c4?: LoadResult;
  c8?: LoadResult;
  peakRssMb?: number;
}
type Level = 1 | 'paced' | 4 | 8;
const rows: Row[] = [];

async function measure(target: string, workload: string, request: () => Promise<void>, levels: Level[] = [1, 4, 8]): Promise<Row> {
  await runLoad(request, 5, 1); // warm-up
  const row: Row = { target, workload, c1: await runLoad(request, TOTAL, 1) };
  if (levels.includes('paced')) row.c1Paced = await runLoad(request, TOTAL, 1, PACE_MS);
  if (levels.includes(4)) row.c4 = await runLoad(request, TOTAL, 4);
  if (levels.includes(8)) row.c8 = await runLoad(request, TOTAL, 8);
  rows.push(row);
  process.stderr.write(`[bench] ${target} / ${workload} done\n`);
  return row;
}

const names: WorkloadName[] = ['python', 'javascript'];
for (const name of HOP_ONLY ? [] : names) {
  const request = WORKLOADS[name] as unknown as ExecuteRequest;
  const prepared = prepareExecution(request, name, settings.stdoutCapBytes);
  if (prepared.kind !== 'run') throw new Error(`workload ${name} does not prepare`);
  const image = settings.images[prepared.interpreter];
  await measure('bare process (no isolation)', name, bareRequest(prepared.interpreter, prepared.job, 10));
  await measure(`naive docker run --rm (${runtime})`, name, naiveRequest(image, runtime, settings.limits, prepared.job, 10));
}
if (!HOP_ONLY)
  await measure(`container churn ceiling (${runtime})`, 'none', churnRequest(docker, settings.images.python, runtime, settings.limits));

async function serviceRows(label: string, env: Record<string, string>, port: number, levels: Level[] = [1, 'paced', 4, 8]) {
  const service = await startServiceProcess(port, env);
  try {
    for (const name of names) {
      const row = await measure(label, name, serviceRequest(service.url, WORKLOADS[name], 10), levels);
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
const ratios: Record<string, string> = {};

if (!HOP_ONLY) {
  await serviceRows(`service, pool off (${runtime})`, { POOL_ENABLED: 'false', SANDBOX_RUNTIME: runtime }, 18181);
  await serviceRows(`service, pool on (${runtime})`, { POOL_ENABLED: 'true', SANDBOX_RUNTIME: runtime }, 18182);
}
await hopRows();
// The oci driver: the same service, each sandbox started by crun itself from the unpacked image, no daemon per request.
if (!HOP_ONLY) {
  await serviceRows('service, pool on, oci driver (crun)', { POOL_ENABLED: 'true', SANDBOX_DRIVER: 'oci', SANDBOX_RUNTIME: 'auto' }, 18185);
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
if (!HOP_ONLY && runtimes.includes('runsc') && process.env.BENCH_SKIP_RUNSC !== '1') {
  await measure('container churn ceiling (runsc)', 'none', churnRequest(docker, settings.images.python, 'runsc', settings.limits));
  await serviceRows('service, pool on (runsc)', { POOL_ENABLED: 'true', SANDBOX_RUNTIME: 'runsc' }, 18183);
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
const find = (prefix: string, workload: string) => rows.find((r) => r.target.startsWith(prefix) && r.workload === workload);
for (const name of names) {
  const bare = find('bare', name);
  const pool = find(`service, pool on (${runtime})`, name);
  const naive = find('naive', name);
  const churn = find(`container churn ceiling (${runtime})`, 'none');
  if (bare && pool && naive && churn) {
    ratios[`${name}: pool c1 median / bare c1 median`] = (pool.c1.medianMs / bare.c1.medianMs).toFixed(2);
    ratios[`${name}: pool c1 paced median / bare c1 median`] = ((pool.c1Paced?.medianMs ?? NaN) / bare.c1.medianMs).toFixed(2);
    ratios[`${name}: naive c1 median / pool c1 paced median`] = (naive.c1.medianMs / (pool.c1Paced?.medianMs ?? NaN)).toFixed(1);
    ratios[`${name}: naive c1 median / pool c1 median`] = (naive.c1.medianMs / pool.c1.medianMs).toFixed(1);
    ratios[`${name}: pool c8 req/s / churn c8 req/s`] = ((pool.c8?.perSecond ?? 0) / (churn.c8?.perSecond ?? 1)).toFixed(2);
    const oci = find('service, pool on, oci driver', name);
    if (oci) {
      ratios[`${name}: oci c8 req/s / bare c8 req/s`] = ((oci.c8?.perSecond ?? 0) / (bare.c8?.perSecond ?? 1)).toFixed(2);
      ratios[`${name}: oci c8 req/s / docker pool c8 req/s`] = ((oci.c8?.perSecond ?? 0) / (pool.c8?.perSecond ?? 1)).toFixed(2);
      ratios[`${name}: oci c1 median / bare c1 median`] = (oci.c1.medianMs / bare.c1.medianMs).toFixed(2);
      ratios[`${name}: oci c1 paced median / bare c1 median`] = ((oci.c1Paced?.medianMs ?? NaN) / bare.c1.medianMs).toFixed(2);
    }
  }
}
const failures = rows.reduce(
  (sum, r) => sum + r.c1.failures + (r.c1Paced?.failures ?? 0) + (r.c4?.failures ?? 0) + (r.c8?.failures ?? 0),
  0,
);
const machine = `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}, runtime ${runtime}`;
const table = [
  `Machine: ${machine}`,
  `Requests per cell: ${TOTAL}; paced c1: one request every ${PACE_MS} ms; failed requests: ${failures}`,
  '',
  ...lines,
  '',
  ...Object.entries(ratios).map(([k, v]) => `- ${k}: ${v}`),
].join('\n');
process.stdout.write(`${table}\n`);

mkdirSync('bench/results', { recursive: true });
const record = { date: new Date().toISOString(), machine, requestsPerCell: TOTAL, runtime, rows, ratios, failures };
// a hop-only run does not replace the whole table
const file = HOP_ONLY ? 'bench/results/hop' : 'bench/results/latest';
writeFileSync(`${file}.json`, `${JSON.stringify(record, null, 2)}\n`);
writeFileSync(`${file}.md`, `${table}\n`);
