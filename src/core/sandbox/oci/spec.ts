import { hostPidsLimit, SANDBOX_UID, type SandboxLimits } from '../container-spec.js';
import type { OciSeccomp } from './seccomp.js';

/** What a sandbox takes from its runner image's config (`docker image inspect`, `.Config`). */
export interface ImageRuntimeConfig {
  env: string[];
  workingDir: string;
  entrypoint: string[];
  cmd: string[];
}

/**
 * The paths Docker 20.10 masks and makes read-only in every container (`HostConfig.MaskedPaths`
 * and `ReadonlyPaths` of a container it created on this host), so that both drivers show the
 * sandbox the same /proc and /sys.
 */
const MASKED_PATHS = [
  '/proc/asound',
  '/proc/acpi',
  '/proc/kcore',
  '/proc/keys',
  '/proc/latency_stats',
  '/proc/timer_list',
  '/proc/timer_stats',
  '/proc/sched_debug',
  '/proc/scsi',
  '/sys/firmware',
];
const READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];
const CPU_PERIOD_US = 100_000;
/** crun (1.8.1 here, crun(1)) installs this base64 BPF program as it is and does not compile linux.seccomp. */
export const SECCOMP_BPF_ANNOTATION = 'run.oci.seccomp_bpf_data';

export interface OciSpecInput {
  /** The unpacked image, mounted read-only as the root. */
  rootfs: string;
  image: ImageRuntimeConfig;
  limits: SandboxLimits;
  /** The runtime binary's name (crun, runc, runsc); runsc needs a different pids limit. */
  runtime: string;
  /** Extra environment on top of the image's (NODE_OPTIONS). */
  env: string[];
  /** The sandbox's cgroup, relative to the cgroup root of each hierarchy. */
  cgroupsPath: string;
  seccomp: OciSeccomp | undefined;
  /**
   * `seccomp` compiled by crun once, base64 (compiledSeccompFilter): crun loads it instead of compiling
   * the profile again. Only crun reads it; the seccomp section stays for every other runtime.
   */
  seccompBpf?: string;
}

interface Mount {
  destination: string;
  type: string;
  source: string;
  options: string[];
}

/** Later entries win, as with `docker run -e`: the image's, then HOME, then the sandbox's own. */
function mergeEnv(...lists: string[][]): string[] {
  const byName = new Map<string, string>();
  for (const entry of lists.flat()) byName.set(entry.split('=', 1)[0], entry);
  return [...byName.values()];
}

/**
 * The OCI runtime-spec config.json of one sandbox: the equivalent of `containerOptions` (the
 * docker driver's) for a runtime started directly. docs/security.md compares the two.
 */
export function ociSpec(input: OciSpecInput): Record<string, unknown> {
  const { limits } = input;
  const memory = limits.memoryMb * 1024 * 1024;
  const fsize = limits.fsizeMb * 1024 * 1024;
  const mounts: Mount[] = [
    { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    {
      destination: '/dev/pts',
      type: 'devpts',
      source: 'devpts',
      options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'],
    },
    { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
    {
      destination: '/tmp',
      type: 'tmpfs',
      source: 'tmpfs',
      options: ['rw', 'nosuid', 'nodev', 'noexec', `size=${limits.tmpfsMb}m`, 'mode=1777'],
    },
  ];
  const noCapabilities = { bounding: [], effective: [], inheritable: [], permitted: [], ambient: [] };
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: { uid: SANDBOX_UID, gid: SANDBOX_UID },
      args: [...input.image.entrypoint, ...input.image.cmd],
      env: mergeEnv(input.image.env, ['HOME=/tmp'], input.env),
      cwd: input.image.workingDir || '/tmp',
      capabilities: noCapabilities,
      rlimits: [
        { type: 'RLIMIT_NOFILE', hard: limits.nofile, soft: limits.nofile },
        { type: 'RLIMIT_FSIZE', hard: fsize, soft: fsize },
        { type: 'RLIMIT_CORE', hard: 0, soft: 0 },
      ],
      noNewPrivileges: true,
    },
    root: { path: input.rootfs, readonly: true },
    hostname: 'sandbox',
    ...(input.seccomp && input.seccompBpf && input.runtime === 'crun'
      ? { annotations: { [SECCOMP_BPF_ANNOTATION]: input.seccompBpf } }
      : {}),
    mounts,
    linux: {
      namespaces: [{ type: 'pid' }, { type: 'network' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }],
      cgroupsPath: input.cgroupsPath,
      resources: {
        devices: [{ allow: false, access: 'rwm' }],
        memory: { limit: memory, swap: memory, swappiness: 0 },
        pids: { limit: hostPidsLimit(input.runtime, limits.pids) },
        cpu: { quota: Math.round(limits.cpus * CPU_PERIOD_US), period: CPU_PERIOD_US },
      },
      maskedPaths: MASKED_PATHS,
      readonlyPaths: READONLY_PATHS,
      ...(input.seccomp ? { seccomp: input.seccomp } : {}),
    },
  };
}
