import Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import { SandboxError } from '../../web/errors.js';
import type { Interpreter } from '../languages.js';
import { canManageCgroups, ContainerCgroup, instanceCgroup, removeCgroups, removeChildCgroups } from './container-cgroup.js';
import { containerOptions, harnessEnv, SANDBOX_LABEL, type SandboxLimits } from './container-spec.js';
import { DockerSandbox, stageError, type SandboxEngine } from './sandbox.js';
import { DEFAULT_SWEEP_INTERVAL_MS, PeriodicSweep } from './sweeper.js';

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

async function imagePresent(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

/** Whether a failed removal means the container is gone anyway (404) rather than refused. */
function alreadyGone(error: unknown): boolean {
  return (error as { statusCode?: number }).statusCode === 404;
}

export interface DockerEngineSettings {
  images: Record<Interpreter, string>;
  instance: string;
  limits: SandboxLimits;
  /** How often leftovers are swept (DEFAULT_SWEEP_INTERVAL_MS when unset). */
  sweepIntervalMs?: number;
}

/**
 * Whether each container gets a cgroup of the service's around it (ContainerCgroup): the engine must
 * make cgroups by path (its `cgroupfs` driver; the `systemd` one takes slice names) in hierarchies
 * this process sees and may change (root on the same host). Otherwise OOM kills are as the engine reports them.
 */
async function ownCgroupsUsable(docker: Docker): Promise<boolean> {
  try {
    const info = (await docker.info()) as { CgroupDriver?: string };
    return info.CgroupDriver === 'cgroupfs' && canManageCgroups();
  } catch (error) {
    throw stageError('engine', error);
  }
}

/** The runner's sandboxes as containers on a Docker engine, all labelled with the runner's instance. */
export class DockerEngine implements SandboxEngine {
  /** Every sandbox started and not yet removed; those still held are never swept. */
  private readonly sandboxes = new Set<DockerSandbox>();
  /**
   * Each start under way: when it began (a container it is creating is listed before its id is known
   * here) and the cgroup it has the engine make.
   */
  private readonly startsUnderWay = new Set<{ at: number; cgroup: ContainerCgroup | undefined }>();
  private readonly periodicSweep: PeriodicSweep;

  private constructor(
    private readonly docker: Docker,
    private readonly settings: DockerEngineSettings,
    readonly ociRuntime: string,
    private readonly ownCgroups: boolean,
    onSweepError: (error: Error) => void,
  ) {
    this.periodicSweep = new PeriodicSweep(() => this.sweep(), settings.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, onSweepError);
  }

  /** Removes what an earlier run of this instance left (containers and cgroups) and decides whether sandboxes get cgroups of the service's. */
  static async start(
    docker: Docker,
    settings: DockerEngineSettings,
    ociRuntime: string,
    onSweepError: (error: Error) => void = () => undefined,
  ): Promise<DockerEngine> {
    await removeLabelled(docker, settings.instance);
    const ownCgroups = await ownCgroupsUsable(docker);
    if (ownCgroups) await removeCgroups(instanceCgroup(settings.instance));
    return new DockerEngine(docker, settings, ociRuntime, ownCgroups, onSweepError);
  }

  async startSandbox(interpreter: Interpreter): Promise<DockerSandbox> {
    const { images, instance, limits } = this.settings;
    const env = harnessEnv(interpreter, limits);
    // the container and its cgroup of the service's share one name, so that either tells the other
    const name = `code-runner-${instance}-${randomBytes(8).toString('hex')}`;
    const cgroup = this.ownCgroups ? new ContainerCgroup(`${instanceCgroup(instance)}/${name}`, limits.memoryMb * 1024 * 1024) : undefined;
    const start = { at: Date.now(), cgroup };
    this.startsUnderWay.add(start);
    try {
      const options = { ...containerOptions(images[interpreter], this.ociRuntime, instance, limits, env, cgroup?.path), name };
      const sandbox = await DockerSandbox.start(this.docker, options, cgroup);
      this.sandboxes.add(sandbox);
      void sandbox.removed.then(() => this.sandboxes.delete(sandbox));
      return sandbox;
    } finally {
      this.startsUnderWay.delete(start);
    }
  }

  /**
   * Force-removes the instance's containers that no held sandbox is (a retired one the engine refused
   * to remove, a start cut short whose clean-up was refused), except those a start under way may be
   * creating, and then the service's cgroups that no held sandbox or start under way has.
   */
  async sweep(): Promise<void> {
    const held = new Set([...this.sandboxes].filter((sandbox) => sandbox.held).map((sandbox) => sandbox.id));
    // Docker's Created is in whole seconds: a second's margin before the oldest start under way.
    const createdBefore = Math.min(Infinity, ...[...this.startsUnderWay].map((start) => start.at)) / 1000 - 1;
    let listed: Docker.ContainerInfo[];
    try {
      listed = await this.docker.listContainers({ all: true, filters: { label: [`${SANDBOX_LABEL}=${this.settings.instance}`] } });
    } catch (error) {
      throw stageError('engine', error);
    }
    const leftovers = listed.filter((c) => !held.has(c.Id) && c.Created < createdBefore);
    const refused: unknown[] = [];
    await Promise.all(
      leftovers.map((c) =>
        this.docker
          .getContainer(c.Id)
          .remove({ force: true })
          .catch((error: unknown) => {
            if (!alreadyGone(error)) refused.push(error);
          }),
      ),
    );
    if (this.ownCgroups) {
      const owners = [...[...this.sandboxes].filter((sandbox) => sandbox.held), ...this.startsUnderWay];
      const kept = new Set(owners.map((owner) => owner.cgroup?.name));
      await removeChildCgroups(instanceCgroup(this.settings.instance), (name) => !kept.has(name));
    }
    if (refused.length > 0) {
      const first = stageError('remove', refused[0]);
      throw new SandboxError(
        'remove',
        `sweep: ${refused.length} of ${leftovers.length} leftover containers not removed (${first.message})`,
        {
          cause: refused[0],
        },
      );
    }
  }

  /** Docker reachable and every runner image present. */
  async checks(): Promise<Record<string, string>> {
    const checks: Record<string, string> = {};
    try {
      await this.docker.ping();
      checks.docker = 'ok';
    } catch (error) {
      checks.docker = `unreachable: ${(error as Error).message}`;
      return checks;
    }
    for (const [interpreter, image] of Object.entries(this.settings.images)) {
      checks[`image:${interpreter}`] = (await imagePresent(this.docker, image)) ? 'ok' : `missing: ${image}`;
    }
    return checks;
  }

  async removeAll(): Promise<void> {
    await this.periodicSweep.stop();
    await removeLabelled(this.docker, this.settings.instance);
    if (this.ownCgroups) await removeCgroups(instanceCgroup(this.settings.instance));
  }
}
