import { and, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import { NotFoundError } from '../../web/errors.js';
import type { Pagination } from '../../web/pagination.js';
import { participants } from '../participants/table.js';
import { likePattern } from '../shared/like.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import { missingSession } from './lifecycle.js';
import { presentSession } from './present.js';
import type { recordingItem, scorecardItem, SessionItem, SessionListQuery, transcriptItem } from './shapes.js';
import { scorecards, sessions } from './table.js';

export type ScorecardView = z.output<typeof scorecardItem>;
type ScorecardRow = typeof scorecards.$inferSelect;

/** The scorecard without the transcript and recording, which have their own routes. */
export function presentScorecard(row: ScorecardRow): ScorecardView {
  const { transcript: _transcript, recording_url: _recording, ...scorecard } = present(row);
  return scorecard;
}

/** The filters on the participant, as a subquery of the workspace's participants; undefined when the query has none. */
function participantFilter(db: Db, workspaceId: string, query: SessionListQuery): SQL | undefined {
  const conditions = [
    query.participantEmail ? sql`lower(${participants.email}) = lower(${query.participantEmail})` : undefined,
    query.programId ? eq(participants.pipeline_id, query.programId) : undefined,
    query.search ? ilike(participants.name, likePattern(query.search)) : undefined,
  ].filter((condition) => condition !== undefined);
  if (conditions.length === 0) return undefined;
  const matching = db
    .select({ id: participants.id })
    .from(participants)
    .where(and(eq(participants.workspace_id, workspaceId), ...conditions));
  return inArray(sessions.candidate_id, matching);
}

export function sessionStore(db: Db) {
  const mine = (workspaceId: string, id: string) => and(eq(sessions.workspace_id, workspaceId), eq(sessions.id, id));

  /** The session's scorecard row; 404 when there is no such session or it has none yet. */
  async function scorecardRow(workspaceId: string, id: string): Promise<ScorecardRow> {
    const [row] = await db
      .select()
      .from(scorecards)
      .where(and(eq(scorecards.workspace_id, workspaceId), eq(scorecards.session_id, id)));
    if (row) return row;
    const [session] = await db.select({ status: sessions.status }).from(sessions).where(mine(workspaceId, id));
    if (!session) throw missingSession(id);
    throw new NotFoundError(
      `session ${id} has no scorecard yet (it is ${session.status}); POST /api/v1/sessions/${id}/scorecard completes it`,
    );
  }

  return {
    async get(workspaceId: string, id: string): Promise<SessionItem> {
      const [row] = await db.select().from(sessions).where(mine(workspaceId, id));
      if (!row) throw missingSession(id);
      return presentSession(row);
    },
    async list(workspaceId: string, query: SessionListQuery & Pagination): Promise<{ items: SessionItem[]; total: number }> {
      const where = and(
        eq(sessions.workspace_id, workspaceId),
        query.participantId ? eq(sessions.candidate_id, query.participantId) : undefined,
        query.roleId ? eq(sessions.role_id, query.roleId) : undefined,
        query.roundId ? eq(sessions.interview_id, query.roundId) : undefined,
        query.status ? eq(sessions.status, query.status) : undefined,
        participantFilter(db, workspaceId, query),
      );
      const { rows, total } = await pageOf(db, sessions, where, [desc(sessions.created_at), desc(sessions.id)], query);
      return { items: rows.map(presentSession), total };
    },
    /** False when the workspace has no such participant. */
    async hasParticipant(workspaceId: string, id: string): Promise<boolean> {
      const [row] = await db
        .select({ id: participants.id })
        .from(participants)
        .where(and(eq(participants.workspace_id, workspaceId), eq(participants.id, id)));
      return row !== undefined;
    },
    scorecard: async (workspaceId: string, id: string): Promise<ScorecardView> => presentScorecard(await scorecardRow(workspaceId, id)),
    async transcript(workspaceId: string, id: string): Promise<z.output<typeof transcriptItem>> {
      const { transcript } = await scorecardRow(workspaceId, id);
      if (!transcript) throw new NotFoundError(`session ${id} has no transcript: its scorecard was posted without one`);
      return { session_id: id, transcript };
    },
    async recording(workspaceId: string, id: string): Promise<z.output<typeof recordingItem>> {
      const { recording_url } = await scorecardRow(workspaceId, id);
      if (!recording_url) throw new NotFoundError(`session ${id} has no recording: its scorecard was posted without recording_url`);
      return { session_id: id, recording_url };
    },
  };
}
