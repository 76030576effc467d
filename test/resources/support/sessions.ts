import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { outboxMessages, type Db } from '../../../src/platform/index.js';
import { webhookEndpoints } from '../../../src/resources/webhooks/table.js';
import { Api, dataOf, type Answer } from './client.js';
import {
  createInterviewer,
  createParticipant,
  createRole,
  createRound,
  unique,
  type Interviewer,
  type Obj,
  type Participant,
  type Role,
  type Round,
} from './resources.js';

export const MAIL_FROM = 'Interviews <interviews@example.test>';

export const SESSIONS = '/api/v1/sessions';

interface StatusChange {
  status: string;
  at: string;
  reason?: string;
}

export interface Session {
  id: string;
  candidate_id: string;
  role_id: string;
  interview_id: string;
  stage: string | null;
  idempotency_key: string | null;
  scheduled_at: string | null;
  timezone: string;
  notes: string | null;
  status: 'scheduled' | 'in_progress' | 'completed' | 'failed' | 'cancelled';
  failure_reason: string | null;
  status_history: StatusChange[];
  started_at: string | null;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
  idempotent?: boolean;
}

/** Every field of a session answer (docs/sessions.md). */
export const SESSION_FIELDS = [
  'id',
  'candidate_id',
  'role_id',
  'interview_id',
  'stage',
  'idempotency_key',
  'scheduled_at',
  'timezone',
  'notes',
  'status',
  'failure_reason',
  'status_history',
  'started_at',
  'ended_at',
  'created_at',
  'updated_at',
] as const;

export interface Scorecard {
  session_id: string;
  interviewer_id: string | null;
  scale: string;
  scores: Array<{ name: string; score: number; weight: number }>;
  weighted_score: number;
  pass_threshold: number | null;
  passed: boolean;
  recommendation: string;
  summary: string | null;
  created_at: string;
}

/** A role with two rounds (the first scored by a two-dimension interviewer on 0-10), and a participant. */
export interface Setup {
  interviewer: Interviewer;
  role: Role;
  first: Round;
  second: Round;
  participant: Participant;
}

const DIMENSIONS = [
  { name: 'Problem solving', description: 'Breaks the problem down', weight: 60 },
  { name: 'Communication', description: 'Explains trade-offs', weight: 40 },
];

export async function setUp(api: Api, participant: Obj = {}): Promise<Setup> {
  const interviewer = await createInterviewer(api, {
    name: `Interviewer ${unique()}`,
    persona: 'A staff engineer',
    useCase: 'hiring',
    evaluationDimensions: DIMENSIONS,
  });
  const role = await createRole(api, {
    template_name: `Backend ${unique()}`,
    use_case: 'hiring',
    description: 'A role.',
    objective: 'Decide.',
  });
  // Created out of order: the first by stage_order is the one created second.
  const second = await createRound(api, role.id, { stage_name: 'Final', stage_order: 2, duration_minutes: 60 });
  const first = await createRound(api, role.id, {
    stage_name: 'Phone screen',
    stage_order: 1,
    duration_minutes: 45,
    interviewer_id: interviewer.id,
    pass_threshold: 70,
  });
  const person = await createParticipant(api, {
    name: `Grace Hopper ${unique()}`,
    external_id: `ats-${unique()}`,
    role_id: role.id,
    ...participant,
  });
  return { interviewer, role, first, second, participant: person };
}

export const createSession = async (api: Api, body: Obj): Promise<Session> => dataOf<Session>(await api.post(SESSIONS, body), 201);

/** POSTs a lifecycle move and returns the answer. */
export const move = (api: Api, id: string, step: 'start' | 'fail' | 'cancel' | 'scorecard', body?: unknown): Promise<Answer> =>
  api.post(`${SESSIONS}/${id}/${step}`, body);

/** Subscribes the workspace to every event with an endpoint row written directly, so that its events land in the outbox. */
export async function subscribe(db: Db, workspaceId: string): Promise<string> {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ workspace_id: workspaceId, url: 'https://hooks.example.test/in', events: ['*'], secret: 'whsec_dGVzdA==' })
    .returning({ id: webhookEndpoints.id });
  return row.id;
}

export interface OutboxRow {
  kind: string;
  topic: string;
  target_id: string | null;
  payload: Record<string, unknown>;
  status: string;
}

/** Outbox messages matching `where`, oldest first. */
function outboxRows(db: Db, where: SQL | undefined): Promise<OutboxRow[]> {
  return db
    .select({
      kind: outboxMessages.kind,
      topic: outboxMessages.topic,
      target_id: outboxMessages.target_id,
      payload: outboxMessages.payload,
      status: outboxMessages.status,
    })
    .from(outboxMessages)
    .where(where)
    .orderBy(asc(outboxMessages.created_at));
}

/** The invite emails of a session, oldest first. */
export const emailsOf = (db: Db, sessionId: string): Promise<OutboxRow[]> =>
  outboxRows(db, and(eq(outboxMessages.kind, 'email'), eq(outboxMessages.target_id, sessionId)));

/** The webhook messages about a session (its id in the payload's data), oldest first. */
export const eventsOf = (db: Db, sessionId: string): Promise<OutboxRow[]> =>
  outboxRows(db, and(eq(outboxMessages.kind, 'webhook'), sql`${outboxMessages.payload} -> 'data' ->> 'id' = ${sessionId}`));

/** The workspace's credits, as the usage route reports them. */
export const creditsOf = async (api: Api): Promise<number> => dataOf<{ credits: number }>(await api.get('/api/v1/usage'), 200).credits;
