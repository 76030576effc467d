import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, expectStatus, explain, listOf, walkPages, type Api } from './support/client.js';
import {
  FIELDS,
  INTERVIEWER_DEFAULTS,
  PARTICIPANT_DEFAULTS,
  PATHS,
  TIMESTAMP,
  UUID,
  createInterviewer,
  createParticipant,
  createProgram,
  createRole,
  createRound,
  expectResource,
  fullInterviewerBody,
  fullParticipantBody,
  fullRoleBody,
  minimalInterviewerBody,
  minimalRoleBody,
  pick,
  sleep,
  type BulkResult,
  type Interviewer,
  type Kind,
  type Participant,
  type Program,
  type Role,
  type Round,
} from './support/resources.js';

/** Newest first: created_at descending, ties by id descending. */
function expectNewestFirst(items: Participant[], what: string): void {
  for (let i = 0; i + 1 < items.length; i++) {
    const [a, b] = [items[i], items[i + 1]];
    const ordered = a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id);
    expect(ordered, `${what}: item ${i} (${a.created_at} ${a.id}) must come before item ${i + 1} (${b.created_at} ${b.id})`).toBe(true);
  }
}

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
const sorted = (values: string[]) => [...values].sort();

describe.each([pgliteDriver(), postgresDriver()])('resources journey on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;

  // What the journey made so far, as the API answered it.
  let interviewer: Interviewer;
  let plainInterviewer: Interviewer;
  let publicSource: Interviewer;
  let fork: Interviewer;
  let ownFork: Interviewer;
  let role: Role;
  const derivedRoles: Role[] = [];
  let program: Program;
  let plainProgram: Program;
  let roundA: Round;
  let roundB: Round;
  let roundC: Round;
  let ada: Participant;
  let grace: Participant;
  const imported: Participant[] = [];
  let foreignRole: Role;

  beforeAll(async () => {
    server = await startResourcesApp(await driver.env());
    await createWorkspace(server.platform, 'acme');
    await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  async function readBack(kind: Kind, resource: { id: string }): Promise<void> {
    const answer = await api.get(`${PATHS[kind]}/${resource.id}`);
    expect(dataOf(answer, 200), `${kind} read back`).toEqual(resource);
  }

  it('creates an interviewer with every field, weights summing to 100 in floating point', async () => {
    const body = fullInterviewerBody();
    interviewer = dataOf<Interviewer>(await api.post('/api/v1/interviewers', body), 201);
    expectResource('interviewer', interviewer, body);
    expect(interviewer.forkedFrom ?? null, 'an interviewer made from scratch was forked from nothing').toBeNull();
    await readBack('interviewer', interviewer);
  });

  it('creates an interviewer with only the required fields, and gives every default', async () => {
    const body = minimalInterviewerBody('Plain interviewer');
    plainInterviewer = await createInterviewer(api, body);
    expectResource('interviewer', plainInterviewer, { ...INTERVIEWER_DEFAULTS, ...body });
    await readBack('interviewer', plainInterviewer);
  });

  it('forks a public interviewer of another workspace, and one of its own', async () => {
    const sourceBody = { ...minimalInterviewerBody('Shared screener'), isPublic: true, interaction: { tone: 'friendly' } };
    publicSource = await createInterviewer(otherApi, sourceBody);
    expectResource('interviewer', publicSource, { ...INTERVIEWER_DEFAULTS, ...sourceBody });

    // Readable by id from another workspace because it is public; not in that workspace's own list.
    expect(dataOf(await api.get(`/api/v1/interviewers/${publicSource.id}`), 200)).toEqual(publicSource);
    expect(ids(listOf<Interviewer>(await api.get('/api/v1/interviewers?pageSize=100')).data)).not.toContain(publicSource.id);
    expect(ids(listOf<Interviewer>(await api.get('/api/v1/interviewers?scope=public&pageSize=100')).data)).toContain(publicSource.id);
    // Update and delete only reach the caller's own.
    expectError(await api.patch(`/api/v1/interviewers/${publicSource.id}`, { name: 'Hijacked' }), 404);
    expectError(await api.delete(`/api/v1/interviewers/${publicSource.id}`), 404);

    const copied = [
      'name',
      'persona',
      'useCase',
      'evaluationDimensions',
      'context',
      'interaction',
      'scoring',
      'output',
      'additionalInstructions',
    ];
    fork = dataOf<Interviewer>(await api.post('/api/v1/interviewers?action=fork', { sourceId: publicSource.id }), 201);
    expectResource('interviewer', fork, { ...pick(publicSource, copied), isPublic: false, forkedFrom: publicSource.id });
    expect(fork.id).not.toBe(publicSource.id);
    await readBack('interviewer', fork);
    // The fork lives in the caller's workspace: its own list has it, the source's workspace cannot see it.
    expect(ids(listOf<Interviewer>(await api.get('/api/v1/interviewers?pageSize=100')).data)).toContain(fork.id);
    expectError(await otherApi.get(`/api/v1/interviewers/${fork.id}`), 404);
    // The source is untouched.
    expect(dataOf(await otherApi.get(`/api/v1/interviewers/${publicSource.id}`), 200)).toEqual(publicSource);

    ownFork = dataOf<Interviewer>(await api.post('/api/v1/interviewers?action=fork', { sourceId: interviewer.id }), 201);
    expectResource('interviewer', ownFork, { ...pick(interviewer, copied), isPublic: false, forkedFrom: interviewer.id });
  });

  it('creates roles with only the required fields: every default, success_outcome derived from use_case', async () => {
    const outcomes: Array<[string, string]> = [
      ['hiring', 'hire_no_hire'],
      ['admissions', 'admit_reject'],
      ['training', 'ready_needs_training'],
      ['custom_api', 'custom'],
    ];
    for (const [useCase, outcome] of outcomes) {
      const body = minimalRoleBody(useCase);
      const created = await createRole(api, body);
      expectResource('role', created, {
        ...body,
        success_outcome: outcome,
        status: 'active',
        domain: null,
        level: null,
        requirements: null,
        skills: [],
        soft_skills: [],
        additional_notes: null,
        default_duration_minutes: 30,
        default_difficulty: 'intermediate',
        default_session_mode: 'live_ai_interview',
        visibility: 'team',
      });
      await readBack('role', created);
      derivedRoles.push(created);
    }
  });

  it('creates a role with every field (an explicit success_outcome wins over the derived one)', async () => {
    const body = fullRoleBody();
    role = await createRole(api, body);
    expectResource('role', role, body);
    await readBack('role', role);
  });

  it('creates three rounds: every field, the defaults, and lists them by stage_order', async () => {
    const full = {
      role_id: role.id,
      stage_name: 'Technical deep dive',
      stage_type: 'technical',
      duration_minutes: 60,
      interviewer_id: interviewer.id,
      stage_order: 10,
      difficulty: 'hard',
      pass_threshold: 66.66666666666667,
      automation_rule: 'advance_when_passed',
      status: 'draft',
    };
    roundA = await createRound(api, role.id, full);
    expectResource('round', roundA, full);

    // stage_order: one past the role's highest; duration: the role's default; status: active.
    const minimal = { role_id: role.id, stage_name: 'Final conversation' };
    roundB = await createRound(api, role.id, minimal);
    expectResource('round', roundB, {
      ...minimal,
      stage_type: null,
      duration_minutes: role.default_duration_minutes,
      interviewer_id: null,
      stage_order: 11,
      difficulty: null,
      pass_threshold: null,
      automation_rule: null,
      status: 'active',
    });

    const early = { role_id: role.id, stage_name: 'Phone screen', stage_order: 5, interviewer_id: fork.id, pass_threshold: 0 };
    roundC = await createRound(api, role.id, early);
    expectResource('round', roundC, {
      ...early,
      stage_type: null,
      duration_minutes: 45,
      difficulty: null,
      automation_rule: null,
      status: 'active',
    });
    for (const round of [roundA, roundB, roundC]) await readBack('round', round);

    const list = listOf<Round>(await api.get(`/api/v1/rounds?roleId=${role.id}`));
    expect(list.data, 'rounds by stage_order').toEqual([roundC, roundA, roundB]);
    expect(list.meta).toEqual({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
    const walked = await walkPages<Round>(api, `/api/v1/rounds?roleId=${role.id}`, 2);
    expect(ids(walked.items), 'rounds by stage_order, two a page').toEqual(ids([roundC, roundA, roundB]));

    // The first rounds of another role: the second default is one past the first.
    const first = await createRound(api, derivedRoles[1].id);
    const second = await createRound(api, derivedRoles[1].id);
    expect(second.stage_order, 'stage_order one past the role’s highest').toBe(first.stage_order + 1);
    expect(first.duration_minutes, 'the role’s default duration').toBe(30);
  });

  it('creates programs: every field, and the defaults', async () => {
    const body = { name: 'Graduate programme 2027', description: 'Twelve-month rotation for graduates.', status: 'active' };
    program = await createProgram(api, body);
    expectResource('program', program, body);
    const minimal = { name: 'Interns' };
    plainProgram = await createProgram(api, minimal);
    expectResource('program', plainProgram, { ...minimal, description: null, status: 'active' });
    await readBack('program', program);
    await readBack('program', plainProgram);
  });

  it('creates participants one by one: every field, the defaults, and 409 on an email differing only in case', async () => {
    const body = fullParticipantBody(role.id, program.id, 'Ada.Lovelace@Example.com');
    ada = dataOf<Participant>(await api.post('/api/v1/participants', body), 201);
    expectResource('participant', ada, body);
    await readBack('participant', ada);

    const minimal = { name: 'Grace Hopper', email: 'grace.hopper@navy.example' };
    grace = await createParticipant(api, minimal);
    expectResource('participant', grace, { ...PARTICIPANT_DEFAULTS, ...minimal });
    await readBack('participant', grace);

    const duplicate = await api.post('/api/v1/participants', { name: 'Ada again', email: 'ada.lovelace@EXAMPLE.com' });
    expectError(duplicate, 409);
  });

  it('imports participants in bulk: duplicates and invalid items rejected by index, the rest created', async () => {
    foreignRole = await createRole(otherApi);
    const items = [
      { name: 'Alan Turing', email: 'alan.turing@example.com', role_id: role.id, tags: ['bulk'] },
      { name: 'Alan again', email: 'ALAN.TURING@example.com' },
      { name: 'Ada copy', email: 'ada.lovelace@example.com' },
      {
        name: 'Katherine Johnson',
        email: 'katherine@example.com',
        external_id: 'ats-000999',
        phone: '+1 757 555 0100',
        resume_url: 'https://example.com/resumes/kj.pdf',
        tags: ['nasa', 'math'],
      },
      { name: 'Not an email', email: 'not-an-email' },
      { name: 'Ghost role', email: 'ghost@example.com', role_id: '00000000-0000-4000-8000-000000000000' },
      { name: 'Ghost program', email: 'ghost.program@example.com', pipeline_id: '00000000-0000-4000-8000-000000000000' },
      { name: 'Foreign role', email: 'foreign@example.com', role_id: foreignRole.id },
      { name: 'Misspelt', email: 'misspelt@example.com', roleId: role.id },
    ];
    const answer = await api.post('/api/v1/participants/bulk', { participants: items });
    const result = dataOf<BulkResult>(answer, 200);
    const byIndex = [...result.results].sort((a, b) => a.index - b.index);
    expect(
      byIndex.map((item) => [item.index, item.status]),
      explain(answer),
    ).toEqual([
      [0, 'created'],
      [1, 'rejected'],
      [2, 'rejected'],
      [3, 'created'],
      [4, 'rejected'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
      [8, 'rejected'],
    ]);
    expect([result.created, result.rejected], explain(answer)).toEqual([2, 7]);
    for (const item of byIndex.filter((entry) => entry.status === 'created')) expect(item.id, explain(answer)).toMatch(UUID);
    for (const item of byIndex.filter((entry) => entry.status === 'rejected'))
      expect(typeof item.error, `rejected items say why: ${explain(answer)}`).toBe('string');
    expect(
      byIndex[4].issues?.some((issue) => issue.path.includes('email')),
      `the invalid item's issues name email: ${explain(answer)}`,
    ).toBe(true);
    expect(
      byIndex[8].issues?.some((issue) => issue.path.includes('roleId') || issue.message.includes('roleId')),
      `the misspelt item's issues name roleId: ${explain(answer)}`,
    ).toBe(true);

    for (const index of [0, 3]) {
      const stored = dataOf<Participant>(await api.get(`/api/v1/participants/${byIndex[index].id}`), 200);
      expectResource('participant', stored, { ...PARTICIPANT_DEFAULTS, ...items[index], id: byIndex[index].id });
      imported.push(stored);
    }

    // What the answer called created is exactly what is stored, and nothing else.
    const all = listOf<Participant>(await api.get('/api/v1/participants?pageSize=100'));
    expect(sorted(all.data.map((p) => p.email))).toEqual(
      sorted(['Ada.Lovelace@Example.com', 'grace.hopper@navy.example', 'alan.turing@example.com', 'katherine@example.com']),
    );
    expect(all.meta.total).toBe(4);
  });

  it('updates a participant: tags and objects replaced, null clears, updated_at moves', async () => {
    await sleep(5);
    const patch = {
      name: 'Augusta Ada King',
      tags: ['finalist'],
      profile: { title: 'Countess' },
      background: { education: 'Self-taught' },
      metadata: { replaced: true },
      phone: null,
      external_id: null,
      status: 'active',
      role_id: derivedRoles[0].id,
      pipeline_id: plainProgram.id,
      resume_url: 'https://example.com/resumes/ada-v2.pdf',
    };
    const answer = await api.patch(`/api/v1/participants/${ada.id}`, patch);
    const updated = dataOf<Participant>(answer, 200);
    expectResource('participant', updated, {
      ...pick(ada, FIELDS.participant),
      ...patch,
      updated_at: expect.stringMatching(TIMESTAMP),
    });
    expect(Date.parse(updated.updated_at), `updated_at moved: ${explain(answer)}`).toBeGreaterThan(Date.parse(ada.updated_at));
    ada = updated;
    await readBack('participant', ada);

    // Another participant's email, in another case: 409, and nothing changed.
    expectError(await api.patch(`/api/v1/participants/${ada.id}`, { email: 'GRACE.HOPPER@navy.example' }), 409);
    await readBack('participant', ada);
    // Its own email in another case is no clash; the new spelling is kept.
    const recased = dataOf<Participant>(await api.patch(`/api/v1/participants/${grace.id}`, { email: 'Grace.Hopper@Navy.example' }), 200);
    expect(recased.email).toBe('Grace.Hopper@Navy.example');
    grace = recased;
    // null clears an optional field, including a reference.
    const cleared = dataOf<Participant>(
      await api.patch(`/api/v1/participants/${grace.id}`, { tags: [], pipeline_id: null, role_id: null }),
      200,
    );
    expectResource('participant', cleared, {
      ...pick(grace, FIELDS.participant),
      tags: [],
      pipeline_id: null,
      role_id: null,
      updated_at: expect.any(String),
    });
    grace = cleared;
    const wiped = { external_id: null, phone: null, profile: null, background: null, resume_url: null, metadata: null };
    const full = dataOf<Participant>(await api.patch(`/api/v1/participants/${imported[1].id}`, wiped), 200);
    expectResource('participant', full, { ...pick(imported[1], FIELDS.participant), ...wiped, updated_at: expect.any(String) });
    imported[1] = full;
  });

  it('updates a role: the contract’s list plus status and default_difficulty; the rest is kept', async () => {
    await sleep(5);
    const patch = {
      template_name: 'Staff Backend Engineer',
      skills: ['Go'],
      soft_skills: [],
      objective: 'Decide whether the candidate can lead the payments platform.',
      requirements: 'Has run a migration with no downtime.',
      default_duration_minutes: 60,
      status: 'archived',
      default_difficulty: 'expert',
    };
    const updated = dataOf<Role>(await api.patch(`/api/v1/roles/${role.id}`, patch), 200);
    expectResource('role', updated, { ...pick(role, FIELDS.role), ...patch, updated_at: expect.stringMatching(TIMESTAMP) });
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(role.updated_at));
    role = updated;
    await readBack('role', role);
    // A round's duration was set when it was created: a new role default does not move it.
    await readBack('round', roundB);
  });

  it('updates a round with every field of the update list, and the order follows stage_order', async () => {
    await sleep(5);
    const patch = {
      stage_name: 'Behavioural interview',
      stage_type: 'behavioural',
      duration_minutes: 25,
      interviewer_id: interviewer.id,
      stage_order: 20,
      difficulty: 'medium',
      pass_threshold: 100,
      automation_rule: 'reject_below_threshold',
      status: 'archived',
    };
    const updated = dataOf<Round>(await api.patch(`/api/v1/rounds/${roundC.id}`, patch), 200);
    expectResource('round', updated, { ...pick(roundC, FIELDS.round), ...patch, updated_at: expect.stringMatching(TIMESTAMP) });
    expect(Date.parse(updated.updated_at), 'updated_at moved').toBeGreaterThan(Date.parse(roundC.updated_at));
    roundC = updated;
    await readBack('round', roundC);
    const list = listOf<Round>(await api.get(`/api/v1/rounds?roleId=${role.id}`));
    expect(ids(list.data), 'rounds by stage_order after the move').toEqual(ids([roundA, roundB, roundC]));
  });

  it('updates an interviewer: dimensions replaced, output and useCase kept, made public', async () => {
    await sleep(5);
    const patch = {
      name: 'Ada, the kinder screener',
      persona: 'I am Ada. Take your time.',
      context: { domainContext: 'Ledgers' },
      interaction: { tone: 'friendly', style: 'structured', difficulty: 'easy', probingDepth: 'low' },
      evaluationDimensions: [
        { name: 'Reasoning', description: 'Thinks aloud', weight: 60.5 },
        { name: 'Honesty', description: 'Says what they do not know', weight: 39.5 },
      ],
      scoring: { scale: '0-100', scoringMethod: 'weighted_average', recommendationLogic: 'above 70' },
      isPublic: true,
      additionalInstructions: 'Be kind.',
    };
    const updated = dataOf<Interviewer>(await api.patch(`/api/v1/interviewers/${interviewer.id}`, patch), 200);
    expectResource('interviewer', updated, {
      ...pick(interviewer, FIELDS.interviewer),
      ...patch,
      updatedAt: expect.stringMatching(TIMESTAMP),
    });
    expect(Date.parse(updated.updatedAt), 'updatedAt moved').toBeGreaterThan(Date.parse(interviewer.updatedAt));
    interviewer = updated;
    await readBack('interviewer', interviewer);
    // Now public: the other workspace reads it and finds it in the shared library.
    expect(dataOf(await otherApi.get(`/api/v1/interviewers/${interviewer.id}`), 200)).toEqual(interviewer);
    expect(ids(listOf<Interviewer>(await otherApi.get('/api/v1/interviewers?scope=public&pageSize=100')).data)).toContain(interviewer.id);
  });

  it('updates a program', async () => {
    await sleep(5);
    const patch = { name: 'Interns 2027', description: 'Summer interns', status: 'archived' };
    const updated = dataOf<Program>(await api.patch(`/api/v1/programs/${plainProgram.id}`, patch), 200);
    expectResource('program', updated, { ...pick(plainProgram, FIELDS.program), ...patch, updated_at: expect.stringMatching(TIMESTAMP) });
    expect(Date.parse(updated.updated_at), 'updated_at moved').toBeGreaterThan(Date.parse(plainProgram.updated_at));
    const cleared = dataOf<Program>(await api.patch(`/api/v1/programs/${plainProgram.id}`, { description: null }), 200);
    expect(cleared.description).toBeNull();
    plainProgram = cleared;
    await readBack('program', plainProgram);
  });

  it('lists past one page with filters: no repeats, no skips, the true total, newest first', async () => {
    const walkers = await createRole(api);
    const items = [
      { name: 'Wanda Walker', email: 'wanda@walkers.test', role_id: walkers.id, pipeline_id: program.id },
      { name: 'Walt Walker', email: 'walt@walkers.test', role_id: walkers.id, status: 'archived' },
      { name: 'Sam Stone', email: 'sam.WALKER@stones.test', role_id: walkers.id, pipeline_id: program.id },
      { name: 'Wilma Walker', email: 'wilma@walkers.test', role_id: walkers.id, status: 'archived', pipeline_id: program.id },
      { name: 'Bob Brown', email: 'bob@brown.test', role_id: walkers.id },
      { name: 'Percy 100% Sure_thing \\o/', email: 'percy@percy.test', role_id: walkers.id },
    ];
    const answer = await api.post('/api/v1/participants/bulk', { participants: items.slice(0, 3) });
    expect(dataOf<BulkResult>(answer, 200).created, explain(answer)).toBe(3);
    for (const item of items.slice(3)) await createParticipant(api, item);

    const everyone = (await walkPages<Participant>(api, '/api/v1/participants', 2)).items;
    expectNewestFirst(everyone, 'all participants');
    const cases: Array<[string, (p: Participant) => boolean]> = [
      [`roleId=${walkers.id}`, (p) => p.role_id === walkers.id],
      ['search=walker', (p) => /walker/i.test(p.name) || /walker/i.test(p.email)],
      ['search=WALKER&status=archived', (p) => /walker/i.test(`${p.name} ${p.email}`) && p.status === 'archived'],
      [`roleId=${walkers.id}&status=active`, (p) => p.role_id === walkers.id && p.status === 'active'],
      ['status=active', (p) => p.status === 'active'],
      [`pipelineId=${program.id}`, (p) => p.pipeline_id === program.id],
      [`search=${encodeURIComponent('%')}`, (p) => `${p.name}${p.email}`.includes('%')],
      ['search=_', (p) => `${p.name}${p.email}`.includes('_')],
      [`search=${encodeURIComponent('\\')}`, (p) => `${p.name}${p.email}`.includes('\\')],
      [`search=${encodeURIComponent('100% s')}`, (p) => p.name.toLowerCase().includes('100% s')],
      ['search=NAVY.EXAMPLE', (p) => p.email.toLowerCase().includes('navy.example')],
      [`roleId=${walkers.id}&unknownParameter=ignored`, (p) => p.role_id === walkers.id],
    ];
    const expectedCounts = [6, 4, 2, 4, everyone.filter((p) => p.status === 'active').length, 3, 1, 1, 1, 1, 1, 6];
    for (const [index, [query, keep]] of cases.entries()) {
      const expected = everyone.filter(keep);
      expect(expected.length, `fixture count for ${query}`).toBe(expectedCounts[index]);
      const { items: walked, meta } = await walkPages<Participant>(api, `/api/v1/participants?${query}`, 2);
      expect(meta.total, `meta.total of ${query}`).toBe(expected.length);
      expect(ids(walked), `participants?${query}, walked two a page`).toEqual(ids(expected));
    }

    // A page past the end: empty, with the true meta.
    const past = listOf<Participant>(await api.get(`/api/v1/participants?roleId=${walkers.id}&page=10&pageSize=2`));
    expect(past).toEqual({ data: [], meta: { page: 10, pageSize: 2, total: 6, totalPages: 3 } });
    // Defaults: page 1 of 20.
    expect(listOf<Participant>(await api.get('/api/v1/participants')).meta).toEqual({
      page: 1,
      pageSize: 20,
      total: everyone.length,
      totalPages: Math.ceil(everyone.length / 20),
    });
  });

  it('lists roles, interviewers and programs past one page; scope=public lists public interviewers of every workspace', async () => {
    const roles = await walkPages<Role>(api, '/api/v1/roles', 2);
    expect(roles.meta.total).toBe(derivedRoles.length + 2);
    expect(ids(roles.items)).toEqual(expect.arrayContaining(ids([role, ...derivedRoles])));

    const own = await walkPages<Interviewer>(api, '/api/v1/interviewers', 2);
    expect(sorted(ids(own.items)), 'own interviewers only').toEqual(sorted(ids([interviewer, plainInterviewer, fork, ownFork])));

    const shared = await walkPages<Interviewer>(api, '/api/v1/interviewers?scope=public', 1);
    expect(ids(shared.items)).toEqual(expect.arrayContaining([interviewer.id, publicSource.id]));
    expect(
      shared.items.filter((item) => !item.isPublic).map((item) => item.id),
      'scope=public lists public interviewers only',
    ).toEqual([]);

    const programs = await walkPages<Program>(api, '/api/v1/programs', 1);
    expect(sorted(ids(programs.items))).toEqual(sorted(ids([program, plainProgram])));
    // The other workspace sees none of them.
    expect(listOf<Program>(await otherApi.get('/api/v1/programs')).meta.total).toBe(0);
    expect(ids(listOf<Role>(await otherApi.get('/api/v1/roles')).data), 'the other workspace’s roles').toEqual([foreignRole.id]);
    expect(listOf<Participant>(await otherApi.get('/api/v1/participants')).meta.total).toBe(0);
    expect(listOf<Round>(await otherApi.get('/api/v1/rounds')).meta.total).toBe(0);
  });

  it('answers an empty page of sessions for a participant', async () => {
    const sessions = listOf<unknown>(await api.get(`/api/v1/participants/${ada.id}/sessions`));
    expect(sessions).toEqual({ data: [], meta: { page: 1, pageSize: 20, total: 0, totalPages: 0 } });
    for (const status of ['scheduled', 'in_progress', 'completed', 'failed', 'cancelled'])
      expect(listOf<unknown>(await api.get(`/api/v1/participants/${ada.id}/sessions?status=${status}&pageSize=5`)).meta).toEqual({
        page: 1,
        pageSize: 5,
        total: 0,
        totalPages: 0,
      });
  });

  it('refuses with 409 to delete what others point to, naming the dependants', async () => {
    const roleAnswer = await api.delete(`/api/v1/roles/${role.id}`);
    const roleError = expectError(roleAnswer, 409).error;
    // Named with their numbers, as docs/resources.md shows: rounds A, B and C; Alan (Ada moved to another role).
    expect(roleError, explain(roleAnswer)).toMatch(/\b3 rounds\b/);
    expect(roleError, explain(roleAnswer)).toMatch(/\b1 participant\b/);
    await readBack('role', role);

    const interviewerAnswer = await api.delete(`/api/v1/interviewers/${interviewer.id}`);
    expect(expectError(interviewerAnswer, 409).error, explain(interviewerAnswer)).toMatch(/\b2 rounds\b/);
    await readBack('interviewer', interviewer);

    const programAnswer = await api.delete(`/api/v1/programs/${program.id}`);
    expect(expectError(programAnswer, 409).error, explain(programAnswer)).toMatch(/\b3 participants\b/);
    await readBack('program', program);

    // A role with participants but no rounds.
    const onlyParticipants = await createRole(api);
    await createParticipant(api, { role_id: onlyParticipants.id });
    const participantsAnswer = await api.delete(`/api/v1/roles/${onlyParticipants.id}`);
    const onlyError = expectError(participantsAnswer, 409).error;
    expect(onlyError, explain(participantsAnswer)).toMatch(/\b1 participant\b/);
    expect(onlyError, `no rounds to name: ${explain(participantsAnswer)}`).not.toMatch(/round/);
  });

  it('deletes everything: 204 with no body, then 404 on read and on a second delete', async () => {
    async function remove(kind: Kind, listed: { id: string }): Promise<void> {
      const id = listed.id;
      // A list item is the resource exactly as a read answers it.
      expect(dataOf(await api.get(`${PATHS[kind]}/${id}`), 200), `${kind} listed = read`).toEqual(listed);
      const answer = await api.delete(`${PATHS[kind]}/${id}`);
      expectStatus(answer, 204);
      expect(answer.text, `a 204 has no body: ${explain(answer)}`).toBe('');
      expectError(await api.get(`${PATHS[kind]}/${id}`), 404);
      expectError(await api.delete(`${PATHS[kind]}/${id}`), 404);
    }
    const all = async <T extends { id: string }>(kind: Kind) => (await walkPages<T>(api, PATHS[kind], 100)).items;

    for (const participant of await all<Participant>('participant')) await remove('participant', participant);
    for (const round of await all<Round>('round')) await remove('round', round);
    for (const item of await all<Role>('role')) await remove('role', item);
    for (const item of await all<Interviewer>('interviewer')) await remove('interviewer', item);
    for (const item of await all<Program>('program')) await remove('program', item);

    for (const kind of Object.keys(PATHS) as Kind[]) expect(listOf(await api.get(PATHS[kind])).meta.total, `${kind}s left`).toBe(0);
    // The other workspace's public interviewer is still there.
    expect(dataOf(await otherApi.get(`/api/v1/interviewers/${publicSource.id}`), 200)).toEqual(publicSource);
  });
});
