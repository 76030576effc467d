import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type Docker from 'dockerode';
import { SandboxError } from '../../../web/errors.js';
import type { Interpreter } from '../../languages.js';
import { harnessEnv, SANDBOX_LABEL, type SandboxLimits } from '../container-spec.js';
import type { OciRuntimeChoice } from '../engine.js';
import type { SandboxEngine } from '../sandbox.js';
import { DEFAULT_SWEEP_INTERVAL_MS, PeriodicSweep } from '../sweeper.js';
import { ContainerCgroup, instanceCgroup, removeCgroups, removeChildCgroups } from '../container-cgroup.js';
import { OciSandbox } from './oci-sandbox.js';
import { prepareRootfs, type PreparedImage } from './rootfs.js';
import { findExecutable, RuntimeCli } from './runtime-cli.js';
import { compiledSeccompFilter } from './seccomp-bpf.js';
import { ociSeccomp } from './seccomp.js';
import { ociSpec } from './spec.js';

/** How a container other than the harness (OciEngine.startCommand) differs from the driver's own. */
export interface OciCommandOptions {
  /** Environment on top of the image's, in place of the NODE_OPTIONS the driver gives the harness. */
  env?: string[];
  /** false: no seccomp profile (to measure what it costs). */
  seccomp?: boolean;
}

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
    /** Docker's profile as crun compiled it once (base64), handed to every crun container; undefined: crun compiles it each time. */
    private readonly seccompBpf: string | undefined,
    onSweepError: (error: Error) => void,
  ) {
    this.periodicSweep = new PeriodicSweep(() => this.sweep(), settings.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS, onSweepError);
  }

  /** Finds the runtime binary, removes what an earlier run of this instance left (cgroups too), and unpacks the runner images. */
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
    await removeCgroups(instanceCgroup(settings.instance));
    const labels = { [SANDBOX_LABEL]: settings.instance };
    const [python, node] = await Promise.all([
      prepareRootfs(docker, settings.images.python, layout.rootfs, labels),
      prepareRootfs(docker, settings.images.node, layout.rootfs, labels),
    ]);
    const seccompBpf = name === 'crun' ? await compileSeccomp(binary, python.dir, settings, onSweepError) : undefined;
    return new OciEngine(settings, runtime, { python, node }, layout, seccompBpf, onSweepError);
  }

  get ociRuntime(): string {
    return this.runtime.name;
  }

  /** Where the unpacked image of `interpreter` is (the container's read-only root). */
  rootfsDir(interpreter: Interpreter): string {
    return this.roots[interpreter].dir;
  }

  startSandbox(interpreter: Interpreter): Promise<OciSandbox> {
    return this.startCommand(interpreter, undefined, { env: harnessEnv(interpreter, this.settings.limits) });
  }

  /**
   * A container of the driver's own config (root, limits, seccomp, cgroup) running `command`
   * instead of the image's harness (undefined: the image's own entry point), held and removed like
   * any sandbox of the engine. The bench measures the driver with it.
   */
  async startCommand(interpreter: Interpreter, command: string[] | undefined, options: OciCommandOptions = {}): Promise<OciSandbox> {
    const { limits, instance } = this.settings;
    const root = this.roots[interpreter];
    const id = `${instance}-${randomBytes(8).toString('hex')}`;
    const cgroup = new ContainerCgroup(`${instanceCgroup(instance)}/${id}`, limits.memoryMb * 1024 * 1024);
    const spec = ociSpec({
      rootfs: root.dir,
      image: command ? { ...root.config, entrypoint: command, cmd: [] } : root.config,
      limits,
      runtime: this.runtime.name,
      env: options.env ?? [],
      cgroupsPath: cgroup.runtimePath,
      seccomp: options.seccomp === false ? undefined : ociSeccomp(),
      seccompBpf: options.seccomp === false ? undefined : this.seccompBpf,
    });
    this.startingIds.add(id);
    try {
      const sandbox = await OciSandbox.start(this.runtime, id, path.join(this.layout.bundles, id), spec, cgroup);
      this.sandboxes.add(sandbox);
      void sandbox.removed.then(() => this.sandboxes.delete(sandbox));
      return sandbox;
    } finally {
      this.startingIds.delete(id);
    }
  }

  /**
   * Deletes the instance's containers, bundles and cgroups that no held sandbox is (a retired one whose
   * delete the runtime refused, what a cut-short start left), and never one whose start is under way.
   */
  async sweep(): Promise<void> {
    const held = new Set([...this.startingIds, ...[...this.sandboxes].filter((sandbox) => sandbox.held).map((sandbox) => sandbox.id)]);
    const refused = await removeInstance(this.runtime, this.layout.bundles, (id) => !held.has(id));
    await removeChildCgroups(instanceCgroup(this.settings.instance), (id) => !held.has(id));
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
    await removeCgroups(instanceCgroup(this.settings.instance));
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

/** Docker's profile as crun compiles it, once per (profile, crun, arch, kernel); undefined: crun compiles it per container. */
async function compileSeccomp(
  binary: string,
  rootfs: string,
  settings: OciEngineSettings,
  log: (error: Error) => void,
): Promise<string | undefined> {
  const seccomp = ociSeccomp();
  if (!seccomp) return undefined;
  const compiled = await compiledSeccompFilter({
    runtimeBinary: binary,
    seccomp,
    rootfs,
    limits: settings.limits,
    cacheDir: path.join(path.resolve(settings.dataDir, 'oci'), 'seccomp'),
    cgroupsPath: `${instanceCgroup(settings.instance)}/seccomp-probe`,
  });
  if ('reason' in compiled) log(new Error(`seccomp: crun compiles the profile for every container: ${compiled.reason}`));
  return 'bpf' in compiled ? compiled.bpf : undefined;
}
