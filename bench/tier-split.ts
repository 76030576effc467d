/**
 * Where the CPU and memory of a split deployment go (docs/scaling.md, "Capacity model"): an api node
 * in front of a runner node, as their own processes, under the bench workload at concurrency 8. Reads
 * each node's CPU time from /proc before and after, the warm sandboxes' memory from their cgroups
 * (docker stats), and the engine's resident memory. `npm run bench:split`; prints one Markdown table.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildService } from '../test/support/build-service.js';
import { processCpu } from './cpu-counters.js';
import { runLoad } from './load.js';
import { serviceRequest } from './targets/service.js';
import { startTier } from './targets/tier.js';
import { WORKLOADS, type WorkloadName } from './workloads.js';

const REQUESTS = 200;

function rssMb(name: string): number {
  const pids = execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  const kb = pids.reduce((sum, pid) => sum + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0), 0);
  return kb / 1024;
}

/** Memory of each running sandbox of an instance, as its cgroup counts it (docker stats), in MB. */
function sandboxMemoryMb(instance: string): number[] {
  const ids = execFileSync('docker', ['ps', '-q', '--filter', `label=code-runner.sandbox=${instance}`], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean);
  if (ids.length === 0) return [];
  const lines = execFileSync('docker', ['stats', '--no-stream', '--format', '{{.MemUsage}}', ...ids], { encoding: 'utf8' })
    .trim()
    .split('\n');
  return lines.map((line) => {
    const [amount, unit] = /^([\d.]+)\s*([KMG]i?B)/.exec(line)!.slice(1);
    return Number(amount) * ({ KiB: 1 / 1024, MiB: 1, GiB: 1024 } as Record<string, number>)[unit]!;
  });
}

await buildService();
const port = 19_400;
const rows: string[] = [];
for (const name of Object.keys(WORKLOADS) as WorkloadName[]) {
  const tier = await startTier(port, { POOL_MIN_PYTHON: '2', POOL_MIN_NODE: '2' });
  try {
    const warm = sandboxMemoryMb(`bench-${port}`);
    const before = { api: processCpu(tier.api.child.pid!).selfMs, runner: processCpu(tier.runner.child.pid!).selfMs };
    let engine = rssMb('dockerd') + rssMb('containerd');
    const sampler = setInterval(() => (engine = Math.max(engine, rssMb('dockerd') + rssMb('containerd'))), 200);
    const load = await runLoad(serviceRequest(tier.url, WORKLOADS[name], WORKLOADS[name].testCases.length), REQUESTS, 8);
    if (load.failures > 0) throw new Error(`${load.failures} of ${REQUESTS} ${name} executions failed`);
    clearInterval(sampler);
    const api = (processCpu(tier.api.child.pid!).selfMs - before.api) / REQUESTS;
    const runner = (processCpu(tier.runner.child.pid!).selfMs - before.runner) / REQUESTS;
    rows.push(
      `| ${name} | ${api.toFixed(1)} | ${(1000 / api).toFixed(0)} | ${runner.toFixed(1)} | ${load.perSecond.toFixed(1)} | ${load.cpuMsPerRequest.toFixed(0)} | ` +
        `${warm.map((mb) => mb.toFixed(1)).join(', ')} | ${engine.toFixed(0)} | ${tier.api.peakRssMb().toFixed(0)} / ${tier.runner.peakRssMb().toFixed(0)} |`,
    );
  } finally {
    await tier.stop();
  }
  await sleep(1_000);
}
console.log(
  [
    `${REQUESTS} requests per workload at concurrency 8, an api node in front of a runner node (docker driver, default runtime)`,
    '',
    '| workload | api node CPU ms/exec | executions/s per api core | runner node process CPU ms/exec | req/s | machine CPU ms/exec | warm sandboxes MB (idle) | dockerd + containerd peak RSS MB | peak RSS MB api / runner |',
    '|---|---:|---:|---:|---:|---:|---|---:|---|',
    ...rows,
  ].join('\n'),
);
