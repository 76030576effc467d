import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/platform/index.js';
import type { Scope } from '../../src/platform/scopes.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import {
  dataOf,
  expectError,
  expectIssue,
  expectRateLimitHeaders,
  expectStatus,
  expectUnknownField,
  explain,
  listOf,
  type Answer,
  type Api,
  type Method,
} from './support/client.js';
import {
  FIELDS,
  PATHS,
  createInterviewer,
  createParticipant,
  createProgram,
  createRole,
  createRound,
  fullInterviewerBody,
  fullRoleBody,
  minimalInterviewerBody,
  minimalRoleBody,
  pick,
  unique,
  type BulkResult,
  type Interviewer,
  type Kind,
  type Obj,
  type Participant,
  type Program,
  type Role,
  type Round,
} from './support/resources.js';

interface RouteDef {
  method: Method;
  /** As in the OpenAPI document. */
  path: string;
  scope: Scope;
  /** Query string some calls need (the fork). */
  query?: string;
}

/** Every route of the module with its canonical scope (docs/resources.md, "Scopes"). */
const ROUTES: RouteDef[] = [
  { method: 'POST', path: '/api/v1/participants', scope: 'participants:write' },
  { method: 'POST', path: '/api/v1/participants/bulk', scope: 'participants:write' },
  { method: 'GET', path: '/api/v1/participants', scope: 'participants:read' },
  { method: 'GET', path: '/api/v1/participants/{id}', scope: 'participants:read' },
  { method: 'PATCH', path: '/api/v1/participants/{id}', scope: 'participants:write' },
  { method: 'DELETE', path: '/api/v1/participants/{id}', scope: 'participants:delete' },
  { method: 'GET', path: '/api/v1/participants/{id}/sessions', scope: 'sessions:read' },
  { method: 'POST', path: '/api/v1/roles', scope: 'roles:write' },
  { method: 'GET', path: '/api/v1/roles', scope: 'roles:read' },
  { method: 'GET', path: '/api/v1/roles/{id}', scope: 'roles:read' },
  { method: 'PATCH', path: '/api/v1/roles/{id}', scope: 'roles:write' },
  { method: 'DELETE', path: '/api/v1/roles/{id}', scope: 'roles:delete' },
  { method: 'POST', path: '/api/v1/rounds', scope: 'rounds:write' },
  { method: 'GET', path: '/api/v1/rounds', scope: 'rounds:read' },
  { method: 'GET', path: '/api/v1/rounds/{id}', scope: 'rounds:read' },
  { method: 'PATCH', path: '/api/v1/rounds/{id}', scope: 'rounds:write' },
  { method: 'DELETE', path: '/api/v1/rounds/{id}', scope: 'rounds:delete' },
  { method: 'POST', path: '/api/v1/interviewers', scope: 'interviewers:write' },
  { method: 'POST', path: '/api/v1/interviewers', scope: 'interviewers:write', query: '?action=fork' },
  { method: 'GET', path: '/api/v1/interviewers', scope: 'interviewers:read' },
  { method: 'GET', path: '/api/v1/interviewers/{id}', scope: 'interviewers:read' },
  { method: 'PATCH', path: '/api/v1/interviewers/{id}', scope: 'interviewers:write' },
  { method: 'DELETE', path: '/api/v1/interviewers/{id}', scope: 'interviewers:delete' },
  { method: 'POST', path: '/api/v1/programs', scope: 'programs:write' },
  { method: 'GET', path: '/api/v1/programs', scope: 'programs:read' },
  { method: 'GET', path: '/api/v1/programs/{id}', scope: 'programs:read' },
  { method: 'PATCH', path: '/api/v1/programs/{id}', scope: 'programs:write' },
  { method: 'DELETE', path: '/api/v1/programs/{id}', scope: 'programs:write' },
];
const routeName = (route: RouteDef) => `${route.method} ${route.path}${route.query ?? ''}`;
const withId = (route: RouteDef, id: string) => `${route.path.replace('{id}', id)}${route.query ?? ''}`;
const hasBody = (route: RouteDef) => route.method === 'POST' || route.method === 'PATCH';
const READ_ONLY = 'participants:read,roles:read,rounds:read,interviewers:read,programs:read,sessions:read';

const KINDS = Object.keys(PATHS) as Kind[];
const LIST_ROUTES = [...KINDS.map((kind) => PATHS[kind]), '/api/v1/participants/{id}/sessions'];

/** The fields an update takes (the contract's lists; for roles the two unnamed ones too). */
const UPDATE_FIELDS: Record<Kind, string[]> = {
  participant: [
    'name',
    'email',
    'external_id',
    'phone',
    'tags',
    'status',
    'profile',
    'background',
    'resume_url',
    'role_id',
    'pipeline_id',
    'metadata',
  ],
  role: ['template_name', 'skills', 'soft_skills', 'objective', 'requirements', 'default_duration_minutes', 'status', 'default_difficulty'],
  round: [
    'stage_name',
    'stage_type',
    'duration_minutes',
    'interviewer_id',
    'stage_order',
    'difficulty',
    'pass_threshold',
    'automation_rule',
    'status',
  ],
  interviewer: ['name', 'persona', 'context', 'interaction', 'evaluationDimensions', 'scoring', 'isPublic', 'additionalInstructions'],
  program: ['name', 'description', 'status'],
};
const CREATE_FIELDS = (kind: Kind) =>
  FIELDS[kind].filter((field) => !['id', 'created_at', 'updated_at', 'createdAt', 'updatedAt'].includes(field));

