import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { constants as osConstants } from 'node:os';
import { SandboxError } from '../../../web/errors.js';
import type { HarnessEvent } from '../frame-parser.js';
import { HarnessOutput } from '../harness-output.js';
import type { ExitInfo, Sandbox } from '../sandbox.js';
import type { ContainerCgroup } from '../container-cgroup.js';
import type { RuntimeCli } from './runtime-cli.js';

const SIGKILL_STATUS = 137;
/** How often, and how many times, a kill is retried while the runtime is still creating the container. */
const KILL_RETRY_MS = 50;
const KILL_ATTEMPTS = 40;
/** How long dispose waits for the runtime process to end after the kill before it is killed itself. */
const EXIT_WAIT_MS = 5_000;
/**
 * How long dispose gives a harness that was sent its job to end by itself before it is killed: after
 * its last frame it exits at once (docs/harness-protocol.md), and that saves starting the runtime
 * binary once more for a kill (about a third of the runtime's CPU per execution). It ends in a few
 * milliseconds, more on a loaded machine; only a harness that does not end (its code forged the
 * last frame) uses the whole grace, inside its container's limits.
 */
const SELF_EXIT_GRACE_MS = 1_000;

type RuntimeProcess = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * One single-use harness in a container started by the OCI runtime binary itself (`crun run`),
 * with no daemon in between: the runtime process's stdin, stdout and stderr are the harness's,
 * and its exit status is the harness's. Same protocol and same host-side kill as DockerSandbox.
 */
export class OciSandbox implements Sandbox {
  readonly createdAt = Date.now();
  readonly ready: Promise<string>;
  readonly exited: Promise<ExitInfo>;
  readonly drained: Promise<void>;
  private readonly output = new HarnessOutput();
  private killed = false;
  private hasExited = false;
  private removal: Promise<void> | undefined;
  private retired = false;
  private isRemoved = false;
  /** Resolves once the container and its bundle are gone. */
  readonly removed: Promise<void>;
  private resolveRemoved!: () => void;
  private killing: Promise<void> | undefined;
  private jobSent = false;
  private readonly processExit: Promise<number>;

  private constructor(
    private readonly runtime: RuntimeCli,
    readonly id: string,
    private readonly bundle: string,
    private readonly child: RuntimeProcess,
    private readonly cgroup: ContainerCgroup,
  ) {
    this.ready = this.output.ready;
    this.removed = new Promise((resolve) => {
      this.resolveRemoved = resolve;
    });
    this.processExit = new Promise<number>((resolve, reject) => {
      child.once('error', (error) =>
        reject(new SandboxError('engine', `cannot run ${runtime.binary}: ${error.message}`, { cause: error })),
      );
      child.once('exit', (code, signal) => {
        // at once, not when `exited` settles: a kill that comes after must not start the runtime
        this.hasExited = true;
        resolve(code ?? 128 + (signal ? osConstants.signals[signal] : 0));
      });
    });
    this.exited = this.processExit
      .then(async (status) => this.exitInfo(status))
      .finally(() => {
        this.hasExited = true;
        this.output.exited(true);
      });
    this.exited.catch(() => undefined);
    let open = 2;
    this.drained = new Promise((resolve) => {
      const ended = () => {
        open -= 1;
        if (open > 0) return;
        this.output.end();
        resolve();
      };
      child.stdout.once('close', ended);
      child.stderr.once('close', ended);
    });
    child.stdout.on('data', (chunk: Buffer) => this.output.stdout(chunk));
    child.stderr.on('data', (chunk: Buffer) => this.output.stderr(chunk));
    child.stdin.on('error', () => undefined);
  }

