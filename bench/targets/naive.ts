import type Docker from 'dockerode';
import type { HarnessJob } from '../../src/core/execute/run-job.js';
import { runJobThrough } from './run-command.js';
import { containerOptions, type SandboxLimits } from '../../src/core/sandbox/container-spec.js';

/** The `docker run --rm` flags equivalent to the service's container settings. */
function runFlags(runtime: string, limits: SandboxLimits): string[] {
  return [
    '--rm',
    '-i',
    '--network',
    'none',
    '--read-only',
    '--tmpfs',
    `/tmp:rw,nosuid,nodev,noexec,size=${limits.tmpfsMb}m`,
    '--user',
    '10001:10001',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    '--pids-limit',
    String(limits.pids),
    '--memory',
    `${limits.memoryMb}m`,
    '--memory-swap',
    `${limits.memoryMb}m`,
    '--cpus',
    String(limits.cpus),
    '--ulimit',
    `nofile=${limits.nofile}`,
    '--runtime',
    runtime,
    '--label',
    'code-runner.sandbox=bench-naive',
    '--log-driver',
    'none',
  ];
}

/** A naive runner: one `docker run --rm` per request with the same image and limits. */
export function naiveRequest(image: string, runtime: string, limits: SandboxLimits, job: HarnessJob, cases: number): () => Promise<void> {
  return () => runJobThrough('docker', ['run', ...runFlags(runtime, limits), image], job, cases, 'naive');
}

/** The container churn ceiling: create, start, wait, remove through the Engine API, no harness work. */
export function churnRequest(docker: Docker, image: string, runtime: string, limits: SandboxLimits): () => Promise<void> {
  return async () => {
    const options = containerOptions(image, runtime, 'bench-churn', limits, []);
    const container = await docker.createContainer({
      ...options,
      Entrypoint: ['/bin/true'],
      Cmd: [],
      OpenStdin: false,
      AttachStdin: false,
      AttachStdout: false,
      AttachStderr: false,
    });
    try {
      await container.start();
      await container.wait({ condition: 'not-running' });
    } finally {
      await container.remove({ force: true });
    }
  };
}
