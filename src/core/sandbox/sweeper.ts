/**
 * The longest time between two attempts to remove a container the service no longer uses: the
 * engine's sweep of leftovers runs this often, and a refused removal is retried at least this often.
 */
export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;
const FIRST_RETRY_MS = 500;

/** How long to wait after `failures` failed attempts in a row: doubling from 500 ms, never more than `capMs`. */
export function retryDelay(failures: number, capMs: number): number {
  return Math.min(capMs, FIRST_RETRY_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * Runs a sweep every `intervalMs` while the service runs; after a failed one (the engine refused),
 * sooner, with backoff, and each failure is reported (its error names the stage that failed).
 */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly sweep: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly onError: (error: Error) => void,
  ) {
    this.schedule(intervalMs);
  }

  /** No sweep starts after this; resolves once the one under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    this.running = this.sweep().then(
      () => {
        this.failures = 0;
      },
      (error: Error) => {
        this.failures += 1;
        this.onError(error);
      },
    );
    await this.running;
    this.running = undefined;
    this.schedule(this.failures === 0 ? this.intervalMs : retryDelay(this.failures, this.intervalMs));
  }
}
