import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/index.js';
import { ConflictError, NotFoundError } from '../../web/errors.js';
import type { StatusChange } from './table.js';
import { sessions } from './table.js';
import type { SessionRow } from './present.js';
import type { SessionStatus } from './shapes.js';

/** Each move of the lifecycle: the statuses it leaves from, the one it reaches, and the verb its 409 uses. */
const TRANSITIONS = {
  start: { from: ['scheduled'], to: 'in_progress', verb: 'started' },
  complete: { from: ['in_progress'], to: 'completed', verb: 'completed' },
  fail: { from: ['in_progress'], to: 'failed', verb: 'failed' },
  cancel: { from: ['scheduled', 'in_progress'], to: 'cancelled', verb: 'cancelled' },
} as const satisfies Record<string, { from: SessionStatus[]; to: SessionStatus; verb: string }>;
export type Transition = keyof typeof TRANSITIONS;

const mine = (workspaceId: string, id: string) => and(eq(sessions.workspace_id, workspaceId), eq(sessions.id, id));

export const missingSession = (id: string) => new NotFoundError(`session ${id} not found`);

/** Why nothing matched a conditional update: no such session (404), or it is in another status (409 naming it). */
async function refusal(db: Db, workspaceId: string, id: string, what: string, allowed: readonly string[]): Promise<Error> {
  const [row] = await db.select({ status: sessions.status }).from(sessions).where(mine(workspaceId, id));
  if (!row) return missingSession(id);
  const only = allowed.length === 1 ? `a ${allowed[0]} session` : `a ${allowed.join(' or ')} session`;
  return new ConflictError(`session ${id} is ${row.status}; only ${only} can be ${what}`);
}

/**
 * Moves a session along the lifecycle in one conditional UPDATE, so that two racing moves cannot both
 * pass a read-then-write: the status check, the new status, its history entry and its timestamps at once.
 */
export async function transition(db: Db, workspaceId: string, id: string, move: Transition, reason?: string): Promise<SessionRow> {
  const { from, to, verb } = TRANSITIONS[move];
  const now = new Date();
  const entry: StatusChange = { status: to, at: now.toISOString(), ...(reason ? { reason } : {}) };
  const [row] = await db
    .update(sessions)
    .set({
      status: to,
      status_history: sql`${sessions.status_history} || ${JSON.stringify([entry])}::jsonb`,
      updated_at: now,
      ...(to === 'in_progress' ? { started_at: now } : { ended_at: now }),
      ...(to === 'failed' ? { failure_reason: reason } : {}),
    })
    .where(and(mine(workspaceId, id), inArray(sessions.status, [...from])))
    .returning();
  if (!row) throw await refusal(db, workspaceId, id, verb, from);
  return row;
}

/** A new time, only while the session is scheduled (the same one-statement check). */
export async function reschedule(db: Db, workspaceId: string, id: string, scheduledAt: Date): Promise<SessionRow> {
  const [row] = await db
    .update(sessions)
    .set({ scheduled_at: scheduledAt, updated_at: new Date() })
    .where(and(mine(workspaceId, id), eq(sessions.status, 'scheduled')))
    .returning();
  if (!row) throw await refusal(db, workspaceId, id, 'rescheduled', ['scheduled']);
  return row;
}

/** The session, locked until the transaction ends, while it is in one of `allowed`. */
export async function lockedIn(db: Db, workspaceId: string, id: string, what: string, allowed: readonly string[]): Promise<SessionRow> {
  const [row] = await db.select().from(sessions).where(mine(workspaceId, id)).for('update');
  if (!row) throw missingSession(id);
  if (!allowed.includes(row.status)) throw await refusal(db, workspaceId, id, what, allowed);
  return row;
}
