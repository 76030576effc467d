import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, rmdir } from 'node:fs/promises';
import path from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
/** The runtime's own cgroup inside the service's one for each container. */
const RUNTIME_CGROUP = 'runtime';
/**
 * How close to its limit a container's peak memory must have come to call its SIGKILL an OOM kill
 * (cgroup v1): a charge that fails is at most a huge page (2 MiB), and the peak counts a little more
 * than the runtime's own cgroup did.
 */
const OOM_PEAK_SLACK_BYTES = 4 << 20;
/** A container's processes take a moment to exit after SIGKILL: how often, and how many times, removal is tried. */
const REMOVE_RETRY_MS = 20;
const REMOVE_ATTEMPTS = 50;

function isUnified(): boolean {
  return existsSync(path.join(CGROUP_ROOT, 'cgroup.controllers'));
}

/** The cgroup hierarchies a runtime may make a container's cgroup in (v1 controllers, or the v2 root). */
function cgroupHierarchies(): string[] {
  if (isUnified()) return [CGROUP_ROOT];
  return ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'hugetlb', 'systemd', 'unified'].map((c) =>
    path.join(CGROUP_ROOT, c),
  );
}

/**
 * Removes a cgroup directory and those under it, deepest first. rmdir refuses (EBUSY) a cgroup that
 * still holds a process, so a live container's is never removed; every refusal is left as it is.
 */
async function removeCgroupTree(dir: string): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory()) await removeCgroupTree(path.join(dir, entry.name));
  await rmdir(dir).catch(() => undefined);
}

/** The processes in a cgroup and those under it. */
async function processesIn(dir: string): Promise<number[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const own = await readFile(path.join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
  const nested = await Promise.all(entries.filter((entry) => entry.isDirectory()).map((entry) => processesIn(path.join(dir, entry.name))));
  return [...own.split('\n').filter(Boolean).map(Number), ...nested.flat()];
}

/** The cgroup (relative to each hierarchy's root) that holds every container of the instance, under either driver. */
export function instanceCgroup(instance: string): string {
  return `/code-runner-${instance}`;
}

/**
 * Whether this process sees the host's cgroup hierarchies and may make and remove cgroups in them:
 * root on the host, not a container (whose /sys/fs/cgroup is its own view, mounted read-only).
 */
export function canManageCgroups(): boolean {
  try {
    accessSync(isUnified() ? CGROUP_ROOT : path.join(CGROUP_ROOT, 'memory'), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Removes, in every hierarchy, the cgroups directly under `parent` (relative to the root) that `wanted` picks. */
export async function removeChildCgroups(parent: string, wanted: (name: string) => boolean): Promise<void> {
  for (const hierarchy of cgroupHierarchies()) {
    const dir = path.join(hierarchy, parent);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) if (entry.isDirectory() && wanted(entry.name)) await removeCgroupTree(path.join(dir, entry.name));
  }
}

/** Removes `parent` (relative to the root) and everything under it, in every hierarchy. */
export async function removeCgroups(parent: string): Promise<void> {
  for (const hierarchy of cgroupHierarchies()) await removeCgroupTree(path.join(hierarchy, parent));
}

/**
 * The service's own cgroup around one container's. The runtime makes its cgroup inside this one (the
 * oci driver names it `runtimePath`; the Docker engine makes `<path>/<container id>`) and removes it
 * as it reaps the container, before the service could read it; this one stays until the sandbox is
 * removed, and its counters, which include the runtime's, tell whether the container ran out of its
 * own memory, whatever happened elsewhere on the host meanwhile and whatever the engine heard of it.
 */
export class ContainerCgroup {
  constructor(
    /** Relative to the root of each hierarchy: `/code-runner-<instance>/<name>`. */
    readonly path: string,
    private readonly memoryLimitBytes: number,
  ) {}

  /** Its own directory's name, under the instance's cgroup. */
  get name(): string {
    return path.basename(this.path);
  }

  /** The cgroupsPath of the container's spec. */
  get runtimePath(): string {
    return `${this.path}/${RUNTIME_CGROUP}`;
  }

  /** v2: the kernel counted an OOM kill here (memory.events is hierarchical); v1: the peak reached the limit. */
  reachedMemoryLimit(): boolean {
    try {
      if (isUnified()) {
        const events = readFileSync(path.join(CGROUP_ROOT, this.path, 'memory.events'), 'utf8');
        return Number(/^oom_kill (\d+)$/m.exec(events)?.[1] ?? 0) > 0;
      }
      // v1 does not carry the runtime cgroup's oom_kill up to this one, but the peak (a watermark kept
      // at every level of the hierarchy) is here.
      const peak = Number(readFileSync(path.join(CGROUP_ROOT, 'memory', this.path, 'memory.max_usage_in_bytes'), 'utf8'));
      return peak >= this.memoryLimitBytes - OOM_PEAK_SLACK_BYTES;
    } catch {
      return false;
    }
  }

  /**
   * Removes this cgroup once the engine has removed the container's own inside it: one `rmdir` per
   * hierarchy, where `remove` reads every level first (a cost per execution that the Docker driver,
   * whose engine never leaves the container's cgroup behind once it removed the container, need not pay).
   * Anything still under it is left to `remove`.
   */
  async removeEmpty(): Promise<void> {
    const removed = await Promise.all(
      cgroupHierarchies().map((hierarchy) =>
        rmdir(path.join(hierarchy, this.path)).then(
          () => true,
          (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
        ),
      ),
    );
    if (removed.includes(false)) await this.remove();
  }

  /**
   * Removes this cgroup and the runtime's, which a runtime killed before its cleanup leaves, with
   * what is still in it: a process the runtime forked before it was killed, whose state it never
   * wrote, so that `delete` knew nothing of it. Whatever stays is left to the engine's sweep.
   */
  async remove(): Promise<void> {
    const dirs = cgroupHierarchies().map((hierarchy) => path.join(hierarchy, this.path));
    for (let attempt = 0; attempt < REMOVE_ATTEMPTS; attempt += 1) {
      const pids = new Set((await Promise.all(dirs.map(processesIn))).flat());
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await removeCgroups(this.path);
      if (!dirs.some((dir) => existsSync(dir))) return;
      await new Promise((resolve) => setTimeout(resolve, REMOVE_RETRY_MS));
    }
  }
}
