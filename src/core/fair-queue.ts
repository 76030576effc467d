import { BusyError } from '../web/errors.js';

interface Waiting {
  start(done: () => void): void;
  timer: NodeJS.Timeout;
  signal?: AbortSignal;
  onAbort?: () => void;
}

export interface FairQueueOptions {
  /** Tasks running at once, across all callers. */
  concurrency: number;
  /** Tasks waiting at once, across all callers; one more is refused (BusyError). */
  limit: number;
  /** Longest wait before a task starts; past it, it is refused (BusyError) rather than started late. */
  maxWaitMs: number;
  /**
   * Tasks one caller may run at once (the concurrency when unset). Below the concurrency, a slot is
   * always left to the other callers: slots are not taken back from a running task, so a caller
   * that could fill them all with 15-second jobs would make the next caller wait for one to end.
   */
  perCaller?: number;
}

/**
 * Runs tasks with a global concurrency, serving callers in turn: each caller (an API key, or a
 * client IP) has its own line, and a free slot goes to the waiting caller served least recently, so
 * one caller's backlog delays another caller by at most one task per slot, not by all of it. A
 * caller runs at most `perCaller` tasks at once.
 */
export class FairQueue {
  private readonly lines = new Map<string, Waiting[]>();
  private running = 0;
  private waiting = 0;
  private idle: Array<() => void> = [];
  /** When each active caller last had a task started (a turn number), and how many of its tasks run. */
  private readonly served = new Map<string, number>();
  private readonly busy = new Map<string, number>();
  private turn = 0;

  constructor(private readonly options: FairQueueOptions) {}

  get size(): number {
    return this.waiting;
  }

  get pending(): number {
    return this.running;
  }

  /** Queues `task` in the caller's line; rejects with a BusyError when full or after the longest wait, or with the signal's reason. */
  add<T>(caller: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiting >= this.options.limit) return Promise.reject(new BusyError('the execution queue is full; retry shortly', 1));
    return new Promise<T>((resolve, reject) => {
      const entry: Waiting = {
        start: (done) => {
          this.running += 1;
          task()
            .then(resolve, reject)
            .finally(() => {
              this.running -= 1;
              done();
              this.dispatch();
            });
        },
        timer: setTimeout(() => {
          this.remove(caller, entry);
          const retryAfter = Math.max(1, Math.ceil(this.options.maxWaitMs / 1000));
          reject(new BusyError(`no sandbox became free within ${this.options.maxWaitMs} ms; retry shortly`, retryAfter));
        }, this.options.maxWaitMs),
        signal,
      };
      if (signal) {
        entry.onAbort = () => {
          this.remove(caller, entry);
          reject(signal.reason);
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      const line = this.lines.get(caller) ?? [];
      line.push(entry);
      this.lines.set(caller, line);
      this.waiting += 1;
      this.dispatch();
    });
  }

  /** Resolves when nothing waits and nothing runs. */
  onIdle(): Promise<void> {
    if (this.running === 0 && this.waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private dispatch(): void {
    while (this.running < this.options.concurrency) {
      const caller = this.leastRecentlyServed();
      if (caller === undefined) break;
      const line = this.lines.get(caller)!;
      const entry = line.shift()!;
      if (line.length === 0) this.lines.delete(caller);
      this.served.set(caller, (this.turn += 1));
      this.busy.set(caller, (this.busy.get(caller) ?? 0) + 1);
      this.detach(entry);
      entry.start(() => this.finished(caller));
    }
    if (this.running === 0 && this.waiting === 0) {
      for (const resolve of this.idle.splice(0)) resolve();
    }
  }

  /** The waiting caller under its share whose last start is the oldest; one never served (or idle since) comes first. */
  private leastRecentlyServed(): string | undefined {
    const share = this.options.perCaller ?? this.options.concurrency;
    let best: string | undefined;
    let oldest = Infinity;
    for (const caller of this.lines.keys()) {
      if ((this.busy.get(caller) ?? 0) >= share) continue;
      const last = this.served.get(caller) ?? 0;
      if (last < oldest) [best, oldest] = [caller, last];
    }
    return best;
  }

  /** A caller with nothing running and nothing waiting is forgotten, so it starts afresh next time. */
  private finished(caller: string): void {
    const left = (this.busy.get(caller) ?? 1) - 1;
    if (left > 0) this.busy.set(caller, left);
    else this.busy.delete(caller);
    if (left <= 0 && !this.lines.has(caller)) this.served.delete(caller);
  }

  private remove(caller: string, entry: Waiting): void {
    const line = this.lines.get(caller);
    const index = line?.indexOf(entry) ?? -1;
    if (!line || index < 0) return;
    line.splice(index, 1);
    if (line.length === 0) this.lines.delete(caller);
    this.detach(entry);
    this.dispatch();
  }

  /** The entry leaves the waiting count and its timer and abort listener. */
  private detach(entry: Waiting): void {
    this.waiting -= 1;
    clearTimeout(entry.timer);
    if (entry.onAbort) entry.signal?.removeEventListener('abort', entry.onAbort);
  }
}
