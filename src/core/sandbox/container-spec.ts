import type Docker from 'dockerode';
import type { Interpreter } from '../languages.js';

/** The isolation settings every sandbox container gets (docs/security.md explains each one). */
export interface SandboxLimits {
  memoryMb: number;
  cpus: number;
  pids: number;
  tmpfsMb: number;
  nofile: number;
  fsizeMb: number;
}

export const SANDBOX_LABEL = 'code-runner.sandbox';
/** The unprivileged uid (and gid) the harness runs as; no such user exists on the host. */
export const SANDBOX_UID = 10001;
const SANDBOX_USER = `${SANDBOX_UID}:${SANDBOX_UID}`;

/**
 * The environment both drivers add to a harness's container: Node's heap limit below the
 * container's, so that a runaway allocation is reported instead of OOM-killed. The Node image's
 * startup snapshot is built for the default's value (SNAPSHOT_NODE_OPTIONS in docker/node.Dockerfile).
 */
export function harnessEnv(interpreter: Interpreter, limits: SandboxLimits): string[] {
  return interpreter === 'node' ? [`NODE_OPTIONS=--max-old-space-size=${Math.max(16, Math.floor(limits.memoryMb * 0.75))}`] : [];
}

/**
 * The host-side pids limit for a container. Under runc the cgroup counts the sandbox's own
 * processes and threads, so it is the configured limit. Under gVisor (runsc, ptrace platform) it
 * counts the Sentry's host threads and ptrace stubs instead: an idle sandbox already holds about
 * 38 host tasks and each guest process adds about 5, while guest threads cost almost none. With the
 * plain limit a program with 8 child processes crashed the Sentry (exit code 2), so under runsc
 * the limit leaves room for the Sentry plus `pids` guest processes; past that the Sentry still
 * cannot grow and the sandbox ends (test/attacks/processes.test.ts).
 */
const RUNSC_SENTRY_TASKS = 64;
const RUNSC_TASKS_PER_GUEST_PROCESS = 6;
export function hostPidsLimit(runtime: string, pids: number): number {
  return runtime.startsWith('runsc') ? RUNSC_SENTRY_TASKS + pids * RUNSC_TASKS_PER_GUEST_PROCESS : pids;
}

export function containerOptions(
  image: string,
  runtime: string,
  instance: string,
  limits: SandboxLimits,
  env: string[],
  /** The service's cgroup the engine makes the container's inside (ContainerCgroup); the engine's default when unset. */
  cgroupParent?: string,
): Docker.ContainerCreateOptions {
  const memory = limits.memoryMb * 1024 * 1024;
  return {
    Image: image,
    User: SANDBOX_USER,
    Env: env,
    WorkingDir: '/tmp',
    Labels: { [SANDBOX_LABEL]: instance },
    NetworkDisabled: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: true,
    StdinOnce: false,
    Tty: false,
    HostConfig: {
      Runtime: runtime,
      ...(cgroupParent === undefined ? {} : { CgroupParent: cgroupParent }),
      NetworkMode: 'none',
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,noexec,size=${limits.tmpfsMb}m,mode=1777` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      PidsLimit: hostPidsLimit(runtime, limits.pids),
      Memory: memory,
      MemorySwap: memory,
      MemorySwappiness: 0,
      NanoCpus: Math.round(limits.cpus * 1e9),
      Ulimits: [
        { Name: 'nofile', Soft: limits.nofile, Hard: limits.nofile },
        { Name: 'fsize', Soft: limits.fsizeMb * 1024 * 1024, Hard: limits.fsizeMb * 1024 * 1024 },
        { Name: 'core', Soft: 0, Hard: 0 },
      ],
      IpcMode: 'private',
      PidMode: '',
      Privileged: false,
      AutoRemove: false,
      LogConfig: { Type: 'none', Config: {} },
      Init: false,
    },
  };
}
