import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { SandboxError } from '../../../web/errors.js';
import type { Interpreter } from '../../languages.js';
import { SANDBOX_LABEL, type SandboxLimits } from '../container-spec.js';
import type { OciRuntimeChoice } from '../engine.js';
import type { SandboxEngine } from '../sandbox.js';
import { DEFAULT_SWEEP_INTERVAL_MS, PeriodicSweep } from '../sweeper.js';
import { OciSandbox } from './oci-sandbox.js';
import { prepareRootfs, type PreparedImage } from './rootfs.js';
import { findExecutable, RuntimeCli } from './runtime-cli.js';
import { ociSeccomp } from './seccomp.js';
import { ociSpec } from './spec.js';

export interface OciEngineSettings {
  images: Record<Interpreter, string>;
  instance: string;
  limits: SandboxLimits;
  ociRuntime: OciRuntimeChoice;
  /** The service's data folder: the runtime's state and the bundles live under `<dataDir>/oci/<instance>`. */
  dataDir: string;
  /** Where unpacked images are kept; `<dataDir>/oci/rootfs` when absent. */
  rootfsDir?: string;
  /** How often leftovers are swept (DEFAULT_SWEEP_INTERVAL_MS when unset). */
  sweepIntervalMs?: number;
}

/** Where an oci-driver instance keeps its files (tests look here for leftovers). */
export function ociLayout(dataDir: string, instance: string, rootfsDir?: string): { rootfs: string; state: string; bundles: string } {
  const base = path.resolve(dataDir, 'oci');
  return {
    rootfs: path.resolve(rootfsDir ?? path.join(base, 'rootfs')),
    state: path.join(base, instance, 'state'),
    bundles: path.join(base, instance, 'bundles'),
  };
}

/** The runtime binary for a SANDBOX_RUNTIME choice: `auto` is crun. */
function runtimeName(choice: OciRuntimeChoice): string {
  return choice === 'auto' ? 'crun' : choice;
}

/** gVisor needs its platform named (ptrace works without KVM) and no network of its own. */
const RUNTIME_GLOBAL_ARGS: Record<string, string[]> = { runsc: ['--platform=ptrace', '--network=none'] };

/** The cgroup hierarchies a runtime may have made the instance's parent cgroup in (v1 controllers, or the v2 root). */
function cgroupHierarchies(): string[] {
  const root = '/sys/fs/cgroup';
  if (existsSync(path.join(root, 'cgroup.controllers'))) return [root];
  return ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'hugetlb', 'systemd', 'unified'].map((c) =>
    path.join(root, c),
  );
}

/**
 * The runner's sandboxes as containers started by an OCI runtime binary directly (crun; runsc for
 * gVisor), each from a bundle whose root is the runner image unpacked once. Docker is used at start
 * only, to unpack the images; no daemon is on the path of a request.
 */
export class OciEngine implements SandboxEngine {
  /** Every sandbox started and not yet removed; those still held are never swept. */
  private readonly sandboxes = new Set<OciSandbox>();
  /** Ids of the containers whose start is under way (bundle written, runtime creating it). */
  private readonly startingIds = new Set<string>();
  private readonly periodicSweep: PeriodicSweep;

  private constructor(
    private readonly settings: OciEngineSettings,
    private readonly runtime: RuntimeCli,
    private readonly roots: Record<Interpreter, PreparedImage>,
    private readonly layout: ReturnType<typeof ociLayout>,
    onSweepError: (error: Error) => void,
  ) {
    this.periodicSweep = new PeriodicSweep(() => this.sweep(), settings.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, onSweepError);
  }

  /** Finds the runtime binary, removes what an earlier run of this instance left, and unpacks the runner images. */
  static async start(
    docker: Docker,
    settings: OciEngineSettings,
    onSweepError: (error: Error) => void = () => undefined,
  ): Promise<OciEngine> {
    const name = runtimeName(settings.ociRuntime);
    const binary = findExecutable(name);
    if (!binary) throw new SandboxError('engine', `the OCI runtime ${name} is not installed; run docker/setup-host.sh`);
    const layout = ociLayout(settings.dataDir, settings.instance, settings.rootfsDir);
    await mkdir(layout.state, { recursive: true, mode: 0o700 });
    await mkdir(layout.bundles, { recursive: true, mode: 0o700 });
    const runtime = new RuntimeCli(name, binary, layout.state, RUNTIME_GLOBAL_ARGS[name] ?? []);
    await removeInstance(runtime, layout.bundles);
    const labels = { [SANDBOX_LABEL]: settings.instance };
    const [python, node] = await Promise.all([
      prepareRootfs(docker, settings.images.python, layout.rootfs, labels),
      prepareRootfs(docker, settings.images.node, layout.rootfs, labels),
    ]);
    return new OciEngine(settings, runtime, { python, node }, layout, onSweepError);
  }

