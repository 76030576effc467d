import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { instanceCgroup } from '../../src/core/sandbox/container-cgroup.js';

/** The cgroup of a service instance in the memory hierarchy (cgroup v1, as on this machine). */
export function instanceCgroupDir(instance: string): string {
  return path.join('/sys/fs/cgroup/memory', instanceCgroup(instance));
}

/** The cgroups the service keeps around its containers, one per container, sorted (none when the instance has none). */
export function containerCgroups(instance: string): string[] {
  const dir = instanceCgroupDir(instance);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? [entry.name] : []))
    .sort();
}
