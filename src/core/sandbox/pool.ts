import { SandboxError } from '../../web/errors.js';
import type { ContainerBudget } from './budget.js';
import type { Sandbox } from './sandbox.js';
import { DEFAULT_SWEEP_INTERVAL_MS, retryDelay } from './sweeper.js';

export interface PoolOptions {
  /** Warm containers kept ready when idle; 0 turns the pool off (every request starts its own container). */
  minIdle: number;
  /** The most ready-or-starting containers this pool grows to under load. */
  maxSize: number;
  refillConcurrency: number;
  maxAgeMs: number;
  idleShrinkMs: number;
  readyTimeoutMs: number;
  /** The longest wait between two attempts to remove a container the engine refused to remove (the sweep interval). */
  removeRetryMaxMs?: number;
}

export interface PoolStats {
  ready: number;
  starting: number;
  inUse: number;
  waiting: number;
  /** Containers whose removal the engine refused: still counted in the container budget, and retried until they are gone. */
  stranded: number;
}

interface Waiter {
  resolve: (sandbox: Sandbox) => void;
  reject: (error: Error) => void;
}

const MAX_BACKOFF_MS = 5_000;

/**
 * Warm containers for one runtime. A container is handed out once and retired after its job;
 * the pool refills in the background, grows when requests find it empty, shrinks when idle.
 */
export class SandboxPool {
  private readonly ready: Sandbox[] = [];
  private readonly waiters: Waiter[] = [];
  private starting = 0;
  private inUse = 0;
  private extraIdle = 0;
  private failures = 0;
  private backoffUntil = 0;
  private backoffTimer: NodeJS.Timeout | undefined;
  private lastMiss = Date.now();
  private readonly shrinkTimer: NodeJS.Timeout;
  private closed = false;
  /** Starts and removals still under way; close() waits for them, so nothing outlives it. */
  private readonly pending = new Set<Promise<unknown>>();
  /** Retired containers the engine would not remove: each keeps its budget slot until it is removed. */
  private readonly stranded = new Set<Sandbox>();
  private removeFailures = 0;
  private removeRetryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly startSandbox: () => Promise<Sandbox>,
    private readonly options: PoolOptions,
    private readonly budget: ContainerBudget,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {
    budget.onRelease(() => this.pump());
    this.shrinkTimer = setInterval(() => this.shrinkAndExpire(), Math.min(options.idleShrinkMs, options.maxAgeMs, 5_000));
    this.shrinkTimer.unref();
    this.pump();
  }

  get stats(): PoolStats {
    return {
      ready: this.ready.length,
      starting: this.starting,
      inUse: this.inUse,
      waiting: this.waiters.length,
      stranded: this.stranded.size,
    };
  }

  /** A started container whose harness is loaded and waiting for its one job. */
  acquire(): Promise<Sandbox> {
    if (this.closed) return Promise.reject(new SandboxError('pool', 'the pool is closed'));
    for (let sandbox = this.ready.shift(); sandbox; sandbox = this.ready.shift()) {
      if (this.isFresh(sandbox)) {
        this.inUse += 1;
        this.pump();
        return Promise.resolve(sandbox);
      }
      this.dispose(sandbox);
    }
    this.lastMiss = Date.now();
    if (this.options.minIdle > 0) this.extraIdle = Math.min(this.extraIdle + 1, Math.max(0, this.options.maxSize - this.options.minIdle));
    return new Promise((resolve, reject) => {
      this.waiters.push({
        resolve: (sandbox) => {
          this.inUse += 1;
          resolve(sandbox);
        },
        reject,
      });
      this.pump();
    });
  }