const NOWHERE = '00000000-0000-4000-8000-000000000000';
const long = (length: number) => 'x'.repeat(length);
/** A valid address of `length` characters (64-character local part, labels of at most 63). */
const emailOf = (length: number) => {
  const head = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.`;
  return `${head}${'d'.repeat(length - head.length - 4)}.com`;
};
const dims = (...weights: number[]) => weights.map((weight, index) => ({ name: `D${index}`, description: `dimension ${index}`, weight }));

type JsonObject = { [key: string]: unknown };
const objectAt = (value: unknown, ...keys: string[]): JsonObject | undefined => {
  let current: unknown = value;
  for (const key of keys) current = current && typeof current === 'object' ? (current as JsonObject)[key] : undefined;
  return current && typeof current === 'object' ? (current as JsonObject) : undefined;
};
/** Property names of an object schema, through anyOf/oneOf/allOf. */
function propertyNames(schema: JsonObject | undefined): string[] {
  if (!schema) return [];
  const own = Object.keys(objectAt(schema, 'properties') ?? {});
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(schema[key]) ? (schema[key] as JsonObject[]) : []));
  return [...new Set([...own, ...branches.flatMap((branch) => propertyNames(branch))])];
}

interface Fixtures {
  role: Role;
  interviewer: Interviewer;
  program: Program;
  participant: Participant;
  round: Round;
}

describe.each([pgliteDriver(), postgresDriver()])('validation and access on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;
  let anonymous: Api;
  let mine: Fixtures;
  let theirs: Fixtures & { publicInterviewer: Interviewer };

  beforeAll(async () => {
    server = await startResourcesApp(await driver.env());
    await createWorkspace(server.platform, 'acme');
    await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
    anonymous = server.api();
    const fixtures = async (client: Api): Promise<Fixtures> => {
      const role = await createRole(client, fullRoleBody());
      const interviewer = await createInterviewer(client, fullInterviewerBody());
      const program = await createProgram(client, { name: `Program ${unique()}` });
      const participant = await createParticipant(client, { name: `Person ${unique()}`, role_id: role.id });
      const round = await createRound(client, role.id, { interviewer_id: interviewer.id });
      return { role, interviewer, program, participant, round };
    };
    mine = await fixtures(api);
    theirs = {
      ...(await fixtures(otherApi)),
      publicInterviewer: await createInterviewer(otherApi, { ...minimalInterviewerBody(), isPublic: true }),
    };
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  const participantBody = (extra: Obj = {}) => ({ name: 'Valid Name', email: `valid.${unique()}@example.com`, ...extra });
  const roundBody = (extra: Obj = {}) => ({ role_id: mine.role.id, stage_name: 'Valid stage', ...extra });
  const interviewerBody = (extra: Obj = {}) => ({ ...minimalInterviewerBody(), ...extra });
  const roleBody = (extra: Obj = {}) => ({ ...minimalRoleBody(), ...extra });
  const without = (body: Obj, field: string) => Object.fromEntries(Object.entries(body).filter(([key]) => key !== field));

  type Send = () => Promise<Answer>;
  interface BadCase {
    name: string;
    send: Send;
    /** The field the issues must name; `unknown` when it is a field the body may not carry. */
    field: string | string[];
    unknown?: boolean;
  }
  const postTo =
    (path: string, body: () => unknown): Send =>
    () =>
      api.post(path, body());
  const patchTo =
    (kind: Kind, body: () => unknown): Send =>
    () =>
      api.patch(`${PATHS[kind]}/${mine[kind].id}`, body());

  const BAD_BODIES: BadCase[] = [
    // participants: create
    {
      name: 'POST /participants: name of the wrong type',
      send: postTo(PATHS.participant, () => participantBody({ name: 5 })),
      field: 'name',
    },
    { name: 'POST /participants: name missing', send: postTo(PATHS.participant, () => without(participantBody(), 'name')), field: 'name' },
    {
      name: 'POST /participants: email missing',
      send: postTo(PATHS.participant, () => without(participantBody(), 'email')),
      field: 'email',
    },
    {
      name: 'POST /participants: email not an address',
      send: postTo(PATHS.participant, () => participantBody({ email: 'ada at example' })),
      field: 'email',
    },
    {
      name: 'POST /participants: email of 255 characters',
      send: postTo(PATHS.participant, () => participantBody({ email: emailOf(255) })),
      field: 'email',
    },
    {
      name: 'POST /participants: name of 201 characters',
      send: postTo(PATHS.participant, () => participantBody({ name: long(201) })),
      field: 'name',
    },
    {
      name: 'POST /participants: role_id not a UUID',
      send: postTo(PATHS.participant, () => participantBody({ role_id: 'role-1' })),
      field: 'role_id',
    },
    {
      name: 'POST /participants: role_id unknown',
      send: postTo(PATHS.participant, () => participantBody({ role_id: NOWHERE })),
      field: 'role_id',
    },
    {
      name: 'POST /participants: role_id of another workspace',
      send: postTo(PATHS.participant, () => participantBody({ role_id: theirs.role.id })),
      field: 'role_id',
    },
    {
      name: 'POST /participants: pipeline_id of another workspace',
      send: postTo(PATHS.participant, () => participantBody({ pipeline_id: theirs.program.id })),
      field: 'pipeline_id',
    },
    {
      name: 'POST /participants: pipeline_id unknown',
      send: postTo(PATHS.participant, () => participantBody({ pipeline_id: NOWHERE })),
      field: 'pipeline_id',
    },
    { name: 'POST /participants: tags not a list', send: postTo(PATHS.participant, () => participantBody({ tags: 'vip' })), field: 'tags' },
    {
      name: 'POST /participants: 101 tags',
      send: postTo(PATHS.participant, () => participantBody({ tags: Array.from({ length: 101 }, (_, i) => `t${i}`) })),
      field: 'tags',
    },
    {
      name: 'POST /participants: a tag of 101 characters',
      send: postTo(PATHS.participant, () => participantBody({ tags: [long(101)] })),
      field: 'tags',
    },
    {
      name: 'POST /participants: status unknown',
      send: postTo(PATHS.participant, () => participantBody({ status: 'deleted' })),
      field: 'status',
    },
    {
      name: 'POST /participants: resume_url not a URL',
      send: postTo(PATHS.participant, () => participantBody({ resume_url: 'my cv' })),
      field: 'resume_url',
    },
    {
      name: 'POST /participants: resume_url of 2049 characters',
      send: postTo(PATHS.participant, () => participantBody({ resume_url: `https://example.com/${long(2049 - 20)}` })),
      field: 'resume_url',
    },
    {
      name: 'POST /participants: profile not an object',
      send: postTo(PATHS.participant, () => participantBody({ profile: 'senior' })),
      field: 'profile',
    },
    {
      name: 'POST /participants: background.skills not a list',
      send: postTo(PATHS.participant, () => participantBody({ background: { skills: 'go' } })),
      field: 'background',
    },
    {
      name: 'POST /participants: metadata not an object',
      send: postTo(PATHS.participant, () => participantBody({ metadata: 'x' })),
      field: 'metadata',
    },
    {
      name: 'POST /participants: metadata over 16 KiB',
      send: postTo(PATHS.participant, () => participantBody({ metadata: { blob: long(16 * 1024) } })),
      field: 'metadata',
    },
    {
      name: 'POST /participants: roleId (camelCase) is not a participant field',
      send: postTo(PATHS.participant, () => participantBody({ roleId: mine.role.id })),
      field: 'roleId',
      unknown: true,
    },
    // participants: update
    { name: 'PATCH /participants: email not an address', send: patchTo('participant', () => ({ email: 'nope' })), field: 'email' },
    { name: 'PATCH /participants: status unknown', send: patchTo('participant', () => ({ status: 'hired' })), field: 'status' },
    { name: 'PATCH /participants: name null (required)', send: patchTo('participant', () => ({ name: null })), field: 'name' },
    { name: 'PATCH /participants: email null (required)', send: patchTo('participant', () => ({ email: null })), field: 'email' },
    { name: 'PATCH /participants: tags of the wrong type', send: patchTo('participant', () => ({ tags: [1, 2] })), field: 'tags' },
    {
      name: 'PATCH /participants: role_id of another workspace',
      send: patchTo('participant', () => ({ role_id: theirs.role.id })),
      field: 'role_id',
    },
    {
      name: 'PATCH /participants: pipeline_id of another workspace',
      send: patchTo('participant', () => ({ pipeline_id: theirs.program.id })),
      field: 'pipeline_id',
    },
    {
      name: 'PATCH /participants: pipeline_id unknown',
      send: patchTo('participant', () => ({ pipeline_id: NOWHERE })),
      field: 'pipeline_id',
    },
    {
      name: 'PATCH /participants: unknown field roleId',
      send: patchTo('participant', () => ({ roleId: mine.role.id })),
      field: 'roleId',
      unknown: true,
    },
    // participants: bulk
    { name: 'POST /participants/bulk: participants missing', send: postTo('/api/v1/participants/bulk', () => ({})), field: 'participants' },
    {
      name: 'POST /participants/bulk: participants not a list',
      send: postTo('/api/v1/participants/bulk', () => ({ participants: {} })),
      field: 'participants',
    },
    {
      name: 'POST /participants/bulk: 501 items',
      send: postTo('/api/v1/participants/bulk', () => ({
        participants: Array.from({ length: 501 }, (_, i) => participantBody({ name: `P${i}` })),
      })),
      field: 'participants',
    },
    {
      name: 'POST /participants/bulk: unknown top-level field',
      send: postTo('/api/v1/participants/bulk', () => ({ participants: [participantBody()], dryRun: true })),
      field: 'dryRun',
      unknown: true,
    },
    // roles: create
    ...['template_name', 'use_case', 'description', 'objective'].map((field) => ({
      name: `POST /roles: ${field} missing`,
      send: postTo(PATHS.role, () => without(roleBody(), field)),
      field,
    })),
    ...(
      [
        ['use_case', 'sales'],
        ['success_outcome', 'maybe'],
        ['status', 'deleted'],
        ['default_difficulty', 'impossible'],
        ['default_session_mode', 'telepathy'],
        ['visibility', 'everyone'],
        ['default_duration_minutes', 4],
        ['default_duration_minutes', 481],
        ['default_duration_minutes', 30.5],
        ['default_duration_minutes', '30'],
        ['skills', 'TypeScript'],
        ['soft_skills', [1]],
        ['skills', Array.from({ length: 101 }, (_, i) => `s${i}`)],
        ['template_name', long(201)],
        ['template_name', 42],
        ['description', long(5001)],
        ['objective', long(5001)],
        ['additional_notes', long(5001)],
      ] as Array<[string, unknown]>
    ).map(([field, value]) => ({
      name: `POST /roles: ${field} = ${JSON.stringify(value).slice(0, 30)}`,
      send: postTo(PATHS.role, () => roleBody({ [field]: value })),
      field,
    })),
    {
      name: 'POST /roles: templateName (camelCase) unknown',
      send: postTo(PATHS.role, () => roleBody({ templateName: 'x' })),
      field: 'templateName',
      unknown: true,
    },
    // roles: update takes exactly its list
    ...['use_case', 'visibility', 'domain', 'success_outcome', 'default_session_mode'].map((field) => ({
      name: `PATCH /roles: ${field} is not updatable`,
      send: patchTo('role', () => ({ [field]: fullRoleBody()[field] })),
      field,
      unknown: true,
    })),
    { name: 'PATCH /roles: status unknown', send: patchTo('role', () => ({ status: 'deleted' })), field: 'status' },
    {
      name: 'PATCH /roles: default_difficulty unknown',
      send: patchTo('role', () => ({ default_difficulty: 'medium' })),
      field: 'default_difficulty',
    },
    {
      name: 'PATCH /roles: default_duration_minutes 481',
      send: patchTo('role', () => ({ default_duration_minutes: 481 })),
      field: 'default_duration_minutes',
    },
    // rounds: create
    { name: 'POST /rounds: role_id missing', send: postTo(PATHS.round, () => without(roundBody(), 'role_id')), field: 'role_id' },
    { name: 'POST /rounds: stage_name missing', send: postTo(PATHS.round, () => without(roundBody(), 'stage_name')), field: 'stage_name' },
    { name: 'POST /rounds: role_id not a UUID', send: postTo(PATHS.round, () => roundBody({ role_id: '12' })), field: 'role_id' },
    { name: 'POST /rounds: role_id unknown', send: postTo(PATHS.round, () => roundBody({ role_id: NOWHERE })), field: 'role_id' },
    {
      name: 'POST /rounds: role_id of another workspace',
      send: postTo(PATHS.round, () => roundBody({ role_id: theirs.role.id })),
      field: 'role_id',
    },
    {
      name: 'POST /rounds: interviewer_id unknown',
      send: postTo(PATHS.round, () => roundBody({ interviewer_id: NOWHERE })),
      field: 'interviewer_id',
    },
    {
      name: 'POST /rounds: interviewer_id of another workspace (private)',
      send: postTo(PATHS.round, () => roundBody({ interviewer_id: theirs.interviewer.id })),
      field: 'interviewer_id',
    },
    {
      name: 'POST /rounds: interviewer_id of another workspace (public: fork it first)',
      send: postTo(PATHS.round, () => roundBody({ interviewer_id: theirs.publicInterviewer.id })),
      field: 'interviewer_id',
    },
    ...(
      [
        ['pass_threshold', 100.5],
        ['pass_threshold', -0.5],
        ['pass_threshold', '50'],
        ['duration_minutes', 4],
        ['duration_minutes', 481],
        ['duration_minutes', 30.5],
        ['stage_order', -1],
        ['stage_order', 1001],
        ['stage_order', 1.5],
        ['status', 'paused'],
        ['stage_name', long(201)],
      ] as Array<[string, unknown]>
    ).map(([field, value]) => ({
      name: `POST /rounds: ${field} = ${JSON.stringify(value).slice(0, 30)}`,
      send: postTo(PATHS.round, () => roundBody({ [field]: value })),
      field,
    })),
    {
      name: 'POST /rounds: roleId (camelCase) unknown',
      send: postTo(PATHS.round, () => roundBody({ roleId: mine.role.id })),
      field: 'roleId',
      unknown: true,
    },
    // rounds: update
    {
      name: 'PATCH /rounds: role_id cannot change',
      send: patchTo('round', () => ({ role_id: mine.role.id })),
      field: 'role_id',
      unknown: true,
    },
    { name: 'PATCH /rounds: interviewer_id unknown', send: patchTo('round', () => ({ interviewer_id: NOWHERE })), field: 'interviewer_id' },
    {
      name: 'PATCH /rounds: interviewer_id of another workspace (public)',
      send: patchTo('round', () => ({ interviewer_id: theirs.publicInterviewer.id })),
      field: 'interviewer_id',
    },
    { name: 'PATCH /rounds: pass_threshold 101', send: patchTo('round', () => ({ pass_threshold: 101 })), field: 'pass_threshold' },
    { name: 'PATCH /rounds: status unknown', send: patchTo('round', () => ({ status: 'paused' })), field: 'status' },
    // interviewers: create
    ...['name', 'persona', 'useCase', 'evaluationDimensions'].map((field) => ({
      name: `POST /interviewers: ${field} missing`,
      send: postTo(PATHS.interviewer, () => without(interviewerBody(), field)),
      field,
    })),
    ...(
      [
        ['weights summing to 99.99', dims(50, 49.99)],
        ['weights summing to 100.000001', dims(50, 50.000001)],
        ['no dimensions', []],
        ['21 dimensions', dims(...Array.from({ length: 21 }, (_, i) => (i < 20 ? 5 : 0.0000000001)))],
        ['a weight of 0', dims(0, 100)],
        ['a negative weight', dims(-10, 110)],
        ['a weight as a string', [{ name: 'A', description: 'a', weight: '100' }]],
        [
          'two dimensions of one name',
          [
            { name: 'Same', description: 'a', weight: 50 },
            { name: 'Same', description: 'b', weight: 50 },
          ],
        ],
        ['a dimension without a description', [{ name: 'A', weight: 100 }]],
        ['not a list', { name: 'A', description: 'a', weight: 100 }],
      ] as Array<[string, unknown]>
    ).map(([label, value]) => ({
      name: `POST /interviewers: ${label}`,
      send: postTo(PATHS.interviewer, () => interviewerBody({ evaluationDimensions: value })),
      field: 'evaluationDimensions',
    })),
    ...(
      [
        [['useCase'], 'sales'],
        [['interaction', 'tone'], 'rude'],
        [['interaction', 'style'], 'freeform'],
        [['interaction', 'difficulty'], 'brutal'],
        [['interaction', 'probingDepth'], 'deep'],
        [['scoring', 'scale'], '1-7'],
        [['scoring', 'scoringMethod'], 'vibes'],
        [['output', 'includeTranscript'], 'yes'],
        [['isPublic'], 'yes'],
        [['context'], 'a company'],
        [['name'], long(201)],
      ] as Array<[string[], unknown]>
    ).map(([path, value]) => ({
      name: `POST /interviewers: ${path.join('.')} = ${JSON.stringify(value).slice(0, 30)}`,
      send: postTo(PATHS.interviewer, () =>
        interviewerBody(path.length === 1 ? { [path[0]]: value } : { [path[0]]: { [path[1]]: value } }),
      ),
      field: path,
    })),
    {
      name: 'POST /interviewers: sourceId without action=fork',
      send: postTo(PATHS.interviewer, () => interviewerBody({ sourceId: mine.interviewer.id })),
      field: 'sourceId',
      unknown: true,
    },
    {
      name: 'POST /interviewers: role_id is not an interviewer field',
      send: postTo(PATHS.interviewer, () => interviewerBody({ role_id: mine.role.id })),
      field: 'role_id',
      unknown: true,
    },
    {
      name: 'POST /interviewers: is_public (snake_case) unknown',
      send: postTo(PATHS.interviewer, () => interviewerBody({ is_public: true })),
      field: 'is_public',
      unknown: true,
    },
    // interviewers: fork
    {
      name: 'POST /interviewers?action=clone',
      send: () => api.post('/api/v1/interviewers?action=clone', { sourceId: mine.interviewer.id }),
      field: 'action',
    },
    {
      name: 'POST /interviewers?action=fork: sourceId missing',
      send: () => api.post('/api/v1/interviewers?action=fork', {}),
      field: 'sourceId',
    },
    {
      name: 'POST /interviewers?action=fork: sourceId not a UUID',
      send: () => api.post('/api/v1/interviewers?action=fork', { sourceId: 'x' }),
      field: 'sourceId',
    },
    {
      name: 'POST /interviewers?action=fork: unknown field',
      send: () => api.post('/api/v1/interviewers?action=fork', { sourceId: mine.interviewer.id, name: 'Copy' }),
      field: 'name',
      unknown: true,
    },
    // interviewers: update
    {
      name: 'PATCH /interviewers: output is accepted on create only',
      send: patchTo('interviewer', () => ({ output: { includeTranscript: false } })),
      field: 'output',
      unknown: true,
    },
    {
      name: 'PATCH /interviewers: weights summing to 90',
      send: patchTo('interviewer', () => ({ evaluationDimensions: dims(45, 45) })),
      field: 'evaluationDimensions',
    },
    {
      name: 'PATCH /interviewers: interaction.tone unknown',
      send: patchTo('interviewer', () => ({ interaction: { tone: 'rude' } })),
      field: ['interaction', 'tone'],
    },
    {
      name: 'PATCH /interviewers: isPublic of the wrong type',
      send: patchTo('interviewer', () => ({ isPublic: 'no' })),
      field: 'isPublic',
    },
    // programs
    { name: 'POST /programs: name missing', send: postTo(PATHS.program, () => ({ description: 'no name' })), field: 'name' },
    { name: 'POST /programs: name of 201 characters', send: postTo(PATHS.program, () => ({ name: long(201) })), field: 'name' },
    { name: 'POST /programs: status unknown', send: postTo(PATHS.program, () => ({ name: 'P', status: 'paused' })), field: 'status' },
    {
      name: 'POST /programs: description of 5001 characters',
      send: postTo(PATHS.program, () => ({ name: 'P', description: long(5001) })),
      field: 'description',
    },
    {
      name: 'POST /programs: unknown field',
      send: postTo(PATHS.program, () => ({ name: 'P', title: 'T' })),
      field: 'title',
      unknown: true,
    },
    { name: 'PATCH /programs: status unknown', send: patchTo('program', () => ({ status: 'deleted' })), field: 'status' },
    { name: 'PATCH /programs: name null (required)', send: patchTo('program', () => ({ name: null })), field: 'name' },
    { name: 'PATCH /programs: unknown field', send: patchTo('program', () => ({ title: 'T' })), field: 'title', unknown: true },
  ];

  describe('bad bodies', () => {
    it.each(BAD_BODIES)('$name → 400 naming the field', async ({ send, field, unknown }) => {
      const answer = await send();
      if (unknown) expectUnknownField(answer, [field].flat()[0]);
      else expectIssue(answer, field);
    });

    it('names every missing required field at once', async () => {
      const roles = await api.post(PATHS.role, {});
      for (const field of ['template_name', 'use_case', 'description', 'objective']) expectIssue(roles, field);
      const participants = await api.post(PATHS.participant, {});
      for (const field of ['name', 'email']) expectIssue(participants, field);
    });

    it('leaves the resource as it was after a refused update', async () => {
      const before = dataOf(await api.get(`/api/v1/interviewers/${mine.interviewer.id}`), 200);
      expectError(
        await api.patch(`/api/v1/interviewers/${mine.interviewer.id}`, { name: 'Renamed', output: { includeTranscript: true } }),
        400,
      );
      expect(dataOf(await api.get(`/api/v1/interviewers/${mine.interviewer.id}`), 200)).toEqual(before);
    });

    const bodyRoutes = ROUTES.filter(hasBody);
    it.each(bodyRoutes.map((route) => [routeName(route), route] as const))('%s: malformed JSON → 400', async (_, route) => {
      const answer = await api.request(route.method, withId(route, mine.participant.id), { raw: '{"name": "Ada",' });
      expectError(answer, 400);
      expectRateLimitHeaders(answer);
    });

    it.each(bodyRoutes.map((route) => [routeName(route), route] as const))('%s: no body → 400', async (_, route) => {
      const id = route.path.startsWith(PATHS.participant) ? mine.participant.id : randomUUID();
      expectError(await api.request(route.method, withId(route, id)), 400);
      expectError(await api.request(route.method, withId(route, id), { headers: { 'content-type': 'application/json' } }), 400);
    });

    it.each(bodyRoutes.map((route) => [routeName(route), route] as const))('%s: a JSON array or string body → 400', async (_, route) => {
      expectError(await api.request(route.method, withId(route, randomUUID()), { body: [] }), 400);
      expectError(await api.request(route.method, withId(route, randomUUID()), { body: 'text' }), 400);
    });
  });

  describe('paths and queries', () => {
    const idRoutes = ROUTES.filter((route) => route.path.includes('{id}'));
    it.each(idRoutes.map((route) => [routeName(route), route] as const))('%s with a bad UUID → 400 naming id', async (_, route) => {
      for (const id of ['42', 'not-a-uuid', `${NOWHERE}0`, NOWHERE.slice(1)]) {
        const answer = await api.request(route.method, withId(route, id), hasBody(route) ? { body: {} } : {});
        const issues = expectIssue(answer, 'id');
        expect(issues.length, explain(answer)).toBeGreaterThanOrEqual(1);
      }
    });

    it.each(idRoutes.map((route) => [routeName(route), route] as const))('%s with an unknown UUID → 404', async (_, route) => {
      // A valid patch of each resource: interviewers have no status.
      const patch = route.path.includes('interviewers') ? { name: 'X' } : { status: 'active' };
      expectError(await api.request(route.method, withId(route, randomUUID()), route.method === 'PATCH' ? { body: patch } : {}), 404);
    });

    const queries: Array<[string, string, string]> = [
      ...LIST_ROUTES.flatMap((path): Array<[string, string, string]> => [
        [path, 'pageSize=101', 'pageSize'],
        [path, 'pageSize=0', 'pageSize'],
        [path, 'pageSize=2.5', 'pageSize'],
        [path, 'pageSize=ten', 'pageSize'],
        [path, 'page=0', 'page'],
        [path, 'page=abc', 'page'],
      ]),
      [PATHS.participant, 'roleId=abc', 'roleId'],
      [PATHS.participant, 'status=deleted', 'status'],
      [PATHS.participant, 'pipelineId=abc', 'pipelineId'],
      [PATHS.round, 'roleId=abc', 'roleId'],
      ['/api/v1/participants/{id}/sessions', 'status=bogus', 'status'],
    ];
    it.each(queries)('GET %s?%s → 400 naming %s', async (path, query, field) => {
      const answer = await api.get(`${path.replace('{id}', mine.participant.id)}?${query}`);
      expectIssue(answer, field);
      expectRateLimitHeaders(answer);
    });

    it.each(LIST_ROUTES)('GET %s accepts pageSize=100 and ignores unknown parameters', async (path) => {
      const list = listOf(await api.get(`${path.replace('{id}', mine.participant.id)}?pageSize=100&colour=blue`));
      expect(list.meta.pageSize).toBe(100);
      expect(list.meta.page).toBe(1);
    });
  });

  describe('limits that are accepted', () => {
    it('accepts the largest values the docs allow', async () => {
      const participant = dataOf<Participant>(
        await api.post(PATHS.participant, {
          name: long(200),
          email: emailOf(254),
          tags: Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(100, 't')),
          metadata: { blob: long(16_000) },
          resume_url: `https://example.com/${long(2048 - 20)}`,
        }),
        201,
      );
      expect(participant.name).toHaveLength(200);
      // Strings are trimmed of nothing.
      const spaced = dataOf<Participant>(await api.post(PATHS.participant, participantBody({ name: '  Ada  ', tags: [' a '] })), 201);
      expect([spaced.name, spaced.tags]).toEqual(['  Ada  ', [' a ']]);
      expect(participant.email).toBe(emailOf(254));
      expect(participant.tags).toHaveLength(100);
      expect(participant.resume_url).toHaveLength(2048);
      const role = dataOf<Role>(await api.post(PATHS.role, roleBody({ description: long(5000), default_duration_minutes: 480 })), 201);
      expect(role.default_duration_minutes).toBe(480);
      expect(dataOf<Role>(await api.post(PATHS.role, roleBody({ default_duration_minutes: 5 })), 201).default_duration_minutes).toBe(5);
      for (const [field, value] of [
        ['pass_threshold', 0],
        ['pass_threshold', 100],
        ['duration_minutes', 5],
        ['duration_minutes', 480],
        ['stage_order', 0],
        ['stage_order', 1000],
      ] as Array<[string, number]>) {
        const round = dataOf<Round>(await api.post(PATHS.round, roundBody({ [field]: value })), 201);
        expect(pick(round, [field])[field], field).toBe(value);
      }
      const twenty = dims(...Array.from({ length: 20 }, () => 5));
      expect(
        dataOf<Interviewer>(await api.post(PATHS.interviewer, interviewerBody({ evaluationDimensions: twenty })), 201).evaluationDimensions,
      ).toEqual(twenty);
    });

    it('imports 500 participants in one bulk request, and refuses 501', async () => {
      const marker = unique();
      const items = Array.from({ length: 500 }, (_, i) => ({ name: `Bulk ${i}`, email: `b${i}.${marker}@example.com` }));
      const answer = await api.post('/api/v1/participants/bulk', { participants: items });
      const result = dataOf<BulkResult>(answer, 200);
      expect([result.created, result.rejected], explain(answer)).toEqual([500, 0]);
      expect(listOf(await api.get(`/api/v1/participants?search=${marker}`)).meta.total).toBe(500);
      expectIssue(
        await api.post('/api/v1/participants/bulk', {
          participants: [...items, { name: 'One more', email: `more.${marker}@example.com` }],
        }),
        'participants',
      );
    });
  });

  describe('authentication and scopes', () => {
    const cases = ROUTES.map((route) => [routeName(route), route] as const);

    it.each(cases)('%s without a key → 401, with rate-limit headers', async (_, route) => {
      const answer = await anonymous.request(route.method, withId(route, randomUUID()), hasBody(route) ? { body: {} } : {});
      expectError(answer, 401);
      expectRateLimitHeaders(answer);
      const invalid = await anonymous.request(route.method, withId(route, randomUUID()), { key: `svc_live_${'A'.repeat(40)}` });
      expectError(invalid, 401);
    });

    let readOnly: string | undefined;
    it.each(cases.filter(([, route]) => route.method !== 'GET'))('%s with a read-only key → 403', async (_, route) => {
      const key = (readOnly ??= await createKey(server.platform, 'acme', READ_ONLY));
      const answer = await api.request(route.method, withId(route, mine.participant.id), { key, ...(hasBody(route) ? { body: {} } : {}) });
      expectError(answer, 403);
      expectRateLimitHeaders(answer);
    });

    it.each(cases)('%s needs exactly its scope: refused without it (403 naming it), let through with it alone', async (_, route) => {
      const others = SCOPES.filter((scope) => scope !== route.scope).join(',');
      const lacking = await createKey(server.platform, 'acme', others);
      const options = hasBody(route) ? { body: {} } : {};
      const refused = await api.request(route.method, withId(route, randomUUID()), { ...options, key: lacking });
      expect(expectError(refused, 403).error, explain(refused)).toContain(route.scope);

      const only = await createKey(server.platform, 'acme', route.scope);
      const passed = await api.request(route.method, withId(route, randomUUID()), { ...options, key: only });
      expect([401, 403], `let through: ${explain(passed)}`).not.toContain(passed.status);
      expect(passed.status, explain(passed)).toBeLessThan(500);
      expectRateLimitHeaders(passed);
    });

    it('lets a key of a free workspace use every route, and spends no credit', async () => {
      await createWorkspace(server.platform, 'freebie', 'free');
      await createWorkspace(server.platform, 'starter-co', 'starter');
      for (const slug of ['freebie', 'starter-co']) {
        const client = server.api(await createKey(server.platform, slug, 'all'));
        const creditsBefore = dataOf<{ credits: number }>(await client.get('/api/v1/usage'), 200).credits;
        const role = await createRole(client);
        const interviewer = await createInterviewer(client);
        const program = await createProgram(client);
        await createRound(client, role.id, { interviewer_id: interviewer.id });
        await createParticipant(client, { role_id: role.id, pipeline_id: program.id });
        expectStatus(await client.post('/api/v1/participants/bulk', { participants: [participantBody()] }), 200);
        expectStatus(await client.get('/api/v1/participants'), 200);
        expect(dataOf<{ credits: number }>(await client.get('/api/v1/usage'), 200).credits, `credits of ${slug}`).toBe(creditsBefore);
      }
    });
  });

  describe('workspaces', () => {
    const patches: Record<Kind, Obj> = {
      participant: { name: 'Hijacked' },
      role: { template_name: 'Hijacked' },
      round: { stage_name: 'Hijacked' },
      interviewer: { name: 'Hijacked' },
      program: { name: 'Hijacked' },
    };

    it.each(KINDS)('a %s of another workspace is 404 on get, patch and delete, shows nothing, and stays as it was', async (kind) => {
      const target = theirs[kind];
      const path = `${PATHS[kind]}/${target.id}`;
      const telltale = {
        participant: theirs.participant.email,
        role: theirs.role.template_name,
        round: theirs.round.stage_name,
        interviewer: theirs.interviewer.persona,
        program: theirs.program.name,
      }[kind];
      for (const answer of [await api.get(path), await api.patch(path, patches[kind]), await api.delete(path)]) {
        expectError(answer, 404);
        expect(answer.text, 'a 404 shows nothing of the resource').not.toContain(telltale);
      }
      expect(dataOf(await otherApi.get(path), 200)).toEqual(target);
    });

    it('the sessions of a participant of another workspace are 404', async () => {
      expectError(await api.get(`/api/v1/participants/${theirs.participant.id}/sessions`), 404);
    });

    it('a public interviewer of another workspace can be read, not changed or deleted', async () => {
      const path = `/api/v1/interviewers/${theirs.publicInterviewer.id}`;
      expect(dataOf(await api.get(path), 200)).toEqual(theirs.publicInterviewer);
      expectError(await api.patch(path, { name: 'Hijacked' }), 404);
      expectError(await api.delete(path), 404);
      expect(dataOf(await otherApi.get(path), 200)).toEqual(theirs.publicInterviewer);
    });

    it('a public interviewer made private again is no longer readable, nor forkable, from another workspace', async () => {
      const source = await createInterviewer(otherApi, { ...minimalInterviewerBody(), isPublic: true });
      expectStatus(await api.get(`/api/v1/interviewers/${source.id}`), 200);
      expectStatus(await otherApi.patch(`/api/v1/interviewers/${source.id}`, { isPublic: false }), 200);
      expectError(await api.get(`/api/v1/interviewers/${source.id}`), 404);
      const fork = await api.post('/api/v1/interviewers?action=fork', { sourceId: source.id });
      expect([400, 404], explain(fork)).toContain(fork.status);
      const shared = listOf<Interviewer>(await api.get('/api/v1/interviewers?scope=public&pageSize=100'));
      expect(shared.data.map((item) => item.id)).not.toContain(source.id);
    });

    it('emails are unique per workspace: the address of a participant of another workspace is free', async () => {
      const created = dataOf<Participant>(
        await api.post(PATHS.participant, { name: 'Namesake', email: theirs.participant.email.toUpperCase() }),
        201,
      );
      expect(created.email).toBe(theirs.participant.email.toUpperCase());
      const bulk = await otherApi.post('/api/v1/participants/bulk', {
        participants: [{ name: 'Namesake', email: mine.participant.email }],
      });
      expect(dataOf<BulkResult>(bulk, 200).created, explain(bulk)).toBe(1);
    });

    it('a private interviewer of another workspace cannot be forked', async () => {
      const answer = await api.post('/api/v1/interviewers?action=fork', { sourceId: theirs.interviewer.id });
      expect([400, 404], explain(answer)).toContain(answer.status);
      expectError(answer, answer.status);
    });

    it('a signed-in member reaches its workspace with accountSlug: in the query, and in the body for bulk import', async () => {
      await server.platform.admin({ command: 'user.create', email: 'member@example.com', password: 'correct horse' });
      await server.platform.admin({ command: 'member.add', workspace: 'acme', email: 'member@example.com' });
      const login = await anonymous.post('/api/v1/auth/login', { email: 'member@example.com', password: 'correct horse' });
      expectStatus(login, 200);
      const cookie = login.headers
        .getSetCookie()
        .find((value) => value.startsWith('session='))
        ?.split(';')[0];
      expect(cookie, explain(login)).toBeDefined();
      const member = (method: Method, path: string, body?: unknown) =>
        anonymous.request(method, path, {
          key: null,
          headers: { cookie: cookie!, origin: new URL(anonymous.baseUrl).origin },
          ...(body !== undefined ? { body } : {}),
        });

      expectIssue(await member('GET', PATHS.participant), 'accountSlug');
      expectError(await member('GET', `${PATHS.participant}?accountSlug=other`), 404);
      expectError(await member('GET', `${PATHS.participant}/${theirs.participant.id}?accountSlug=other`), 404);
      const list = listOf<Participant>(
        await member('GET', `${PATHS.participant}?accountSlug=acme&search=${encodeURIComponent(mine.participant.email)}`),
      );
      expect(list.data.map((p) => p.id)).toEqual([mine.participant.id]);
      const created = dataOf<Participant>(await member('POST', `${PATHS.participant}?accountSlug=acme`, participantBody()), 201);
      const bulk = await member('POST', '/api/v1/participants/bulk', { participants: [participantBody()], accountSlug: 'acme' });
      expect(dataOf<BulkResult>(bulk, 200).created, explain(bulk)).toBe(1);
      expectError(await member('POST', '/api/v1/participants/bulk', { participants: [participantBody()], accountSlug: 'other' }), 404);
      expectStatus(await member('DELETE', `${PATHS.participant}/${created.id}?accountSlug=acme`), 204);
    });

    it.each([...KINDS.map((kind) => PATHS[kind])])(
      'GET %s with the accountSlug of another workspace → 404; with its own → 200',
      async (path) => {
        for (const slug of ['other', 'no-such-workspace']) expectError(await api.get(`${path}?accountSlug=${slug}`), 404);
        // Sent twice, it is not a way around the check.
        const twice = await api.get(`${path}?accountSlug=acme&accountSlug=other`);
        expect([400, 404], explain(twice)).toContain(twice.status);
        expectStatus(await api.get(`${path}?accountSlug=acme`), 200);
      },
    );

    it('a key sending the accountSlug of another workspace never reaches it: reads, writes and bulk import', async () => {
      expectError(await api.get(`${PATHS.participant}/${mine.participant.id}?accountSlug=other`), 404);
      expectError(await api.get(`${PATHS.participant}/${theirs.participant.id}?accountSlug=other`), 404);
      expectError(await api.get(`${PATHS.participant}/${mine.participant.id}/sessions?accountSlug=other`), 404);

      const email = `slug.${unique()}@example.com`;
      expectError(await api.post(`${PATHS.participant}?accountSlug=other`, { name: 'Sneaky', email }), 404);
      expectError(await api.post('/api/v1/participants/bulk', { participants: [{ name: 'Sneaky', email }], accountSlug: 'other' }), 404);
      const listed = await api.post('/api/v1/participants/bulk', { participants: [{ name: 'Sneaky', email }], accountSlug: ['other'] });
      expect([400, 404], explain(listed)).toContain(listed.status);
      expectError(await api.patch(`${PATHS.participant}/${mine.participant.id}?accountSlug=other`, { name: 'Sneaky' }), 404);
      expectError(await api.delete(`${PATHS.program}/${mine.program.id}?accountSlug=other`), 404);
      for (const client of [api, otherApi]) expect(listOf(await client.get(`${PATHS.participant}?search=${email}`)).meta.total).toBe(0);
      expect(dataOf(await api.get(`${PATHS.participant}/${mine.participant.id}`), 200)).toEqual(mine.participant);
      expect(dataOf(await api.get(`${PATHS.program}/${mine.program.id}`), 200)).toEqual(mine.program);

      // Its own slug is accepted, in the query and in the bulk body.
      expectStatus(await api.post(`${PATHS.participant}?accountSlug=acme`, { name: 'Open', email }), 201);
      const bulk = await api.post('/api/v1/participants/bulk', { participants: [participantBody()], accountSlug: 'acme' });
      expect(dataOf<BulkResult>(bulk, 200).created, explain(bulk)).toBe(1);
    });
  });

  describe('OpenAPI', () => {
    let document: JsonObject;
    beforeAll(async () => {
      const answer = await anonymous.get('/api/v1/openapi.json');
      expectStatus(answer, 200);
      document = { ...answer.body };
    });

    const kindOf = (path: string): Kind => KINDS.find((kind) => path.startsWith(PATHS[kind]))!;
    const documented = ROUTES.filter((route) => !route.query);

    it.each(documented.map((route) => [routeName(route), route] as const))(
      '%s is documented with its scope and schemas',
      async (name, route) => {
        const operation = objectAt(document, 'paths', route.path, route.method.toLowerCase());
        expect(operation, `${name} in openapi.json`).toBeDefined();
        expect(operation!['x-required-scope'], name).toBe(route.scope);
        const kind = kindOf(route.path);
        const parameters = (Array.isArray(operation!.parameters) ? (operation!.parameters as JsonObject[]) : []).map(
          (p) => `${p.in}:${p.name}`,
        );
        if (route.path.includes('{id}')) expect(parameters, name).toContain('path:id');

        const isList = route.method === 'GET' && (!route.path.endsWith('{id}') || route.path.endsWith('/sessions'));
        if (isList) {
          const filters: Record<string, string[]> = {
            '/api/v1/participants': ['roleId', 'status', 'search', 'pipelineId'],
            '/api/v1/rounds': ['roleId'],
            '/api/v1/interviewers': ['scope'],
            '/api/v1/participants/{id}/sessions': ['status'],
          };
          for (const query of ['page', 'pageSize', ...(filters[route.path] ?? [])]) expect(parameters, name).toContain(`query:${query}`);
        }

        const success =
          route.method === 'DELETE' ? '204' : route.method === 'POST' && route.path !== '/api/v1/participants/bulk' ? '201' : '200';
        expect(Object.keys(objectAt(operation, 'responses') ?? {}), name).toContain(success);
        if (route.method !== 'DELETE') {
          const schema = objectAt(operation, 'responses', success, 'content', 'application/json', 'schema');
          expect(schema, `${name}: response schema`).toBeDefined();
          const text = JSON.stringify(schema);
          const expected = route.path.endsWith('/bulk')
            ? ['created', 'rejected', 'results', 'index']
            : route.path.endsWith('/sessions')
              ? ['data', 'meta', 'totalPages']
              : [...FIELDS[kind], ...(isList ? ['meta', 'totalPages'] : [])];
          for (const field of expected) expect(text, `${name}: response schema names ${field}`).toContain(`"${field}"`);
        }

        if (hasBody(route)) {
          const schema = objectAt(operation, 'requestBody', 'content', 'application/json', 'schema');
          expect(schema, `${name}: request body schema`).toBeDefined();
          const names = propertyNames(schema);
          const expected = route.path.endsWith('/bulk')
            ? ['participants']
            : route.method === 'PATCH'
              ? UPDATE_FIELDS[kind]
              : CREATE_FIELDS(kind).filter((f) => f !== 'id');
          for (const field of expected) expect(names, `${name}: request body documents ${field}`).toContain(field);
          if (route.method === 'PATCH') {
            const refused: Partial<Record<Kind, string>> = { interviewer: 'output', role: 'use_case', round: 'role_id' };
            if (refused[kind]) expect(names, `${name}: ${refused[kind]} is not updatable`).not.toContain(refused[kind]);
          }
          if (route.path === '/api/v1/interviewers') {
            expect(parameters, `${name}: the action parameter`).toContain('query:action');
            expect(names, `${name}: the fork body`).toContain('sourceId');
          }
        }
      },
    );
  });
});
