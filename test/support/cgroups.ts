import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { instanceCgroup } from '../../src/core/sandbox/container-cgroup.js';

/** The cgroup of a service instance in the memory hierarchy (cgroup v1, as on this machine). */
export function instanceCgroupDir(instance: string): string {
  return path.join('/sys/fs/cgroup/memory', instanceCgroup(instance));
}

/** The instance's cgroup in each hierarchy the service uses (memory, pids, and a v2 root) that exists now. */
export function instanceCgroupsLeft(instance: string): string[] {
  return ['/sys/fs/cgroup/memory', '/sys/fs/cgroup/pids', '/sys/fs/cgroup']
    .map((hierarchy) => path.join(hierarchy, instanceCgroup(instance)))
    .filter((dir) => existsSync(dir));
}

/** The cgroups the service keeps around its containers, one per container, sorted (none when the instance has none). */
export function containerCgroups(instance: string): string[] {
  const dir = instanceCgroupDir(instance);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? [entry.name] : []))
    .sort();
}