  /** Removes a container that was handed out, in the background. */
  retire(sandbox: Sandbox): void {
    this.inUse = Math.max(0, this.inUse - 1);
    this.dispose(sandbox);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.shrinkTimer);
    clearTimeout(this.backoffTimer);
    for (const waiter of this.waiters.splice(0)) waiter.reject(new SandboxError('pool', 'the runner is shutting down'));
    for (const sandbox of this.ready.splice(0)) this.dispose(sandbox);
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    clearTimeout(this.removeRetryTimer);
    // One last attempt; what the engine still refuses is left to the runner's removeAll and the next start's sweep.
    const last = [...this.stranded];
    this.stranded.clear();
    await Promise.allSettled(last.map((sandbox) => sandbox.dispose().finally(() => this.budget.release())));
  }

  private get wanted(): number {
    const idle = this.options.minIdle > 0 ? this.options.minIdle + this.extraIdle : 0;
    return Math.min(this.waiters.length + idle, Math.max(this.options.maxSize, this.waiters.length));
  }

  private pump(): void {
    if (this.closed) return;
    const now = Date.now();
    if (now < this.backoffUntil) {
      this.backoffTimer ??= setTimeout(() => {
        this.backoffTimer = undefined;
        this.pump();
      }, this.backoffUntil - now);
      return;
    }
    while (this.ready.length + this.starting < this.wanted && this.starting < this.options.refillConcurrency && this.budget.tryTake()) {
      this.spawn();
    }
  }

  private spawn(): void {
    this.starting += 1;
    const started = this.startSandbox().then(async (sandbox) => {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new SandboxError('start', 'the harness did not become ready in time')),
          this.options.readyTimeoutMs,
        ).unref(),
      );
      try {
        await Promise.race([sandbox.ready, timeout]);
        return sandbox;
      } catch (error) {
        await sandbox.dispose().catch(() => undefined);
        throw error;
      }
    });
    this.track(
      started.then(
        (sandbox) => {
          this.starting -= 1;
          this.failures = 0;
          const waiter = this.waiters.shift();
          if (this.closed) this.dispose(sandbox);
          else if (waiter) waiter.resolve(sandbox);
          else this.ready.push(sandbox);
          this.pump();
        },
        (error: Error) => {
          this.starting -= 1;
          this.budget.release();
          this.failures += 1;
          this.backoffUntil = Date.now() + Math.min(MAX_BACKOFF_MS, 50 * 2 ** this.failures);
          this.onError(error);
          // A request waiting on a broken engine gets the error now instead of hanging until its deadline.
          this.waiters.shift()?.reject(error);
          this.pump();
        },
      ),
    );
  }

  private isFresh(sandbox: Sandbox): boolean {
    return sandbox.isAlive && Date.now() - sandbox.createdAt < this.options.maxAgeMs;
  }

  private shrinkAndExpire(): void {
    for (const sandbox of [...this.ready]) {
      if (!this.isFresh(sandbox)) {
        this.ready.splice(this.ready.indexOf(sandbox), 1);
        this.dispose(sandbox);
      }
    }
    if (this.extraIdle > 0 && Date.now() - this.lastMiss > this.options.idleShrinkMs) {
      this.extraIdle -= 1;
      this.lastMiss = Date.now();
      const surplus = this.ready.length - (this.options.minIdle + this.extraIdle);
      if (surplus > 0) this.dispose(this.ready.pop() as Sandbox);
    }
    this.pump();
  }

  /**
   * Removes a container in the background. Its budget slot is freed only once the engine has
   * removed it: one it refuses to remove (or to kill) still holds host resources, so it stays
   * counted and is retried with backoff until the engine accepts.
   */
  private dispose(sandbox: Sandbox): void {
    this.track(
      sandbox.dispose().then(
        () => this.budget.release(),
        (error: Error) => {
          this.onError(error);
          this.stranded.add(sandbox);
          this.scheduleRemoveRetry();
        },
      ),
    );
  }

  private scheduleRemoveRetry(): void {
    if (this.closed || this.removeRetryTimer) return;
    this.removeFailures += 1;
    const delay = retryDelay(this.removeFailures, this.options.removeRetryMaxMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.removeRetryTimer = setTimeout(() => {
      this.removeRetryTimer = undefined;
      this.retryStranded();
    }, delay);
    this.removeRetryTimer.unref();
  }

  private retryStranded(): void {
    // A container stays in `stranded` until it is gone, so the stats count it while its retry runs.
    const attempts = [...this.stranded].map((sandbox) =>
      sandbox.dispose().then(
        () => {
          // Two retries can share one removal (a new failure scheduled one while this ran): the slot is freed once.
          if (this.stranded.delete(sandbox)) this.budget.release();
          return true;
        },
        (error: Error) => {
          this.onError(error);
          return false;
        },
      ),
    );
    this.track(
      Promise.all(attempts).then((removed) => {
        if (removed.every(Boolean)) this.removeFailures = 0;
        if (this.stranded.size > 0) this.scheduleRemoveRetry();
      }),
    );
  }

  private track(work: Promise<unknown>): void {
    this.pending.add(work);
    const done = () => {
      this.pending.delete(work);
    };
    work.then(done, done);
  }
}