  /**
   * Writes the bundle (config.json) and starts `<runtime> run` on it; the sandbox is warm once `ready`
   * resolves. `cgroup` is the service's cgroup around the one the spec names (ContainerCgroup).
   */
  static async start(
    runtime: RuntimeCli,
    id: string,
    bundle: string,
    spec: Record<string, unknown>,
    cgroup: ContainerCgroup,
  ): Promise<OciSandbox> {
    try {
      await mkdir(bundle, { recursive: true, mode: 0o700 });
      await writeFile(path.join(bundle, 'config.json'), JSON.stringify(spec));
    } catch (error) {
      await rm(bundle, { recursive: true, force: true });
      throw new SandboxError('create', `cannot write the bundle: ${(error as Error).message}`, { cause: error });
    }
    const child = spawn(runtime.binary, runtime.args('run', '--bundle', bundle, id), { stdio: ['pipe', 'pipe', 'pipe'] });
    return new OciSandbox(runtime, id, bundle, child, cgroup);
  }

  get isAlive(): boolean {
    return !this.hasExited && !this.killed;
  }
  /** Still the pool's (ready, or running a job): dispose was never called. The engine's sweep leaves it alone. */
  get held(): boolean {
    return !this.retired;
  }

  listen(listener: (event: HarnessEvent) => void): void {
    this.output.listen(listener);
  }

  send(nonce: string, jobLine: string): void {
    this.output.setNonce(nonce);
    this.jobSent = true;
    this.child.stdin.write(jobLine.endsWith('\n') ? jobLine : `${jobLine}\n`);
  }

  /** SIGKILL to the container's init through the runtime: the PID namespace takes every other process with it. */
  kill(): Promise<void> {
    if (this.hasExited) return Promise.resolve();
    this.killed = true;
    this.output.discard();
    this.killing ??= this.killContainer();
    return this.killing;
  }

  /**
   * Kills if needed, waits for the runtime to end, deletes the container (if still there) and the
   * bundle. A refused delete rejects, and a later call tries again.
   */
  dispose(): Promise<void> {
    if (this.isRemoved) return Promise.resolve();
    this.retired = true;
    this.removal ??= this.remove().then(
      () => {
        this.isRemoved = true;
        this.resolveRemoved();
      },
      (error: unknown) => {
        this.removal = undefined;
        throw error;
      },
    );
    return this.removal;
  }

  private async remove(): Promise<void> {
    if (this.jobSent && !this.killed) await this.exitWithin(SELF_EXIT_GRACE_MS);
    await this.kill();
    this.child.stdin.destroy();
    if (!(await this.exitWithin(EXIT_WAIT_MS))) this.child.kill('SIGKILL');
    if (existsSync(path.join(this.runtime.stateDir, this.id))) {
      const result = await this.runtime.run('delete', '--force', this.id);
      if (result.code !== 0 && existsSync(path.join(this.runtime.stateDir, this.id))) {
        throw new SandboxError('remove', `${this.runtime.name} delete ${this.id}: ${result.stderr.trim()}`);
      }
    }
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    await rm(this.bundle, { recursive: true, force: true });
    // A runtime killed before its cleanup leaves its cgroup (empty once the container's init died).
    await this.cgroup.remove();
  }

  /** Whether the runtime process has ended, or does within `ms` (a wait that never holds the service's process open). */
  private exitWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      this.processExit.then(
        () => true,
        () => true,
      ),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), ms).unref();
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /**
   * `kill` fails while the runtime is still creating the container (no state yet) and after it
   * is gone; it is retried while the runtime process lives, and as a last resort the runtime
   * process itself is killed (dispose then deletes what it left).
   */
  private async killContainer(): Promise<void> {
    for (let attempt = 0; attempt < KILL_ATTEMPTS && !this.hasExited; attempt += 1) {
      const result = await this.runtime.run('kill', this.id, 'KILL');
      if (result.code === 0 || this.hasExited) return;
      await new Promise((resolve) => setTimeout(resolve, KILL_RETRY_MS));
    }
    if (!this.hasExited) this.child.kill('SIGKILL');
  }

  private exitInfo(statusCode: number): ExitInfo {
    // Inside a PID namespace nothing can SIGKILL the namespace's init (the harness) but the host: the
    // service (`killed`) or an OOM killer. Only the container's own cgroup says it was its own memory
    // (an OOM kill elsewhere on the host, or a host-wide one, is not the code's doing).
    const oomKilled = statusCode === SIGKILL_STATUS && !this.killed && this.cgroup.reachedMemoryLimit();
    return { statusCode, oomKilled, killedByHost: this.killed };
  }
}
