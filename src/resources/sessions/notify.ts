import { eq } from 'drizzle-orm';
import { enqueue, type Db } from '../../platform/index.js';
import { participants } from '../participants/table.js';
import { roles } from '../roles/table.js';
import { rounds } from '../rounds/table.js';
import { publishEvent, type EventType } from '../webhooks/publish.js';
import { composeInvite } from './invite.js';
import { presentSession, type SessionRow } from './present.js';

/** Who and what a session's invite and events speak of. */
export interface SessionContext {
  participant: { name: string; email: string; external_id: string | null };
  roleName: string;
  round: { stage_name: string; duration_minutes: number };
}

/** The participant, role and round of a session (the foreign keys guarantee all three exist, in its workspace). */
export async function contextOf(db: Db, row: SessionRow): Promise<SessionContext> {
  const [context] = await db
    .select({
      participant: { name: participants.name, email: participants.email, external_id: participants.external_id },
      roleName: roles.template_name,
      round: { stage_name: rounds.stage_name, duration_minutes: rounds.duration_minutes },
    })
    .from(participants)
    .innerJoin(roles, eq(roles.id, row.role_id))
    .innerJoin(rounds, eq(rounds.id, row.interview_id))
    .where(eq(participants.id, row.candidate_id));
  return context;
}

export type InviteTopic = 'invite' | 'invite.update' | 'invite.resend';

/**
 * Calendars replace an event they hold only when SEQUENCE rises: the first invite is 0, every later
 * message the seconds elapsed since the session was created, which rise without a counter to keep.
 */
const sequenceOf = (row: SessionRow, topic: InviteTopic) =>
  topic === 'invite' ? 0 : Math.max(1, Math.floor((Date.now() - row.created_at.getTime()) / 1000));

/** In the caller's transaction: the invite email, or the notice of a new time, waiting in the outbox. */
export async function queueInvite(db: Db, row: SessionRow, context: SessionContext, topic: InviteTopic, from: string): Promise<void> {
  const message = composeInvite({
    kind: topic === 'invite.update' ? 'update' : 'invite',
    sessionId: row.id,
    scheduledAt: row.scheduled_at?.toISOString() ?? null,
    timezone: row.timezone,
    durationMinutes: context.round.duration_minutes,
    participant: context.participant,
    roleName: context.roleName,
    roundName: context.round.stage_name,
    from,
    sequence: sequenceOf(row, topic),
  });
  await enqueue(db, { workspaceId: row.workspace_id, kind: 'email', topic, targetId: row.id, payload: { ...message } });
}

/** In the caller's transaction: a session event for the workspace's webhooks, with the session as answered and the participant's external_id. */
export async function announce(
  db: Db,
  type: Extract<EventType, `session.${string}`>,
  row: SessionRow,
  externalId: string | null,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await publishEvent(db, { workspaceId: row.workspace_id, type, data: { ...presentSession(row), ...extra }, externalId });
}
