import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { retryDelay, type Backoff } from './backoff.js';
import { claimDue, failAbandoned, recordOutcome, type Claim, type Outcome } from './claims.js';
import { DeliveryFailure, type OutboxHandler } from './delivery.js';
import type { OutboxKind } from './enqueue.js';

export interface WorkerSettings {
  pollMs: number;
  leaseMs: number;
  concurrency: number;
  backoff: Backoff;
}

/** How long a handler may run: the signal fires at this share of the lease, leaving time to record the outcome. */
const LEASE_SHARE = 0.8;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Settles with the signal's reason when it fires; lost races leave it pending, which costs nothing. */
const aborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));

const errorText = (error: unknown) => (error instanceof Error ? error.message || error.name : String(error));

/**
 * Polls the outbox, claims due messages of the kinds it has handlers for (as many as it has free
 * slots) and delivers them off the request path. Each process runs one, under an id of its own.
 */
export class OutboxWorker {
  readonly id = `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
  private readonly kinds: OutboxKind[];
  private readonly deliveries = new Map<Promise<void>, AbortController>();
  private timer: NodeJS.Timeout | undefined;
  private tick: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly handlers: Partial<Record<OutboxKind, OutboxHandler>>,
    private readonly settings: WorkerSettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.kinds = (Object.keys(handlers) as OutboxKind[]).filter((kind) => handlers[kind]);
  }

  start(): void {
    if (this.kinds.length > 0) this.schedule(0);
  }

  /**
   * Stops claiming and lets deliveries under way finish for up to `graceMs`; then aborts the rest,
   * which are recorded as failed attempts and retried later, by this process after a restart or another.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.tick;
    const settled = Promise.allSettled(this.deliveries.keys());
    const late = await Promise.race([settled.then(() => false), pause(graceMs).then(() => true)]);
    if (!late) return;
    for (const controller of this.deliveries.values()) controller.abort(new DeliveryFailure('the service stopped during the delivery'));
    await Promise.race([settled, pause(graceMs)]);
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.tick ??= this.claim().finally(() => {
        this.tick = undefined;
        this.schedule(this.settings.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async claim(): Promise<void> {
    const free = this.settings.concurrency - this.deliveries.size;
    if (free <= 0) return;
    let claims: Claim[];
    try {
      await failAbandoned(this.db);
      claims = await claimDue(this.db, this.id, this.kinds, free, this.settings.leaseMs);
    } catch (error) {
      // The database may be restarting or unreachable: the next tick tries again.
      this.log.error({ err: error }, 'outbox: could not claim messages');
      return;
    }
    for (const claim of claims) {
      const controller = new AbortController();
      const delivery = this.deliver(claim, controller).finally(() => {
        this.deliveries.delete(delivery);
        // A slot is free: look for more at once rather than at the next poll.
        if (!this.tick) this.schedule(0);
      });
      this.deliveries.set(delivery, controller);
    }
  }

  private async deliver(claim: Claim, controller: AbortController): Promise<void> {
    const limitMs = Math.floor(this.settings.leaseMs * LEASE_SHARE);
    const timer = setTimeout(() => controller.abort(new DeliveryFailure(`no answer within ${limitMs} ms`)), limitMs);
    const startedAt = new Date();
    const outcome = await this.attempt(claim, controller.signal).finally(() => clearTimeout(timer));
    const durationMs = Date.now() - startedAt.getTime();
    try {
      const held = await recordOutcome(this.db, this.id, claim.message, { ...outcome, startedAt, durationMs });
      if (!held)
        this.log.warn(
          { messageId: claim.message.id, attempt: claim.message.attempt },
          'outbox: the claim had expired; the attempt is recorded, the message left as is',
        );
    } catch (error) {
      // The claim expires and the message is delivered again: at least once.
      this.log.error({ err: error, messageId: claim.message.id }, 'outbox: could not record a delivery attempt');
    }
  }

  /** Runs the handler; whatever it throws (or an abort it ignores) is this attempt's failure, never the loop's. */
  private async attempt(claim: Claim, signal: AbortSignal): Promise<Outcome> {
    try {
      const handler = this.handlers[claim.message.kind];
      if (!handler) throw new DeliveryFailure(`no handler for ${claim.message.kind} messages`);
      const answer = await Promise.race([handler(claim.message, signal), aborted(signal)]);
      return { outcome: 'delivered', statusCode: answer?.statusCode };
    } catch (error) {
      const failure = error instanceof DeliveryFailure ? error : undefined;
      const statusCode = failure?.statusCode;
      if (failure?.permanent || claim.message.attempt >= claim.maxAttempts)
        return { outcome: 'failed', statusCode, error: errorText(error) };
      return { outcome: 'retry', statusCode, error: errorText(error), retryInMs: retryDelay(claim.message.attempt, this.settings.backoff) };
    }
  }
}
