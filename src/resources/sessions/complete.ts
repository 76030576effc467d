import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import { ConflictError } from '../../web/errors.js';
import { interviewers } from '../interviewers/table.js';
import { roles } from '../roles/table.js';
import { rounds } from '../rounds/table.js';
import { lockedIn, transition } from './lifecycle.js';
import { announce, contextOf } from './notify.js';
import { computeScorecard, type scorecardBody, type ScorecardContext } from './scorecard.js';
import { presentScorecard, type ScorecardView } from './store.js';
import { scorecards } from './table.js';
import type { SessionRow } from './present.js';

type ScorecardBody = z.output<typeof scorecardBody>;

/** What a session is scored against: its round's interviewer (dimensions, scale), the round's threshold, the role's outcome. */
async function scoringOf(db: Db, row: SessionRow): Promise<ScorecardContext & { interviewerId: string }> {
  const [round] = await db
    .select({ interviewerId: rounds.interviewer_id, passThreshold: rounds.pass_threshold })
    .from(rounds)
    .where(eq(rounds.id, row.interview_id));
  if (!round.interviewerId) {
    throw new ConflictError(
      `round ${row.interview_id} has no interviewer, so there are no dimensions to score; assign one (PATCH /api/v1/rounds/${row.interview_id}) first`,
    );
  }
  const [interviewer] = await db
    .select({ dimensions: interviewers.evaluationDimensions, scoring: interviewers.scoring })
    .from(interviewers)
    .where(eq(interviewers.id, round.interviewerId));
  const [role] = await db.select({ successOutcome: roles.success_outcome }).from(roles).where(eq(roles.id, row.role_id));
  return {
    interviewerId: round.interviewerId,
    dimensions: interviewer.dimensions,
    scale: interviewer.scoring?.scale ?? '0-10',
    passThreshold: round.passThreshold,
    successOutcome: role.successOutcome,
  };
}

/**
 * Closes an in_progress session with the interview engine's report, in one transaction: the computed
 * scorecard stored, the session completed, and session.completed published with the result's summary.
 */
export function completeSession(db: Db, workspaceId: string, id: string, body: ScorecardBody): Promise<ScorecardView> {
  return db.transaction(async (tx) => {
    // Locked, so that the checks below and the completion see one state of the session.
    const session = await lockedIn(tx, workspaceId, id, 'scored', ['in_progress']);
    const { interviewerId, ...context } = await scoringOf(tx, session);
    const computed = computeScorecard(body, context);
    const completed = await transition(tx, workspaceId, id, 'complete');
    const [stored] = await tx
      .insert(scorecards)
      .values({
        session_id: id,
        workspace_id: workspaceId,
        interviewer_id: interviewerId,
        ...computed,
        summary: body.summary,
        transcript: body.transcript,
        recording_url: body.recording_url,
      })
      .returning();
    const { weighted_score, passed, recommendation } = computed;
    const { participant } = await contextOf(tx, completed);
    await announce(tx, 'session.completed', completed, participant.external_id, { scorecard: { weighted_score, passed, recommendation } });
    return presentScorecard(stored);
  });
}