  get ociRuntime(): string {
    return this.runtime.name;
  }

  async startSandbox(interpreter: Interpreter): Promise<OciSandbox> {
    const { limits, instance } = this.settings;
    const root = this.roots[interpreter];
    const id = `${instance}-${randomBytes(8).toString('hex')}`;
    // Node's heap limit sits below the container's, as with the docker driver.
    const env = interpreter === 'node' ? [`NODE_OPTIONS=--max-old-space-size=${Math.max(16, Math.floor(limits.memoryMb * 0.75))}`] : [];
    const spec = ociSpec({
      rootfs: root.dir,
      image: root.config,
      limits,
      runtime: this.runtime.name,
      env,
      cgroupsPath: `/code-runner-${instance}/${id}`,
      seccomp: ociSeccomp(),
    });
    this.startingIds.add(id);
    try {
      const sandbox = await OciSandbox.start(this.runtime, id, path.join(this.layout.bundles, id), spec);
      this.sandboxes.add(sandbox);
      void sandbox.removed.then(() => this.sandboxes.delete(sandbox));
      return sandbox;
    } finally {
      this.startingIds.delete(id);
    }
  }

  /**
   * Deletes the instance's containers and bundles that no held sandbox is (a retired one whose delete
   * the runtime refused, what a cut-short start left), and never one whose start is under way.
   */
  async sweep(): Promise<void> {
    const held = new Set([...this.startingIds, ...[...this.sandboxes].filter((sandbox) => sandbox.held).map((sandbox) => sandbox.id)]);
    const refused = await removeInstance(this.runtime, this.layout.bundles, (id) => !held.has(id));
    if (refused.length > 0) {
      throw new SandboxError('remove', `sweep: ${refused.length} leftover containers not deleted (${refused[0]})`);
    }
  }

  /** The driver, the runtime binary, and both unpacked images. */
  async checks(): Promise<Record<string, string>> {
    const checks: Record<string, string> = { 'driver:oci': 'ok' };
    checks[`runtime:${this.runtime.name}`] = findExecutable(this.runtime.name) ? 'ok' : `missing: ${this.runtime.name} is not on PATH`;
    for (const [interpreter, root] of Object.entries(this.roots)) {
      checks[`rootfs:${interpreter}`] = existsSync(path.join(root.dir, 'bin')) ? 'ok' : `missing: ${root.dir} (image ${root.image})`;
    }
    return checks;
  }

  async removeAll(): Promise<void> {
    await this.periodicSweep.stop();
    await removeInstance(this.runtime, this.layout.bundles);
    for (const hierarchy of cgroupHierarchies()) {
      await rmdir(path.join(hierarchy, `code-runner-${this.settings.instance}`)).catch(() => undefined);
    }
  }
}

/**
 * Deletes the containers in the runtime's state directory (only this instance's are there) and the
 * bundles that `wanted` picks (all by default); a container whose delete is refused keeps its bundle.
 * Returns what the runtime said for each refused delete.
 */
async function removeInstance(runtime: RuntimeCli, bundles: string, wanted: (id: string) => boolean = () => true): Promise<string[]> {
  // `crun list` fails as a whole while one container's state is half written (a start cut short,
  // by a SIGKILL of the service too): the state directory's entries name every container as well.
  const listed = await runtime.list().catch(() => []);
  const inState = await readdir(runtime.stateDir).catch(() => []);
  const ids = [...new Set([...listed.map(({ id }) => id), ...inState])].filter(wanted);
  const refused = new Map<string, string>();
  await Promise.all(
    ids.map(async (id) => {
      const result = await runtime.run('delete', '--force', id);
      if (result.code !== 0 && existsSync(path.join(runtime.stateDir, id)))
        refused.set(id, `${runtime.name} delete ${id}: ${result.stderr.trim()}`);
    }),
  );
  const left = (await readdir(bundles).catch(() => [])).filter((entry) => wanted(entry) && !refused.has(entry));
  await Promise.all(left.map((entry) => rm(path.join(bundles, entry), { recursive: true, force: true })));
  return [...refused.values()];
}
