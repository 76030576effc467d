import { and, asc, eq, inArray } from 'drizzle-orm';
import { spendCredit, type Db } from '../../platform/index.js';
import { ConflictError, PaymentRequiredError, ValidationError, type Issue } from '../../web/errors.js';
import { participants } from '../participants/table.js';
import { roles } from '../roles/table.js';
import { rounds } from '../rounds/table.js';
import { writing, type Constraints } from '../shared/write-errors.js';
import { announce, contextOf, queueInvite } from './notify.js';
import { presentSession, type SessionRow } from './present.js';
import type { SessionCreate, SessionItem } from './shapes.js';
import { sessions } from './table.js';

const CONSTRAINTS: Constraints = {
  references: {
    sessions_participant_fk: { field: 'candidate_id', noun: 'participant' },
    sessions_role_fk: { field: 'role_id', noun: 'role' },
    sessions_round_fk: { field: 'interview_id', noun: 'round' },
  },
  conflicts: {
    sessions_open_key: 'the participant already has a scheduled or in_progress session in this round; send force: true to schedule another',
  },
};

const OPEN_STATUSES = ['scheduled', 'in_progress'];

export interface Created {
  session: SessionItem;
  /** True when the idempotency key named an earlier session, returned as it is. */
  idempotent: boolean;
}

const replay = (row: SessionRow): Created => ({ session: presentSession(row), idempotent: true });

async function byKey(db: Db, workspaceId: string, key: string): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.workspace_id, workspaceId), eq(sessions.idempotency_key, key)));
  return row;
}

/** The round the session is for: the one named, which must belong to the role, or the role's first active round. */
async function roundFor(db: Db, workspaceId: string, body: SessionCreate): Promise<string> {
  if (body.interview_id) {
    const [round] = await db
      .select({ role_id: rounds.role_id })
      .from(rounds)
      .where(and(eq(rounds.workspace_id, workspaceId), eq(rounds.id, body.interview_id)));
    if (!round) throw ValidationError.field(['interview_id'], 'no round with this id in the workspace');
    if (round.role_id !== body.role_id)
      throw ValidationError.field(['interview_id'], `is a round of role ${round.role_id}, not of role_id`);
    return body.interview_id;
  }
  const [first] = await db
    .select({ id: rounds.id })
    .from(rounds)
    .where(and(eq(rounds.workspace_id, workspaceId), eq(rounds.role_id, body.role_id), eq(rounds.status, 'active')))
    .orderBy(asc(rounds.stage_order), asc(rounds.created_at), asc(rounds.id))
    .limit(1);
  if (!first) throw ValidationError.field(['interview_id'], `role ${body.role_id} has no active round; create one or name interview_id`);
  return first.id;
}

/** Checks the participant and the role together, so that a body naming two unknown ids hears of both. */
async function checkReferences(db: Db, workspaceId: string, body: SessionCreate): Promise<void> {
  const [participant] = await db
    .select({ id: participants.id })
    .from(participants)
    .where(and(eq(participants.workspace_id, workspaceId), eq(participants.id, body.candidate_id)));
  const [role] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.workspace_id, workspaceId), eq(roles.id, body.role_id)));
  const issues: Issue[] = [
    ...(participant ? [] : [{ path: ['candidate_id'], message: 'no participant with this id in the workspace' }]),
    ...(role ? [] : [{ path: ['role_id'], message: 'no role with this id in the workspace' }]),
  ];
  if (issues.length > 0) throw ValidationError.fromIssues(issues);
}

async function refuseDuplicate(db: Db, workspaceId: string, candidateId: string, roundId: string): Promise<void> {
  const [open] = await db
    .select({ id: sessions.id, status: sessions.status })
    .from(sessions)
    .where(
      and(
        eq(sessions.workspace_id, workspaceId),
        eq(sessions.candidate_id, candidateId),
        eq(sessions.interview_id, roundId),
        inArray(sessions.status, OPEN_STATUSES),
      ),
    )
    .limit(1);
  if (open) {
    throw new ConflictError(
      `participant ${candidateId} already has a ${open.status} session (${open.id}) in round ${roundId}; send force: true to schedule another`,
    );
  }
}

/**
 * One transaction: the session, one credit, the invite and the session.created event, or none of them.
 * The idempotency key is decided by the unique index (ON CONFLICT DO NOTHING), so of racing creates
 * with one key exactly one inserts and spends; the others return its session.
 */
async function createIn(db: Db, workspaceId: string, body: SessionCreate, mailFrom: string): Promise<Created> {
  const key = body.idempotency_key;
  const earlier = key ? await byKey(db, workspaceId, key) : undefined;
  if (earlier) return replay(earlier);
  await checkReferences(db, workspaceId, body);
  const roundId = await roundFor(db, workspaceId, body);
  if (!body.force) await refuseDuplicate(db, workspaceId, body.candidate_id, roundId);
  // One moment for the row and its first history entry (the database's now() is the transaction's start).
  const now = new Date();
  const [row] = await writing(
    db
      .insert(sessions)
      .values({
        workspace_id: workspaceId,
        candidate_id: body.candidate_id,
        role_id: body.role_id,
        interview_id: roundId,
        stage: body.stage,
        idempotency_key: key,
        scheduled_at: body.scheduled_at,
        timezone: body.timezone,
        notes: body.notes,
        forced: body.force,
        status_history: [{ status: 'scheduled', at: now.toISOString() }],
        created_at: now,
        updated_at: now,
      })
      .onConflictDoNothing({ target: [sessions.workspace_id, sessions.idempotency_key] })
      .returning(),
    CONSTRAINTS,
  );
  // The key's session was committed by a racing create after the read above.
  if (!row) return replay((await byKey(db, workspaceId, key!))!);
  if (!(await spendCredit(db, workspaceId))) throw new PaymentRequiredError('the workspace is out of credits; a session costs one');
  const context = await contextOf(db, row);
  await queueInvite(db, row, context, 'invite', mailFrom);
  await announce(db, 'session.created', row, context.participant.external_id);
  return { session: presentSession(row), idempotent: false };
}

export async function createSession(db: Db, workspaceId: string, body: SessionCreate, mailFrom: string): Promise<Created> {
  try {
    return await db.transaction((tx) => createIn(tx, workspaceId, body, mailFrom));
  } catch (error) {
    // A racing create with the same key can commit between this one's reads and its insert, which then
    // trips on the duplicate rule instead of the key: it is a replay all the same.
    const earlier = error instanceof ConflictError && body.idempotency_key ? await byKey(db, workspaceId, body.idempotency_key) : undefined;
    if (earlier) return replay(earlier);
    throw error;
  }
}
