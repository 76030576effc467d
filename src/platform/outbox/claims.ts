import { and, asc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import type { ClaimedMessage } from './delivery.js';
import type { OutboxKind } from './enqueue.js';
import { outboxAttempts, outboxMessages } from './table.js';

/** The database's clock plus `ms`: every process compares leases and due times on the one clock. */
const fromNow = (ms: number) => sql`now() + make_interval(secs => ${ms / 1000})`;

export interface Claim {
  message: ClaimedMessage;
  maxAttempts: number;
}

/**
 * Claims up to `limit` due messages of these kinds for `workerId` until the lease ends, in one
 * statement. SKIP LOCKED passes over rows another process is claiming; a row it has just claimed no
 * longer matches (PostgreSQL re-checks the condition on the locked row), so no two claims overlap.
 */
export async function claimDue(db: Db, workerId: string, kinds: readonly OutboxKind[], limit: number, leaseMs: number): Promise<Claim[]> {
  const due = db
    .select({ id: outboxMessages.id })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.status, 'pending'),
        inArray(outboxMessages.kind, [...kinds]),
        lt(outboxMessages.attempts, outboxMessages.max_attempts),
        lte(outboxMessages.next_attempt_at, sql`now()`),
        or(isNull(outboxMessages.claimed_until), lt(outboxMessages.claimed_until, sql`now()`)),
      ),
    )
    .orderBy(asc(outboxMessages.next_attempt_at))
    .limit(limit)
    .for('update', { skipLocked: true });
  // The attempt is counted at the claim, so a message whose delivery kills the process still runs out of attempts.
  const rows = await db
    .update(outboxMessages)
    .set({ claimed_by: workerId, claimed_until: fromNow(leaseMs), attempts: sql`${outboxMessages.attempts} + 1` })
    .where(inArray(outboxMessages.id, due))
    .returning();
  return rows.map((row) => ({
    message: {
      id: row.id,
      workspaceId: row.workspace_id,
      kind: row.kind as OutboxKind,
      topic: row.topic,
      targetId: row.target_id,
      payload: row.payload,
      attempt: row.attempts,
    },
    maxAttempts: row.max_attempts,
  }));
}

/**
 * Fails the messages whose last attempt never reported back (its process died, or lost the database,
 * and the lease ran out): delivering them again would go past max_attempts, and a message that kills
 * the process delivering it would otherwise do so forever.
 */
export async function failAbandoned(db: Db): Promise<void> {
  await db
    .update(outboxMessages)
    .set({
      status: 'failed',
      claimed_until: null,
      last_error: 'the last attempt never reported back: its process stopped during the delivery',
    })
    .where(
      and(
        eq(outboxMessages.status, 'pending'),
        gte(outboxMessages.attempts, outboxMessages.max_attempts),
        lt(outboxMessages.claimed_until, sql`now()`),
      ),
    );
}

export type Outcome =
  | { outcome: 'delivered'; statusCode?: number }
  | { outcome: 'retry'; statusCode?: number; error: string; retryInMs: number }
  | { outcome: 'failed'; statusCode?: number; error: string };

const ERROR_LENGTH = 2000;

/**
 * Records the attempt and moves the message on (delivered, due again later, or failed), the latter
 * only while `workerId` still holds this attempt's claim. False when it no longer did: the lease had
 * ended and the message is another claim's now.
 */
export async function recordOutcome(
  db: Db,
  workerId: string,
  message: ClaimedMessage,
  attempt: { startedAt: Date; durationMs: number } & Outcome,
): Promise<boolean> {
  const error = attempt.outcome === 'delivered' ? null : attempt.error.slice(0, ERROR_LENGTH);
  const statusCode = attempt.statusCode ?? null;
  const next =
    attempt.outcome === 'delivered'
      ? { status: 'delivered', delivered_at: sql`now()` }
      : attempt.outcome === 'retry'
        ? { next_attempt_at: fromNow(attempt.retryInMs), claimed_by: null }
        : { status: 'failed' };
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(outboxMessages)
      .set({ ...next, claimed_until: null, last_status_code: statusCode, last_error: error })
      .where(
        and(
          eq(outboxMessages.id, message.id),
          eq(outboxMessages.status, 'pending'),
          eq(outboxMessages.claimed_by, workerId),
          eq(outboxMessages.attempts, message.attempt),
        ),
      )
      .returning({ id: outboxMessages.id });
    await tx.insert(outboxAttempts).values({
      message_id: message.id,
      attempt: message.attempt,
      started_at: attempt.startedAt,
      duration_ms: attempt.durationMs,
      outcome: attempt.outcome,
      status_code: statusCode,
      error,
    });
    return moved.length > 0;
  });
}
