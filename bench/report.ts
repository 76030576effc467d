import type { LoadResult } from './load.js';

/**
 * CPU per answered request in a row's c8 cell, in ms, from per-process accounting (bench/cpu-counters.ts),
 * which other work on a shared machine does not inflate as it does the machine-wide figure.
 */
export interface Phases {
  /** The service's own process (NaN for rows without a service). */
  serviceMs: number;
  /**
   * The processes the service (or, for the bare and oci churn rows, the bench itself) started and
   * reaped: the OCI runtime and, under it, the sandboxes; or the bare harness processes.
   */
  reapedMs: number;
  /** What the oci driver's sandbox cgroup counted: the harness and the code it ran (NaN with the docker driver). */
  sandboxesMs: number;
}

export interface Row {
  target: string;
  workload: string;
  c1: LoadResult;
  c1Paced?: LoadResult;
  c4?: LoadResult;
  c8?: LoadResult;
  peakRssMb?: number;
  phases?: Phases;
}

const ratio = (a: number | undefined, b: number | undefined, digits = 2) =>
  a === undefined || b === undefined || !(b > 0) ? '-' : (a / b).toFixed(digits);

/** Issue 12's ratios, from whichever rows the run has (a partial run has some of them). */
export function targetRatios(rows: Row[], workloads: string[], runtime: string): Record<string, string> {
  const find = (target: string, workload: string) => rows.find((r) => r.target === target && r.workload === workload);
  const ratios: Record<string, string> = {};
  const put = (key: string, value: string) => {
    if (value !== '-') ratios[key] = value;
  };
  for (const name of workloads) {
    const bare = find('bare process (no isolation)', name);
    const pool = find(`service, pool on (${runtime})`, name);
    const naive = find(`naive docker run --rm (${runtime})`, name);
    const churn = find(`container churn ceiling (${runtime})`, 'none');
    const oci = find('service, pool on, oci driver (crun)', name);
    const dockerRunsc = find('service, pool on (runsc)', name);
    const ociRunsc = find('service, pool on, oci driver (runsc)', name);
    put(`${name}: pool c1 median / bare c1 median`, ratio(pool?.c1.medianMs, bare?.c1.medianMs));
    put(`${name}: pool c1 paced median / bare c1 median`, ratio(pool?.c1Paced?.medianMs, bare?.c1.medianMs));
    put(`${name}: naive c1 median / pool c1 paced median`, ratio(naive?.c1.medianMs, pool?.c1Paced?.medianMs, 1));
    put(`${name}: naive c1 median / pool c1 median`, ratio(naive?.c1.medianMs, pool?.c1.medianMs, 1));
    put(`${name}: pool c8 req/s / churn c8 req/s`, ratio(pool?.c8?.perSecond, churn?.c8?.perSecond));
    put(`${name}: oci c8 req/s / bare c8 req/s (target ≥ 0.6)`, ratio(oci?.c8?.perSecond, bare?.c8?.perSecond));
    put(`${name}: oci c8 req/s / docker pool c8 req/s (target ≥ 4)`, ratio(oci?.c8?.perSecond, pool?.c8?.perSecond));
    put(`${name}: oci c1 median / bare c1 median (target ≤ 1.5)`, ratio(oci?.c1.medianMs, bare?.c1.medianMs));
    put(`${name}: oci c1 paced median / bare c1 median (target ≤ 1)`, ratio(oci?.c1Paced?.medianMs, bare?.c1.medianMs));
    put(`${name}: oci runsc c8 req/s / docker runsc c8 req/s (target ≥ 2)`, ratio(ociRunsc?.c8?.perSecond, dockerRunsc?.c8?.perSecond));
  }
  const churnPairs: Array<[string, string]> = [
    ['crun', runtime],
    ['runsc', 'runsc'],
  ];
  for (const [ociRuntime, dockerRuntime] of churnPairs) {
    const oci = find(`oci churn ceiling (${ociRuntime})`, 'none');
    const docker = find(`container churn ceiling (${dockerRuntime})`, 'none');
    put(
      `churn of true: oci (${ociRuntime}) c8 containers/s / docker (${dockerRuntime}) c8 containers/s`,
      ratio(oci?.c8?.perSecond, docker?.c8?.perSecond, 1),
    );
  }
  return ratios;
}

const fmt = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(1));
const orZero = (n: number) => (Number.isNaN(n) ? 0 : n);

/**
 * Where the CPU of one execution goes in each measured row's c8 cell (issue 12: "show the
 * measurement that proves where the time goes"). "runtime on the host" is what the reaped processes
 * spent outside the sandboxes' cgroup (the OCI runtime's own work, kernel work on its behalf
 * included); it is left out where the runtime's processes are not all reaped through the service
 * (runsc re-parents its sandbox and gofer). "accounted" is service + reaped (or the sandboxes' cgroup
 * where that is more) + load generator; the ceiling is what the machine's cores would run if an
 * execution cost that much and nothing else ran, shown only where the sandboxes are counted.
 */
export function phaseLines(rows: Row[], cores: number): string[] {
  const measured = rows.filter((r) => r.phases && r.c8);
  if (measured.length === 0) return [];
  const lines = [
    'Where the CPU of one execution goes (c8 cells, ms of CPU per execution). "machine" is every process and the kernel, and grows with',
    'whatever else runs on the machine; "rest" is machine minus accounted (kernel threads, interrupts, the Docker daemons, shims and',
    "containers with the docker driver, other processes); the columns between come from each process's own counters.",
    '',
    '| target | workload | machine | service process | reaped processes | inside the sandboxes | runtime on the host | load generator | accounted | rest | ceiling exec/s (accounted) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of measured) {
    const p = r.phases as Phases;
    const machine = r.c8?.cpuMsPerRequest ?? NaN;
    const client = r.c8?.clientCpuMsPerRequest ?? NaN;
    const runtimeOnHost = p.reapedMs - p.sandboxesMs;
    // runsc's sandbox is in the cgroup but not all reaped through the service: the larger is the lower bound
    const accounted = orZero(p.serviceMs) + Math.max(p.reapedMs, orZero(p.sandboxesMs)) + client;
    // with the docker driver the sandboxes are the daemons' children, outside every counted process
    const ceiling = r.target.startsWith('bare') || !Number.isNaN(p.sandboxesMs) ? (cores * 1000) / accounted : NaN;
    lines.push(
      `| ${r.target} | ${r.workload} | ${fmt(machine)} | ${fmt(p.serviceMs)} | ${fmt(p.reapedMs)} | ${fmt(p.sandboxesMs)} | ${fmt(runtimeOnHost >= 0 ? runtimeOnHost : NaN)} | ${fmt(client)} | ${fmt(accounted)} | ${fmt(machine - accounted)} | ${fmt(ceiling)} |`,
    );
  }
  return lines;
}
