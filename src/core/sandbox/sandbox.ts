import type Docker from 'dockerode';
import type { Duplex } from 'node:stream';
import { SandboxError, type SandboxStage } from '../../web/errors.js';
import type { ContainerCgroup } from './container-cgroup.js';
import { DockerStreamDemux } from './docker-stream.js';
import type { Interpreter } from '../languages.js';
import type { HarnessEvent } from './frame-parser.js';
import { HarnessOutput } from './harness-output.js';

export interface ExitInfo {
  statusCode: number;
  oomKilled: boolean;
  killedByHost: boolean;
}

/**
 * One single-use harness process, as the pool and a job use it (docs/harness-protocol.md): warm
 * once the ready line came, then sent exactly one job, whose events it streams until it exits.
 * DockerSandbox below is the one the service runs; tests run the pipeline on a fake.
 */
export interface Sandbox {
  readonly createdAt: number;
  /** The version from the ready line; rejects when the harness exits before it. */
  readonly ready: Promise<string>;
  /** Rejects, as a SandboxError, when the engine cannot tell how the process ended. */
  readonly exited: Promise<ExitInfo>;
  /** Resolves when the output stream has ended, so that no frame is still in flight after an exit. */
  readonly drained: Promise<void>;
  readonly isAlive: boolean;
  /** Starts receiving events; anything that arrived before is replayed first. */
  listen(listener: (event: HarnessEvent) => void): void;
  send(nonce: string, jobLine: string): void;
  /** SIGKILL from the host; whatever the harness writes from then on is dropped unread. */
  kill(): Promise<void>;
  /**
   * Kills if needed and removes the sandbox. Idempotent once it succeeded; when the engine refused,
   * it rejects (a SandboxError naming the stage) and a later call tries again.
   */
  dispose(): Promise<void>;
}

/** Where a runner's sandboxes come from: the Docker engine (DockerEngine) in the service, a fake in tests. */
export interface SandboxEngine {
  /** The OCI runtime the sandboxes run under (runc, crun, runsc). */
  readonly ociRuntime: string;
  /** Starts a sandbox of the interpreter's image; it becomes warm on its own (`ready`). */
  startSandbox(interpreter: Interpreter): Promise<Sandbox>;
  /** Readiness checks by name, each 'ok' or what is wrong. */
  checks(): Promise<Record<string, string>>;
  /**
   * Stops the engine's periodic sweep (docs/security.md, "When the engine refuses") and removes every
   * sandbox of this runner's instance, including those an earlier run left behind.
   */
  removeAll(): Promise<void>;
}

const SIGKILL_STATUS = 137;
const OOM_INSPECT_ATTEMPTS = 6;
const OOM_INSPECT_DELAY_MS = 200;
/** How long after its output stream ends a container's exit may take before the engine is asked. */
const EXIT_CHECK_DELAY_MS = 1_000;

/** Tags a Docker failure with the stage it happened in, so that a 502 explains itself. */
export function stageError(stage: SandboxStage, error: unknown): SandboxError {
  const err = error as { statusCode?: number; code?: string; json?: { message?: string }; message?: string };
  if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED' || err.code === 'EACCES') {
    return new SandboxError('engine', `Docker engine unreachable (${err.code})`, { cause: error });
  }
  const message = err.json?.message ?? err.message ?? String(error);
  if (stage === 'create' && err.statusCode === 404) return new SandboxError('image', `runner image missing: ${message}`, { cause: error });
  return new SandboxError(stage, message, { cause: error });
}

/**
 * One single-use container running a harness: created, attached and started, then handed
 * exactly one job. Events from the harness are buffered until a listener is attached.
 */
export class DockerSandbox implements Sandbox {
  readonly createdAt = Date.now();
  readonly ready: Promise<string>;
  readonly exited: Promise<ExitInfo>;
  /** Resolves when the output stream has ended, so that no frame is still in flight after an exit. */
  readonly drained: Promise<void>;
  private resolveDrained!: () => void;
  private readonly output = new HarnessOutput();
  private killed = false;
  private removal: Promise<void> | undefined;
  private retired = false;
  private hasExited = false;
  /** Resolves once the engine has removed the container (by dispose, or found gone by it). */
  readonly removed: Promise<void>;
  private resolveRemoved!: () => void;

  private settleExit!: { resolve: (result: { StatusCode: number }) => void; reject: (error: unknown) => void };

  private constructor(
    private readonly container: Docker.Container,
    private readonly stream: Duplex,
    readonly cgroup: ContainerCgroup | undefined,
  ) {
    this.ready = this.output.ready;
    this.drained = new Promise((resolve) => {
      this.resolveDrained = resolve;
    });
    this.removed = new Promise((resolve) => {
      this.resolveRemoved = resolve;
    });
    const waitResult = new Promise<{ StatusCode: number }>((resolve, reject) => {
      this.settleExit = { resolve, reject };
    });
    this.exited = waitResult
      .then(
        async (result) => this.exitInfo(result.StatusCode),
        (error: unknown) => {
          throw stageError('wait', error);
        },
      )
      .finally(() => {
        this.hasExited = true;
        this.output.exited(false);
      });
    this.exited.catch(() => undefined);
  }

