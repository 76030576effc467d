import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { dataOf, type Api } from './client.js';

/*
 * The resources as the contract's tables and docs/resources.md describe them: their fields, the
 * shapes of their answers and bodies that carry every field.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** ISO 8601 in UTC with milliseconds. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type Obj = Record<string, unknown>;

export interface Participant {
  id: string;
  name: string;
  email: string;
  role_id: string | null;
  external_id: string | null;
  phone: string | null;
  tags: string[];
  profile: Obj | null;
  background: Obj | null;
  resume_url: string | null;
  pipeline_id: string | null;
  metadata: Obj | null;
  status: 'active' | 'archived';
  created_at: string;
  updated_at: string;
}

export interface Role {
  id: string;
  template_name: string;
  use_case: string;
  description: string;
  objective: string;
  success_outcome: string;
  status: string;
  domain: string | null;
  level: string | null;
  requirements: string | null;
  skills: string[];
  soft_skills: string[];
  additional_notes: string | null;
  default_duration_minutes: number;
  default_difficulty: string;
  default_session_mode: string;
  visibility: string;
  created_at: string;
  updated_at: string;
}

export interface Round {
  id: string;
  role_id: string;
  stage_name: string;
  stage_type: string | null;
  duration_minutes: number;
  interviewer_id: string | null;
  stage_order: number;
  difficulty: string | null;
  pass_threshold: number | null;
  automation_rule: string | null;
  status: string;
  created_at: string;
  updated_at: string;
}

interface Dimension {
  name: string;
  description: string;
  weight: number;
}

export interface Interviewer {
  id: string;
  name: string;
  persona: string;
  useCase: string;
  evaluationDimensions: Dimension[];
  context: Obj | null;
  interaction: Obj | null;
  scoring: Obj | null;
  output: Obj;
  additionalInstructions: string | null;
  isPublic: boolean;
  forkedFrom?: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Program {
  id: string;
  name: string;
  description: string | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface BulkResult {
  created: number;
  rejected: number;
  results: Array<{
    index: number;
    status: 'created' | 'rejected';
    id?: string;
    error?: string;
    issues?: Array<{ path: string[]; message: string }>;
  }>;
}

/** Every field of the contract's table (and docs/resources.md for programs), plus id and timestamps. */
export const FIELDS = {
  participant: [
    'id',
    'name',
    'email',
    'role_id',
    'external_id',
    'phone',
    'tags',
    'profile',
    'background',
    'resume_url',
    'pipeline_id',
    'metadata',
    'status',
    'created_at',
    'updated_at',
  ],
  role: [
    'id',
    'template_name',
    'use_case',
    'description',
    'objective',
    'success_outcome',
    'status',
    'domain',
    'level',
    'requirements',
    'skills',
    'soft_skills',
    'additional_notes',
    'default_duration_minutes',
    'default_difficulty',
    'default_session_mode',
    'visibility',
    'created_at',
    'updated_at',
  ],
  round: [
    'id',
    'role_id',
    'stage_name',
    'stage_type',
    'duration_minutes',
    'interviewer_id',
    'stage_order',
    'difficulty',
    'pass_threshold',
    'automation_rule',
    'status',
    'created_at',
    'updated_at',
  ],
  interviewer: [
    'id',
    'name',
    'persona',
    'useCase',
    'evaluationDimensions',
    'context',
    'interaction',
    'scoring',
    'output',
    'additionalInstructions',
    'isPublic',
    'createdAt',
    'updatedAt',
  ],
  program: ['id', 'name', 'description', 'status', 'created_at', 'updated_at'],
} as const;

export type Kind = keyof typeof FIELDS;

export const PATHS: Record<Kind, string> = {
  participant: '/api/v1/participants',
  role: '/api/v1/roles',
  round: '/api/v1/rounds',
  interviewer: '/api/v1/interviewers',
  program: '/api/v1/programs',
};

const camel = (kind: Kind) => kind === 'interviewer';

/**
 * Asserts that `actual` has every field of its table, with exactly the `expected` values; the id
 * and timestamps default to "a UUID" and "an ISO 8601 UTC instant with milliseconds".
 */
export function expectResource(kind: Kind, actual: unknown, expected: Obj): void {
  expect(actual, `${kind} is an object`).toBeTypeOf('object');
  const resource = actual as Obj;
  const missing = FIELDS[kind].filter((field) => !(field in resource));
  expect(missing, `${kind} lacks fields: ${JSON.stringify(resource)}`).toEqual([]);
  const [created, updated] = camel(kind) ? ['createdAt', 'updatedAt'] : ['created_at', 'updated_at'];
  const want: Obj = {
    id: expect.stringMatching(UUID),
    [created]: expect.stringMatching(TIMESTAMP),
    [updated]: expect.stringMatching(TIMESTAMP),
    ...expected,
  };
  const unlisted = Object.keys(want).filter((field) => !(FIELDS[kind] as readonly string[]).includes(field));
  const picked = Object.fromEntries([...FIELDS[kind], ...unlisted].map((field) => [field, resource[field]]));
  expect(picked, `${kind} ${String(resource.id)}`).toEqual(want);
  expect(Date.parse(String(resource[updated])), `${kind} ${updated} ≥ ${created}`).toBeGreaterThanOrEqual(
    Date.parse(String(resource[created])),
  );
}

/** A unique suffix, so that tests never collide on names or emails. */
export const unique = () => randomUUID().slice(0, 8);

// ---- bodies carrying every field ----

