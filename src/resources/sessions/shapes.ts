import { z } from 'zod';
import { paginationQuery } from '../../web/pagination.js';
import { timestampField, uuidField } from '../shared/fields.js';

const SESSION_STATUSES = ['scheduled', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
const sessionStatus = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof sessionStatus>;

/** Intl knows the IANA names (and their aliases, in any case); the first letter keeps out the offsets newer Node versions accept. */
function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z]/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const timeZone = z.string().max(64).refine(isTimeZone, 'must be an IANA time zone name, such as Europe/Paris or UTC');

/** A moment with its offset (Z or ±hh:mm), read as an instant: stored and answered in UTC. */
const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with an offset, such as 2026-03-01T09:30:00+01:00' });
const asDate = instant.transform((value) => new Date(value));

const reason = z.string().min(1, 'must not be empty').max(1000);

export const sessionCreate = z.strictObject({
  candidate_id: uuidField.describe('the participant to interview'),
  role_id: uuidField,
  stage: z.string().max(200).optional().describe('a label such as screen, technical, final; stored as given'),
  interview_id: uuidField.optional().describe("the round; when omitted, the role's first active round by stage_order"),
  idempotency_key: z.string().min(1, 'must not be empty').max(255).optional(),
  scheduled_at: asDate.optional(),
  timezone: timeZone.default('UTC'),
  notes: z.string().max(1000).optional().describe('internal, never shown to the participant'),
  force: z.boolean().default(false).describe('schedule even when the participant has an open session in the round'),
  accountSlug: z.string().optional().describe('with session authentication: the workspace'),
});
export type SessionCreate = z.output<typeof sessionCreate>;

export const sessionReschedule = z.strictObject({ scheduled_at: asDate });

export const failBody = z.strictObject({ reason: reason.describe('why the interview failed; kept as failure_reason') });

/** Sent without a body, or with one: the route parses it itself (see lifecycle-routes.ts). */
export const cancelBody = z.strictObject({ reason: reason.optional().describe('kept in status_history') });

const statusChange = z.object({ status: sessionStatus, at: timestampField, reason: z.string().optional() });

export const sessionItem = z.object({
  id: uuidField,
  candidate_id: uuidField,
  role_id: uuidField,
  interview_id: uuidField,
  stage: z.string().nullable(),
  idempotency_key: z.string().nullable(),
  scheduled_at: timestampField.nullable(),
  timezone: z.string(),
  notes: z.string().nullable(),
  status: sessionStatus,
  failure_reason: z.string().nullable().describe('the reason given to POST /sessions/{id}/fail'),
  status_history: z.array(statusChange).describe('every status the session has had, oldest first'),
  started_at: timestampField.nullable(),
  ended_at: timestampField.nullable().describe('when it was completed, failed or cancelled'),
  created_at: timestampField,
  updated_at: timestampField,
});
export type SessionItem = z.infer<typeof sessionItem>;

/** What a create answers: 201 with `idempotent: false`, or 200 with the earlier session and `idempotent: true`. */
export const sessionCreated = sessionItem.extend({
  idempotent: z.boolean().describe('true when idempotency_key named an earlier session, which is returned unchanged'),
});

export const sessionListQuery = paginationQuery.extend({
  participantId: uuidField.optional(),
  participantEmail: z.string().max(254).optional().describe("the participant's email, compared case-insensitively"),
  roleId: uuidField.optional(),
  roundId: uuidField.optional(),
  status: sessionStatus.optional(),
  programId: uuidField.optional().describe("the participant's program (pipeline_id)"),
  search: z.string().max(200).optional().describe("case-insensitive substring of the participant's name"),
});
export type SessionListQuery = z.output<typeof sessionListQuery>;

export const participantSessionsQuery = paginationQuery.extend({ status: sessionStatus.optional() });

export const success = z.object({ success: z.literal(true) });

const dimensionScore = z.object({ name: z.string(), score: z.number(), weight: z.number() });

export const scorecardItem = z.object({
  session_id: uuidField,
  interviewer_id: uuidField.nullable(),
  scale: z.string(),
  scores: z.array(dimensionScore),
  weighted_score: z.number().describe("the weighted average of the scores, on the interviewer's scale"),
  pass_threshold: z.number().nullable().describe('a percentage of the scale'),
  passed: z.boolean(),
  recommendation: z.string().describe("in the vocabulary of the role's success_outcome"),
  summary: z.string().nullable(),
  created_at: timestampField,
});

export const transcriptItem = z.object({
  session_id: uuidField,
  transcript: z.array(z.object({ speaker: z.string(), text: z.string(), at: z.string() })),
});

export const recordingItem = z.object({ session_id: uuidField, recording_url: z.string() });
