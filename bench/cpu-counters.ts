import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { instanceCgroup } from '../src/core/sandbox/container-cgroup.js';

/** Linux's USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s. */
const TICK_MS = 10;

/** CPU time of one process, and of its children it has reaped (each child's own reaped children included), in ms. */
export interface ProcessCpu {
  selfMs: number;
  childrenMs: number;
}

/** utime+stime and cutime+cstime of `pid` (fields 14 to 17 of /proc/<pid>/stat). */
export function processCpu(pid: number): ProcessCpu {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the fields after the command name, which may hold spaces and parentheses itself
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const [utime, stime, cutime, cstime] = fields.slice(11, 15);
  return { selfMs: (utime + stime) * TICK_MS, childrenMs: (cutime + cstime) * TICK_MS };
}

/**
 * CPU time (user and system) charged so far to the cgroup that holds every sandbox of an oci-driver
 * instance (`/code-runner-<instance>`, the parent of each container's cgroup): the kernel keeps a
 * removed child's usage in its parent, so the difference across a cell is what ran inside the
 * containers during it. NaN when the cgroup is not there.
 */
export function sandboxCgroupCpuMs(instance: string): number {
  const name = instanceCgroup(instance);
  const v1 = path.join('/sys/fs/cgroup/cpuacct', name, 'cpuacct.usage');
  if (existsSync(v1)) return Number(readFileSync(v1, 'utf8').trim()) / 1e6;
  const v2 = path.join('/sys/fs/cgroup', name, 'cpu.stat');
  if (existsSync(v2)) {
    const match = /^usage_usec (\d+)$/m.exec(readFileSync(v2, 'utf8'));
    if (match) return Number(match[1]) / 1e3;
  }
  return NaN;
}
