import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  foreignKey,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { participants } from '../participants/table.js';
import { roles } from '../roles/table.js';
import { rounds } from '../rounds/table.js';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';

const moment = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/** One entry of a session's status history: every transition, with who-knows-why. */
export interface StatusChange {
  status: string;
  at: string;
  reason?: string;
}

export const sessions = pgTable(
  'sessions',
  {
    ...ownedColumns(),
    candidate_id: uuid('candidate_id').notNull(),
    role_id: uuid('role_id').notNull(),
    interview_id: uuid('interview_id').notNull(),
    stage: text('stage'),
    idempotency_key: text('idempotency_key'),
    scheduled_at: moment('scheduled_at'),
    timezone: text('timezone').notNull().default('UTC'),
    notes: text('notes'),
    status: text('status').notNull().default('scheduled'),
    // Created with force: true; such a session is left out of the duplicate index below.
    forced: boolean('forced').notNull().default(false),
    failure_reason: text('failure_reason'),
    status_history: jsonb('status_history').$type<StatusChange[]>().notNull().default([]),
    started_at: moment('started_at'),
    ended_at: moment('ended_at'),
    ...snakeTimestamps(),
  },
  (t) => [
    unique('sessions_workspace_key').on(t.workspace_id, t.id),
    // One session per workspace and key, decided by the database even when two creates race.
    uniqueIndex('sessions_idempotency_key').on(t.workspace_id, t.idempotency_key),
    // At most one open, unforced session per participant and round: the race the read-check cannot see.
    uniqueIndex('sessions_open_key')
      .on(t.workspace_id, t.candidate_id, t.interview_id)
      .where(sql`status IN ('scheduled', 'in_progress') AND NOT forced`),
    foreignKey({
      name: 'sessions_participant_fk',
      columns: [t.workspace_id, t.candidate_id],
      foreignColumns: [participants.workspace_id, participants.id],
    }),
    foreignKey({ name: 'sessions_role_fk', columns: [t.workspace_id, t.role_id], foreignColumns: [roles.workspace_id, roles.id] }),
    foreignKey({ name: 'sessions_round_fk', columns: [t.workspace_id, t.interview_id], foreignColumns: [rounds.workspace_id, rounds.id] }),
    index('sessions_workspace_created').on(t.workspace_id, t.created_at, t.id),
    index('sessions_candidate').on(t.candidate_id),
  ],
);

/** One scored dimension of a scorecard, with the weight it had when it was scored. */
export interface DimensionScore {
  name: string;
  score: number;
  weight: number;
}

/** One turn of a transcript. */
export interface TranscriptTurn {
  speaker: string;
  text: string;
  at: string;
}

/** What the interview engine reported when it closed a session, and what the service computed from it. */
export const scorecards = pgTable(
  'scorecards',
  {
    session_id: uuid('session_id').primaryKey(),
    workspace_id: uuid('workspace_id').notNull(),
    interviewer_id: uuid('interviewer_id'),
    scale: text('scale').notNull(),
    scores: jsonb('scores').$type<DimensionScore[]>().notNull(),
    weighted_score: doublePrecision('weighted_score').notNull(),
    pass_threshold: doublePrecision('pass_threshold'),
    passed: boolean('passed').notNull(),
    recommendation: text('recommendation').notNull(),
    summary: text('summary'),
    transcript: jsonb('transcript').$type<TranscriptTurn[]>(),
    recording_url: text('recording_url'),
    created_at: moment('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'scorecards_session_fk',
      columns: [t.workspace_id, t.session_id],
      foreignColumns: [sessions.workspace_id, sessions.id],
    }).onDelete('cascade'),
  ],
);