export function fullRoleBody(): Obj {
  return {
    template_name: 'Senior Backend Engineer — Zoë’s team 李',
    use_case: 'hiring',
    description: 'A backend role on the payments platform. Owns services end to end.',
    objective: 'Decide whether the candidate can design and run a payments service.',
    success_outcome: 'pass_fail',
    status: 'draft',
    domain: 'Fintech',
    level: 'Senior',
    requirements: 'Designs idempotent APIs; reasons about transactions.',
    skills: ['TypeScript', 'PostgreSQL', 'Distributed systems'],
    soft_skills: ['Ownership', 'Clear writing'],
    additional_notes: 'Remote-first; the team is in UTC+1.',
    default_duration_minutes: 45,
    default_difficulty: 'advanced',
    default_session_mode: 'async_interview',
    visibility: 'organization',
  };
}

/** Six weights whose floating-point sum is 100.00000000000001: within the 1e-9 the docs allow. */
const SIX_DIMENSIONS: Dimension[] = [
  { name: 'Problem solving', description: 'Breaks the problem down', weight: 16.7 },
  { name: 'Communication', description: 'Explains trade-offs', weight: 16.7 },
  { name: 'Code quality', description: 'Readable, tested code', weight: 16.6 },
  { name: 'System design', description: 'Sound architecture', weight: 16.7 },
  { name: 'Debugging', description: 'Finds the cause', weight: 16.6 },
  { name: 'Collaboration', description: 'Works with others', weight: 16.7 },
];

export function fullInterviewerBody(): Obj {
  return {
    name: 'Ada, the technical screener',
    persona: 'I am Ada, a staff engineer. I will ask you about systems you have built.',
    useCase: 'hiring',
    evaluationDimensions: SIX_DIMENSIONS,
    context: {
      organizationContext: 'A payments company of 200 people',
      domainContext: 'Card payments and ledgers',
      scenarioContext: 'Phone screen for a senior backend role',
    },
    interaction: { tone: 'challenging', style: 'conversational', difficulty: 'hard', probingDepth: 'high' },
    scoring: { scale: '0-5', scoringMethod: 'rule_based', recommendationLogic: 'hire when every dimension is at least 3' },
    output: { includeTranscript: false, includeScoreBreakdown: true, includeRecommendation: false, includeImprovementFeedback: true },
    additionalInstructions: 'Never reveal the scoring rubric.',
    isPublic: false,
  };
}

export function minimalInterviewerBody(name = `Interviewer ${unique()}`): Obj {
  return {
    name,
    persona: 'A friendly interviewer',
    useCase: 'training',
    evaluationDimensions: [{ name: 'Clarity', description: 'Is it clear', weight: 100 }],
  };
}

export function minimalRoleBody(useCase = 'hiring'): Obj {
  return {
    template_name: `Role ${unique()}`,
    use_case: useCase,
    description: 'A role.',
    objective: 'Decide.',
  };
}

export function fullParticipantBody(roleId: string, programId: string, email = `Ada.Lovelace.${unique()}@Example.com`): Obj {
  return {
    name: 'Ada Lovelace-Byron Ö',
    email,
    role_id: roleId,
    external_id: 'ats-000123',
    phone: '+44 20 7946 0958',
    tags: ['priority', 'referral', 'priority-2'],
    profile: { title: 'Engineer', organization: 'Analytical Engines Ltd', experienceLevel: 'senior', location: 'London' },
    background: { skills: ['mathematics', 'poetry'], education: 'Private tutoring', languages: ['en', 'fr'] },
    resume_url: 'https://example.com/resumes/ada-lovelace.pdf',
    pipeline_id: programId,
    metadata: { source: 'referral', score: 9.5, count: 3, flags: { vip: true, notes: null }, list: [1, 'two', null, false] },
    status: 'archived',
  };
}

/** The answer every create of a participant with only name and email must give for the rest. */
export const PARTICIPANT_DEFAULTS: Obj = {
  role_id: null,
  external_id: null,
  phone: null,
  tags: [],
  profile: null,
  background: null,
  resume_url: null,
  pipeline_id: null,
  metadata: null,
  status: 'active',
};

export const INTERVIEWER_DEFAULTS: Obj = {
  context: null,
  interaction: null,
  scoring: null,
  output: { includeTranscript: true, includeScoreBreakdown: true, includeRecommendation: true, includeImprovementFeedback: true },
  additionalInstructions: null,
  isPublic: false,
};

// ---- creating through the API ----

async function create<T>(api: Api, kind: Kind, body: Obj): Promise<T> {
  return dataOf<T>(await api.post(PATHS[kind], body), 201);
}

export const createRole = (api: Api, body: Obj = minimalRoleBody()) => create<Role>(api, 'role', body);
export const createInterviewer = (api: Api, body: Obj = minimalInterviewerBody()) => create<Interviewer>(api, 'interviewer', body);
export const createProgram = (api: Api, body: Obj = { name: `Program ${unique()}` }) => create<Program>(api, 'program', body);
export const createRound = (api: Api, roleId: string, body: Obj = {}) =>
  create<Round>(api, 'round', { role_id: roleId, stage_name: `Stage ${unique()}`, ...body });
export const createParticipant = (api: Api, body: Obj = {}) =>
  create<Participant>(api, 'participant', { name: 'Someone', email: `someone.${unique()}@example.com`, ...body });

/** Returns `value` with only `keys`. */
export function pick(value: object, keys: readonly string[]): Obj {
  return Object.fromEntries(keys.map((key) => [key, (value as Obj)[key]]));
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
