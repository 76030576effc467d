import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface LoadResult {
  requests: number;
  concurrency: number;
  medianMs: number;
  p95Ms: number;
  perSecond: number;
  failures: number;
  /** Busy CPU time of the whole machine (every process and the kernel) per answered request. */
  cpuMsPerRequest: number;
  /** CPU time of the load generator itself (this process) per answered request. */
  clientCpuMsPerRequest: number;
}

/** Jiffies (1/100 s, Linux's USER_HZ) the machine's CPUs have spent busy since boot: all but idle and iowait. */
function busyJiffies(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return user + nice + system + irq + softirq + steal;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/**
 * Runs `request` `total` times with `concurrency` in flight; a request that throws counts as a failure.
 * With `paceMs`, each worker starts its requests at least that far apart (an open, paced client).
 */
export async function runLoad(request: () => Promise<void>, total: number, concurrency: number, paceMs = 0): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const busyBefore = busyJiffies();
  const clientBefore = process.cpuUsage();
  const worker = async () => {
    while (next < total) {
      next += 1;
      const t0 = performance.now();
      try {
        await request();
        latencies.push(performance.now() - t0);
      } catch {
        failures += 1;
      }
      const wait = t0 + paceMs - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wallSeconds = (performance.now() - started) / 1000;
  const cpuMsPerRequest = ((busyJiffies() - busyBefore) * 10) / Math.max(1, latencies.length);
  const client = process.cpuUsage(clientBefore);
  const clientCpuMsPerRequest = (client.user + client.system) / 1000 / Math.max(1, latencies.length);
  latencies.sort((a, b) => a - b);
  return {
    requests: total,
    concurrency,
    medianMs: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    perSecond: latencies.length / wallSeconds,
    failures,
    cpuMsPerRequest,
    clientCpuMsPerRequest,
  };
}

/**
 * Sends `a` and `b` in turns, one request at a time, each starting `paceMs` after the one before,
 * in the order a b, b a, a b, …: both see the same moments of a shared machine, and neither always
 * follows the other (whose pool refill would then slow it). The difference of their medians is what
 * `b` adds, not drift between two runs.
 */
export async function runInTurns(
  a: () => Promise<void>,
  b: () => Promise<void>,
  total: number,
  paceMs: number,
): Promise<{ a: LoadResult; b: LoadResult }> {
  const latencies: [number[], number[]] = [[], []];
  let failures = 0;
  for (let i = 0; i < 2 * total; i += 1) {
    // a b b a a b b a …
    const k = (i + Math.floor((i + 1) / 2)) % 2;
    const t0 = performance.now();
    try {
      await [a, b][k]();
      latencies[k].push(performance.now() - t0);
    } catch {
      failures += 1;
    }
    const wait = t0 + paceMs - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const result = (values: number[]): LoadResult => {
    values.sort((x, y) => x - y);
    return {
      requests: total,
      concurrency: 1,
      medianMs: percentile(values, 50),
      p95Ms: percentile(values, 95),
      perSecond: NaN,
      failures,
      cpuMsPerRequest: NaN,
      clientCpuMsPerRequest: NaN,
    };
  };
  return { a: result(latencies[0]), b: result(latencies[1]) };
}
