import Docker from 'dockerode';
import { SandboxError } from '../../web/errors.js';
import { SANDBOX_LABEL } from './container-spec.js';
import { stageError } from './sandbox.js';

export type OciRuntimeChoice = 'auto' | 'runc' | 'crun' | 'runsc';

export function connectDocker(socketPath: string): Docker {
  return new Docker({ socketPath });
}

/** Whether a throwaway container starts under `runtime` (crun refuses some cgroup layouts that runc accepts). */
async function runtimeWorks(docker: Docker, runtime: string, image: string): Promise<boolean> {
  let container: Docker.Container | undefined;
  try {
    container = await docker.createContainer({
      Image: image,
      Entrypoint: ['true'],
      Cmd: [],
      NetworkDisabled: true,
      Labels: { [SANDBOX_LABEL]: 'runtime-probe' },
      HostConfig: { Runtime: runtime, NetworkMode: 'none', LogConfig: { Type: 'none', Config: {} } },
    });
    await container.start();
    return ((await container.wait({ condition: 'not-running' })) as { StatusCode: number }).StatusCode === 0;
  } catch {
    return false;
  } finally {
    await container?.remove({ force: true }).catch(() => undefined);
  }
}

/**
 * The OCI runtime to use: the configured one, or for `auto` the fastest one the engine has that
 * actually starts a container here (crun, else runc).
 */
export async function pickOciRuntime(docker: Docker, choice: OciRuntimeChoice, probeImage?: string): Promise<string> {
  let runtimes: string[];
  try {
    const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
    runtimes = Object.keys(info.Runtimes ?? {});
  } catch (error) {
    throw stageError('engine', error);
  }
  if (choice === 'auto') {
    const crunUsable = runtimes.includes('crun') && (probeImage === undefined || (await runtimeWorks(docker, 'crun', probeImage)));
    return crunUsable ? 'crun' : 'runc';
  }
  if (!runtimes.includes(choice)) {
    throw new SandboxError(
      'engine',
      `runtime ${choice} is not registered with the Docker engine (has: ${runtimes.join(', ')}); run docker/setup-host.sh`,
    );
  }
  return choice;
}

/** Force-removes every container this instance labelled, e.g. those a crashed earlier run left behind. */
export async function removeLabelled(docker: Docker, instance: string): Promise<number> {
  const containers = await docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=${instance}`] } });
  await Promise.all(
    containers.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => undefined),
    ),
  );
  return containers.length;
}

export async function imagePresent(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}