  /** `cgroup`: the service's cgroup that `options` name as the container's parent, when the host lets the service keep one. */
  static async start(docker: Docker, options: Docker.ContainerCreateOptions, cgroup?: ContainerCgroup): Promise<DockerSandbox> {
    let container: Docker.Container;
    try {
      container = await docker.createContainer(options);
    } catch (error) {
      throw stageError('create', error);
    }
    try {
      let stream: Duplex;
      try {
        stream = (await container.attach({ stream: true, stdin: true, stdout: true, stderr: true, hijack: true })) as unknown as Duplex;
      } catch (error) {
        throw stageError('attach', error);
      }
      const sandbox = new DockerSandbox(container, stream, cgroup);
      sandbox.wire();
      try {
        await container.start();
      } catch (error) {
        sandbox.settleExit.reject(stageError('start', error));
        throw stageError('start', error);
      }
      // Asked after start: "not-running" answers at once for a process that already exited,
      // where a "next-exit" wait sent before start can miss a very quick exit.
      sandbox.followExit(container.wait({ condition: 'not-running' }) as Promise<{ StatusCode: number }>);
      return sandbox;
    } catch (error) {
      await container.remove({ force: true }).then(
        () => cgroup?.remove(),
        () => undefined,
      );
      throw error;
    }
  }

  get id(): string {
    return this.container.id;
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
    this.stream.write(jobLine.endsWith('\n') ? jobLine : `${jobLine}\n`);
  }

  /** SIGKILL from the host: the wall-clock limit never relies on anything inside the sandbox. */
  async kill(): Promise<void> {
    if (this.killed || this.hasExited) return;
    this.killed = true;
    this.output.discard();
    await this.container.kill({ signal: 'SIGKILL' }).catch(() => undefined);
  }

  /** Kills if needed and force-removes the container; a refused removal rejects, and may be tried again. */
  dispose(): Promise<void> {
    this.retired = true;
    this.killed = true;
    this.stream.destroy();
    const removed = async () => {
      await this.cgroup?.removeEmpty();
      this.resolveRemoved();
    };
    this.removal ??= this.container.remove({ force: true }).then(removed, (error: unknown) => {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 404) return removed();
      // 409: a removal of it is already under way; its end is what a later call (the pool's retry) sees.
      this.removal = undefined;
      throw stageError('remove', error);
    });
    return this.removal;
  }

  private wire(): void {
    // not docker-modem's demuxStream: it copies every byte two or three times on the event loop
    const demux = new DockerStreamDemux(
      (chunk) => this.output.stdout(chunk),
      (chunk) => this.output.stderr(chunk),
    );
    this.stream.on('data', (chunk: Buffer) => demux.push(chunk));
    const finish = () => {
      this.output.end();
      this.resolveDrained();
      setTimeout(() => this.checkExit(), EXIT_CHECK_DELAY_MS).unref();
    };
    this.stream.once('end', finish);
    this.stream.once('close', finish);
    this.stream.on('error', () => undefined);
  }

  private followExit(result: Promise<{ StatusCode: number }>): void {
    result.then(this.settleExit.resolve, this.settleExit.reject);
  }

  /**
   * The output stream ended but no exit came: the engine's wait answer can hang for good when the
   * connection to the engine drops after its headers (the client never hears of it). Asking again
   * settles it either way: a stopped container gives its exit code, an unreachable engine an error.
   */
  private checkExit(): void {
    if (this.hasExited) return;
    this.followExit(
      this.container
        .inspect()
        .then((info) => (info.State.Running ? new Promise<never>(() => undefined) : { StatusCode: info.State.ExitCode })),
    );
  }

  private async exitInfo(statusCode: number): Promise<ExitInfo> {
    if (this.cgroup && statusCode === SIGKILL_STATUS && !this.killed) {
      // The engine is not always told of an OOM kill (gVisor's, or one whose event came after the
      // exit); the container's own peak memory tells it, at once.
      return { statusCode, oomKilled: this.cgroup.reachedMemoryLimit(), killedByHost: false };
    }
    let oomKilled = false;
    // Without a cgroup of the service's: the engine records the OOM event on its own schedule, sometimes
    // just after the exit is reported; a SIGKILL the host did not send is asked about again before it
    // is called a plain exit.
    const attempts = statusCode === SIGKILL_STATUS ? OOM_INSPECT_ATTEMPTS : 1;
    for (let attempt = 0; statusCode !== 0 && !this.killed && !oomKilled && attempt < attempts; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, OOM_INSPECT_DELAY_MS));
      const info = await this.container.inspect().catch(() => undefined);
      oomKilled = info?.State?.OOMKilled === true;
    }
    return { statusCode, oomKilled, killedByHost: this.killed };
  }
}
