import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/platform/index.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, expectIssue, expectStatus, explain, listOf, walkPages, type Api, type Method } from './support/client.js';
import { createParticipant, createProgram, createRole, createRound, TIMESTAMP, unique, UUID, type Obj } from './support/resources.js';
import {
  createSession,
  creditsOf,
  emailsOf,
  eventsOf,
  MAIL_FROM,
  move,
  SESSION_FIELDS,
  SESSIONS,
  setUp,
  subscribe,
  type Scorecard,
  type Session,
  type Setup,
} from './support/sessions.js';

const LATER = '2030-05-04T09:30:00+02:00';
const LATER_UTC = '2030-05-04T07:30:00.000Z';

describe.each([pgliteDriver(), postgresDriver()])('sessions on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;
  let acmeId: string;
  let setup: Setup;
  const db = (): Db => server.platform.database.db;

  beforeAll(async () => {
    server = await startResourcesApp(await driver.env());
    acmeId = await createWorkspace(server.platform, 'acme');
    await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
    await subscribe(db(), acmeId);
    setup = await setUp(api);
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  /** A fresh participant of the shared role, so that tests never meet each other's open sessions. */
  const someone = (body: Obj = {}) =>
    createParticipant(api, { name: `Person ${unique()}`, external_id: `ext-${unique()}`, role_id: setup.role.id, ...body });
  const scheduled = async (body: Obj = {}) =>
    createSession(api, { candidate_id: (await someone()).id, role_id: setup.role.id, scheduled_at: LATER, ...body });
  const get = async (id: string) => dataOf<Session>(await api.get(`${SESSIONS}/${id}`), 200);

  describe('create', () => {
    it('answers 201 with every field, picks the first active round, and writes the invite and session.created to the outbox', async () => {
      const before = await creditsOf(api);
      const answer = await api.post(SESSIONS, {
        candidate_id: setup.participant.id,
        role_id: setup.role.id,
        stage: 'screen',
        scheduled_at: LATER,
        timezone: 'Europe/Paris',
        notes: 'Prefers mornings.',
      });
      const session = dataOf<Session>(answer, 201);
      expect(Object.keys(session).sort(), explain(answer)).toEqual([...SESSION_FIELDS, 'idempotent'].sort());
      expect(session).toEqual({
        id: expect.stringMatching(UUID),
        candidate_id: setup.participant.id,
        role_id: setup.role.id,
        interview_id: setup.first.id,
        stage: 'screen',
        idempotency_key: null,
        scheduled_at: LATER_UTC,
        timezone: 'Europe/Paris',
        notes: 'Prefers mornings.',
        status: 'scheduled',
        failure_reason: null,
        status_history: [{ status: 'scheduled', at: expect.stringMatching(TIMESTAMP) }],
        started_at: null,
        ended_at: null,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
        idempotent: false,
      });
      const { idempotent: _flag, ...stored } = session;
      expect(await get(session.id)).toEqual(stored);
      expect(session.status_history[0].at).toBe(session.created_at);
      expect(await creditsOf(api), 'a created session spends one credit').toBe(before - 1);

      const emails = await emailsOf(db(), session.id);
      expect(emails.map((email) => [email.topic, email.status])).toEqual([['invite', 'pending']]);
      const mail = emails[0].payload as {
        to: string;
        subject: string;
        text: string;
        html: string;
        calendar?: { method: string; content: string };
      };
      expect(mail.to).toBe(setup.participant.email);
      expect(mail.subject).toContain(setup.role.template_name);
      expect(mail.subject).toContain('Phone screen');
      expect(mail.text).toContain('45 minutes');
      expect(mail.calendar?.method).toBe('REQUEST');
      expect(mail.calendar?.content).toContain(`${session.id}@`);
      expect(mail.calendar?.content).toContain(MAIL_FROM.match(/<(.+)>/)![1]);

      const events = await eventsOf(db(), session.id);
      expect(events.map((event) => event.topic)).toEqual(['session.created']);
      expect(events[0].payload).toMatchObject({
        type: 'session.created',
        workspace_id: acmeId,
        external_id: setup.participant.external_id,
        data: stored,
      });
    });

    it('takes the minimal body: UTC, no time, no stage; the invite says the time will be arranged', async () => {
      const participant = await someone();
      const session = await createSession(api, { candidate_id: participant.id, role_id: setup.role.id });
      expect(session).toMatchObject({ timezone: 'UTC', scheduled_at: null, stage: null, notes: null, interview_id: setup.first.id });
      const [email] = await emailsOf(db(), session.id);
      expect((email.payload as { calendar?: unknown }).calendar).toBeUndefined();
      expect((email.payload as { text: string }).text).toContain('arranged');
    });

    it('auto-selection skips rounds that are not active and orders by stage_order', async () => {
      const role = await createRole(api);
      const draft = await createRound(api, role.id, { stage_order: 0, status: 'draft' });
      const third = await createRound(api, role.id, { stage_order: 3 });
      const second = await createRound(api, role.id, { stage_order: 2 });
      const participant = await someone({ role_id: role.id });
      const session = await createSession(api, { candidate_id: participant.id, role_id: role.id });
      expect(session.interview_id, `not ${draft.id} (draft) nor ${third.id}`).toBe(second.id);
    });

    it('names interview_id when the role has no active round, or when the round belongs to another role', async () => {
      const empty = await createRole(api);
      await createRound(api, empty.id, { status: 'archived' });
      const participant = await someone();
      const none = expectIssue(await api.post(SESSIONS, { candidate_id: participant.id, role_id: empty.id }), 'interview_id');
      expect(none[0].message).toContain('no active round');
      const foreign = await api.post(SESSIONS, { candidate_id: participant.id, role_id: empty.id, interview_id: setup.first.id });
      expectIssue(foreign, 'interview_id');
      expect(foreign.body.error).toContain('round of role');
    });

    it('an unknown participant, role or round is a 400 on its field; ids of another workspace too', async () => {
      const theirs = await setUp(otherApi);
      const both = await api.post(SESSIONS, { candidate_id: theirs.participant.id, role_id: theirs.role.id });
      expectIssue(both, 'candidate_id');
      expectIssue(both, 'role_id');
      expectIssue(
        await api.post(SESSIONS, { candidate_id: setup.participant.id, role_id: setup.role.id, interview_id: theirs.first.id }),
        'interview_id',
      );
      expectIssue(await api.post(SESSIONS, { candidate_id: crypto.randomUUID(), role_id: setup.role.id }), 'candidate_id');
    });

    it('a second open session of the participant in the round is a 409 unless force; a closed one does not count', async () => {
      const participant = await someone();
      const body = { candidate_id: participant.id, role_id: setup.role.id };
      const first = await createSession(api, body);
      const credits = await creditsOf(api);
      const duplicate = expectError(await api.post(SESSIONS, body), 409);
      expect(duplicate.error).toContain(first.id);
      expect(duplicate.error).toContain('force');
      expect(await creditsOf(api), 'a refused create spends nothing').toBe(credits);
      const forced = await createSession(api, { ...body, force: true });
      expect(forced.id).not.toBe(first.id);
      // Another round of the same role is not a duplicate.
      await createSession(api, { ...body, interview_id: setup.second.id });
      // Starting it keeps it open.
      expectStatus(await move(api, first.id, 'start'), 200);
      expectError(await api.post(SESSIONS, body), 409);
      expectStatus(await move(api, first.id, 'cancel'), 200);
      expectStatus(await move(api, forced.id, 'cancel'), 200);
      await createSession(api, body);
    });

    it('a replayed idempotency_key answers 200 with the original, whatever the body says, and spends nothing', async () => {
      const key = `key-${unique()}`;
      const original = await scheduled({ idempotency_key: key, notes: 'first' });
      expect(original.idempotent).toBe(false);
      const credits = await creditsOf(api);
      const other = await someone();
      const replay = await api.post(SESSIONS, {
        candidate_id: other.id,
        role_id: setup.role.id,
        idempotency_key: key,
        notes: 'second',
        timezone: 'Asia/Tokyo',
      });
      const { idempotent, ...replayed } = dataOf<Session>(replay, 200);
      expect(idempotent).toBe(true);
      const { idempotent: _flag, ...stored } = original;
      expect(replayed).toEqual(stored);
      expect(await creditsOf(api)).toBe(credits);
      expect(await emailsOf(db(), original.id)).toHaveLength(1);
      expect(await eventsOf(db(), original.id)).toHaveLength(1);
      // Keys are per workspace.
      const theirs = await setUp(otherApi);
      const mine = await createSession(otherApi, { candidate_id: theirs.participant.id, role_id: theirs.role.id, idempotency_key: key });
      expect(mine.idempotent).toBe(false);
      expect(mine.id).not.toBe(original.id);
    });

    it('stores scheduled_at in UTC whatever offset it came with', async () => {
      const session = await scheduled({ scheduled_at: '2030-01-15T23:45:10.5-05:00', timezone: 'America/New_York' });
      expect(session.scheduled_at).toBe('2030-01-16T04:45:10.500Z');
    });

    it('a signed-in member passes accountSlug in the body', async () => {
      await server.platform.admin({ command: 'user.create', email: 'member@example.com', password: 'correct horse' });
      await server.platform.admin({ command: 'member.add', workspace: 'acme', email: 'member@example.com' });
      const login = await api.post('/api/v1/auth/login', { email: 'member@example.com', password: 'correct horse' }, { key: null });
      const cookie = login.headers
        .getSetCookie()
        .find((value) => value.startsWith('session='))
        ?.split(';')[0];
      expect(cookie, explain(login)).toBeDefined();
      const member = (method: Method, path: string, body?: unknown) =>
        api.request(method, path, {
          key: null,
          headers: { cookie: cookie!, origin: new URL(api.baseUrl).origin },
          ...(body !== undefined ? { body } : {}),
        });
      const participant = await someone();
      const body = { candidate_id: participant.id, role_id: setup.role.id };
      expectIssue(await member('POST', SESSIONS, body), 'accountSlug');
      expectError(await member('POST', SESSIONS, { ...body, accountSlug: 'other' }), 404);
      const session = dataOf<Session>(await member('POST', SESSIONS, { ...body, accountSlug: 'acme' }), 201);
      expect((await get(session.id)).candidate_id).toBe(participant.id);
      expectStatus(await member('POST', `${SESSIONS}/${session.id}/cancel?accountSlug=acme`), 200);
    });
  });

  describe('plans, credits and scopes', () => {
    it('a free-plan workspace gets 402', async () => {
      await createWorkspace(server.platform, 'freebie', 'free');
      const free = server.api(await createKey(server.platform, 'freebie', 'all'));
      const answer = await free.post(SESSIONS, { candidate_id: crypto.randomUUID(), role_id: crypto.randomUUID() });
      expect(expectError(answer, 402).error).toContain('paid plan');
    });

    it('a workspace out of credits gets 402, and nothing is stored', async () => {
      await createWorkspace(server.platform, 'broke');
      const broke = server.api(await createKey(server.platform, 'broke', 'all'));
      const mine = await setUp(broke);
      await server.platform.admin({ command: 'plan.set', workspace: 'broke', plan: 'starter', credits: 1 });
      await createSession(broke, { candidate_id: mine.participant.id, role_id: mine.role.id });
      expect(await creditsOf(broke)).toBe(0);
      const answer = await broke.post(SESSIONS, { candidate_id: mine.participant.id, role_id: mine.role.id, interview_id: mine.second.id });
      expect(expectError(answer, 402).error).toContain('credits');
      expect(listOf<Session>(await broke.get(SESSIONS)).meta.total).toBe(1);
    });

    it('each route needs its scope: 403 without it', async () => {
      const session = await scheduled();
      const reader = server.api(await createKey(server.platform, 'acme', 'sessions:read'));
      const writer = server.api(await createKey(server.platform, 'acme', 'sessions:write'));
      const body = { candidate_id: setup.participant.id, role_id: setup.role.id };
      for (const [method, path, payload] of [
        ['POST', SESSIONS, body],
        ['PATCH', `${SESSIONS}/${session.id}`, { scheduled_at: LATER }],
        ['POST', `${SESSIONS}/${session.id}/resend-invite`, undefined],
        ['POST', `${SESSIONS}/${session.id}/start`, undefined],
        ['POST', `${SESSIONS}/${session.id}/fail`, { reason: 'x' }],
        ['POST', `${SESSIONS}/${session.id}/cancel`, undefined],
        ['POST', `${SESSIONS}/${session.id}/scorecard`, { scores: {} }],
      ] as Array<[Method, string, unknown]>) {
        expect(expectError(await reader.request(method, path, { body: payload }), 403).error).toContain('sessions:write');
      }
      for (const path of [
        SESSIONS,
        `${SESSIONS}/${session.id}`,
        `/api/v1/participants/${setup.participant.id}/sessions`,
        `${SESSIONS}/${session.id}/scorecard`,
        `${SESSIONS}/${session.id}/transcript`,
        `${SESSIONS}/${session.id}/recording`,
      ]) {
        expect(expectError(await writer.get(path), 403).error).toContain('sessions:read');
      }
      expect((await get(session.id)).status).toBe('scheduled');
    });
  });

  describe('reads', () => {
    it('a session of another workspace is 404 on every route, and untouched', async () => {
      const session = await scheduled();
      const id = session.id;
      for (const [method, path, body] of [
        ['GET', `${SESSIONS}/${id}`, undefined],
        ['PATCH', `${SESSIONS}/${id}`, { scheduled_at: LATER }],
        ['POST', `${SESSIONS}/${id}/resend-invite`, undefined],
        ['POST', `${SESSIONS}/${id}/start`, undefined],
        ['POST', `${SESSIONS}/${id}/fail`, { reason: 'x' }],
        ['POST', `${SESSIONS}/${id}/cancel`, undefined],
        ['POST', `${SESSIONS}/${id}/scorecard`, { scores: { 'Problem solving': 5, Communication: 5 } }],
        ['GET', `${SESSIONS}/${id}/scorecard`, undefined],
        ['GET', `${SESSIONS}/${id}/transcript`, undefined],
        ['GET', `${SESSIONS}/${id}/recording`, undefined],
        ['GET', `/api/v1/participants/${session.candidate_id}/sessions`, undefined],
      ] as Array<[Method, string, unknown]>) {
        expectError(await otherApi.request(method, path, { body }), 404);
        expectError(
          await api.request(method, path.replace(id, crypto.randomUUID()).replace(session.candidate_id, crypto.randomUUID()), { body }),
          404,
        );
      }
      expect(await get(id)).toEqual(Object.fromEntries(Object.entries(session).filter(([key]) => key !== 'idempotent')));
      expect(listOf<Session>(await otherApi.get(SESSIONS)).data.map((s) => s.id)).not.toContain(id);
    });

    it('lists with every filter, newest first, and pages past one page', async () => {
      const slug = `lists-${unique()}`;
      await createWorkspace(server.platform, slug);
      const lister = server.api(await createKey(server.platform, slug, 'all'));
      const mine = await setUp(lister);
      const program = await createProgram(lister);
      const ada = await createParticipant(lister, {
        name: 'Ada 50%_Lovelace',
        email: `Ada.${unique()}@Example.com`,
        pipeline_id: program.id,
      });
      const bob = await createParticipant(lister, { name: 'Bob Builder' });
      const otherRole = await createRole(lister);
      const otherRound = await createRound(lister, otherRole.id);
      const created: Session[] = [];
      const add = async (body: Obj) => created.push(await createSession(lister, { force: true, ...body }));
      for (let i = 0; i < 4; i++) await add({ candidate_id: ada.id, role_id: mine.role.id });
      await add({ candidate_id: ada.id, role_id: mine.role.id, interview_id: mine.second.id });
      await add({ candidate_id: bob.id, role_id: otherRole.id });
      await add({ candidate_id: bob.id, role_id: mine.role.id });
      await add({ candidate_id: mine.participant.id, role_id: mine.role.id });
      expectStatus(await move(lister, created[0].id, 'cancel'), 200);
      expectStatus(await move(lister, created[6].id, 'start'), 200);

      const ids = (list: Session[]) => list.map((s) => s.id);
      const newestFirst = [...created].reverse();
      const all = await walkPages<Session>(lister, SESSIONS, 3);
      expect(ids(all.items)).toEqual(ids(newestFirst));
      const adas = newestFirst.filter((s) => s.candidate_id === ada.id);
      const expectFilter = async (query: string, want: Session[]) => {
        const { items } = await walkPages<Session>(lister, `${SESSIONS}?${query}`, 2);
        expect(ids(items), query).toEqual(ids(want));
      };
      await expectFilter(`participantId=${ada.id}`, adas);
      await expectFilter(`participantEmail=${encodeURIComponent(ada.email.toUpperCase())}`, adas);
      await expectFilter(`participantEmail=${encodeURIComponent('ada@')}`, []);
      await expectFilter(`programId=${program.id}`, adas);
      await expectFilter(`search=${encodeURIComponent('50%_love')}`, adas);
      await expectFilter(`search=${encodeURIComponent('50%X')}`, []);
      await expectFilter(
        `search=builder`,
        newestFirst.filter((s) => s.candidate_id === bob.id),
      );
      await expectFilter(
        `roleId=${otherRole.id}`,
        newestFirst.filter((s) => s.role_id === otherRole.id),
      );
      await expectFilter(
        `roundId=${mine.second.id}`,
        newestFirst.filter((s) => s.interview_id === mine.second.id),
      );
      await expectFilter(
        `roundId=${otherRound.id}`,
        newestFirst.filter((s) => s.interview_id === otherRound.id),
      );
      await expectFilter(
        `status=cancelled`,
        [created[0]].map((s) => ({ ...s })),
      );
      await expectFilter(`status=in_progress`, [created[6]]);
      await expectFilter(
        `status=scheduled&participantId=${ada.id}&roundId=${mine.first.id}`,
        adas.filter((s) => s.id !== created[0].id && s.interview_id === mine.first.id),
      );
      const past = listOf<Session>(await lister.get(`${SESSIONS}?page=9&pageSize=3`));
      expect(past).toEqual({ data: [], meta: { page: 9, pageSize: 3, total: created.length, totalPages: 3 } });

      const path = `/api/v1/participants/${ada.id}/sessions`;
      expect(ids((await walkPages<Session>(lister, path, 2)).items)).toEqual(ids(adas));
      expect(ids(listOf<Session>(await lister.get(`${path}?status=cancelled`)).data)).toEqual([created[0].id]);
      expect(listOf<Session>(await lister.get(`/api/v1/participants/${mine.participant.id}/sessions?status=completed`)).meta.total).toBe(0);
      expectError(await lister.get(`/api/v1/participants/${crypto.randomUUID()}/sessions`), 404);
    });
  });

  it('every route is in the OpenAPI document with its scope, and the session schema names every field', async () => {
    const document = (await api.get('/api/v1/openapi.json', { key: null })).body as unknown as {
      paths: Record<string, Record<string, { 'x-required-scope'?: string; requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const routes: Array<[string, string, string, string]> = [
      ['post', SESSIONS, 'sessions:write', '201'],
      ['get', SESSIONS, 'sessions:read', '200'],
      ['get', `${SESSIONS}/{id}`, 'sessions:read', '200'],
      ['patch', `${SESSIONS}/{id}`, 'sessions:write', '200'],
      ['post', `${SESSIONS}/{id}/resend-invite`, 'sessions:write', '200'],
      ['post', `${SESSIONS}/{id}/start`, 'sessions:write', '200'],
      ['post', `${SESSIONS}/{id}/fail`, 'sessions:write', '200'],
      ['post', `${SESSIONS}/{id}/cancel`, 'sessions:write', '200'],
      ['post', `${SESSIONS}/{id}/scorecard`, 'sessions:write', '201'],
      ['get', `${SESSIONS}/{id}/scorecard`, 'sessions:read', '200'],
      ['get', `${SESSIONS}/{id}/transcript`, 'sessions:read', '200'],
      ['get', `${SESSIONS}/{id}/recording`, 'sessions:read', '200'],
      ['get', '/api/v1/participants/{id}/sessions', 'sessions:read', '200'],
    ];
    for (const [method, path, scope, status] of routes) {
      const operation = document.paths?.[path]?.[method];
      expect(operation, `${method} ${path} in openapi.json`).toBeDefined();
      expect(operation!['x-required-scope'], `${method} ${path}`).toBe(scope);
      expect(Object.keys(operation!.responses), `${method} ${path}`).toContain(status);
    }
    // cancel's body is optional, fail's is not
    expect(document.paths[`${SESSIONS}/{id}/cancel`].post.requestBody).toMatchObject({ required: false });
    expect(document.paths[`${SESSIONS}/{id}/fail`].post.requestBody).toMatchObject({ required: true });
    const create = JSON.stringify(document.paths[SESSIONS].post);
    for (const field of [...SESSION_FIELDS, 'idempotent', 'force', 'accountSlug'])
      expect(create, `create names ${field}`).toContain(`"${field}"`);
  });

  describe('reschedule and resend', () => {
    it('PATCH moves a scheduled session and queues the updated invite and session.rescheduled', async () => {
      const session = await scheduled({ timezone: 'Asia/Kolkata' });
      const answer = await api.patch(`${SESSIONS}/${session.id}`, { scheduled_at: '2031-02-03T04:05:06Z' });
      expectStatus(answer, 200);
      expect(answer.body).toEqual({ success: true });
      const after = await get(session.id);
      expect(after.scheduled_at).toBe('2031-02-03T04:05:06.000Z');
      expect(Date.parse(after.updated_at)).toBeGreaterThanOrEqual(Date.parse(session.updated_at));
      const emails = await emailsOf(db(), session.id);
      expect(emails.map((email) => email.topic)).toEqual(['invite', 'invite.update']);
      const update = emails[1].payload as { subject: string; text: string; calendar: { content: string } };
      expect(update.subject).toMatch(/^Updated/);
      expect(update.text).toContain('2031');
      expect(update.calendar.content).toContain('20310203T040506Z');
      const events = await eventsOf(db(), session.id);
      expect(events.map((event) => event.topic)).toEqual(['session.created', 'session.rescheduled']);
      expect((events[1].payload as { data: Session }).data.scheduled_at).toBe('2031-02-03T04:05:06.000Z');
    });

    it('resend-invite queues the invite again', async () => {
      const session = await scheduled();
      const answer = await api.post(`${SESSIONS}/${session.id}/resend-invite`);
      expectStatus(answer, 200);
      expect(answer.body).toEqual({ success: true });
      const emails = await emailsOf(db(), session.id);
      expect(emails.map((email) => email.topic)).toEqual(['invite', 'invite.resend']);
      expect((emails[1].payload as { subject: string }).subject).toMatch(/^Interview invitation/);
    });

    it('both are refused with 409 naming the status once the session is not scheduled', async () => {
      const session = await scheduled();
      expectStatus(await move(api, session.id, 'start'), 200);
      const patch = expectError(await api.patch(`${SESSIONS}/${session.id}`, { scheduled_at: LATER }), 409);
      expect(patch.error).toContain('in_progress');
      const resend = expectError(await api.post(`${SESSIONS}/${session.id}/resend-invite`), 409);
      expect(resend.error).toContain('in_progress');
      expectStatus(await move(api, session.id, 'cancel'), 200);
      expect(expectError(await api.patch(`${SESSIONS}/${session.id}`, { scheduled_at: LATER }), 409).error).toContain('cancelled');
      expect(expectError(await api.post(`${SESSIONS}/${session.id}/resend-invite`), 409).error).toContain('cancelled');
      expect((await get(session.id)).scheduled_at).toBe(LATER_UTC);
      expect((await emailsOf(db(), session.id)).map((email) => email.topic)).toEqual(['invite']);
    });
  });

  describe('lifecycle', () => {
    it('scheduled → in_progress → failed, with timestamps, history, failure_reason and events', async () => {
      const participant = await someone();
      const session = await createSession(api, { candidate_id: participant.id, role_id: setup.role.id });
      const started = dataOf<Session>(await move(api, session.id, 'start'), 200);
      expect(started).toMatchObject({ status: 'in_progress', started_at: expect.stringMatching(TIMESTAMP), ended_at: null });
      expect(started.status_history.map((change) => change.status)).toEqual(['scheduled', 'in_progress']);
      expect(started.status_history[1].at).toBe(started.started_at);
      expect(expectError(await move(api, session.id, 'start'), 409).error).toContain('is in_progress');
      const failed = dataOf<Session>(await move(api, session.id, 'fail', { reason: 'The candidate lost their connection' }), 200);
      expect(failed).toMatchObject({
        status: 'failed',
        failure_reason: 'The candidate lost their connection',
        ended_at: expect.stringMatching(TIMESTAMP),
      });
      expect(failed.status_history.at(-1)).toEqual({
        status: 'failed',
        at: failed.ended_at,
        reason: 'The candidate lost their connection',
      });
      expect(await get(session.id)).toEqual(failed);
      for (const step of ['start', 'cancel'] as const)
        expect(expectError(await move(api, session.id, step), 409).error).toContain('is failed');
      expect(expectError(await move(api, session.id, 'fail', { reason: 'again' }), 409).error).toContain('is failed');
      const events = await eventsOf(db(), session.id);
      expect(events.map((event) => event.topic)).toEqual(['session.created', 'session.started', 'session.failed']);
      expect(events[2].payload).toMatchObject({
        external_id: participant.external_id,
        data: { status: 'failed', failure_reason: 'The candidate lost their connection' },
      });
    });

    it('cancel from scheduled (with a reason) and from in_progress (without a body); fail needs in_progress', async () => {
      const first = await scheduled();
      expect(expectError(await move(api, first.id, 'fail', { reason: 'no-show' }), 409).error).toContain('is scheduled');
      const cancelled = dataOf<Session>(await move(api, first.id, 'cancel', { reason: 'Position filled' }), 200);
      expect(cancelled).toMatchObject({
        status: 'cancelled',
        started_at: null,
        ended_at: expect.stringMatching(TIMESTAMP),
        failure_reason: null,
      });
      expect(cancelled.status_history.at(-1)).toEqual({ status: 'cancelled', at: cancelled.ended_at, reason: 'Position filled' });
      expect(expectError(await move(api, first.id, 'cancel'), 409).error).toContain('is cancelled');

      const second = await scheduled();
      expectStatus(await move(api, second.id, 'start'), 200);
      const stopped = dataOf<Session>(await move(api, second.id, 'cancel'), 200);
      expect(stopped.status_history.map((change) => change.status)).toEqual(['scheduled', 'in_progress', 'cancelled']);
      expect(stopped.status_history.at(-1)).not.toHaveProperty('reason');
      expect((await eventsOf(db(), second.id)).map((event) => event.topic)).toEqual([
        'session.created',
        'session.started',
        'session.cancelled',
      ]);
    });
  });

  describe('scorecards', () => {
    const report = {
      scores: { 'Problem solving': 8, Communication: 6 },
      transcript: [
        { speaker: 'interviewer', text: 'Tell me about a ledger you built.', at: '2030-05-04T07:31:00Z' },
        { speaker: 'candidate', text: 'Double entry, in PostgreSQL.', at: '2030-05-04T07:31:20+00:00' },
      ],
      recording_url: 'https://recordings.example.com/s/1.mp4',
      summary: 'Solid.',
    };

    it('computes, stores and completes; the scorecard, transcript and recording read back; session.completed carries the summary', async () => {
      const session = await scheduled();
      expect(expectError(await move(api, session.id, 'scorecard', report), 409).error).toContain('is scheduled');
      expectStatus(await move(api, session.id, 'start'), 200);
      const scorecard = dataOf<Scorecard>(await move(api, session.id, 'scorecard', report), 201);
      expect(scorecard).toEqual({
        session_id: session.id,
        interviewer_id: setup.interviewer.id,
        scale: '0-10',
        scores: [
          { name: 'Problem solving', score: 8, weight: 60 },
          { name: 'Communication', score: 6, weight: 40 },
        ],
        weighted_score: 7.2,
        pass_threshold: 70,
        passed: true,
        recommendation: 'hire',
        summary: 'Solid.',
        created_at: expect.stringMatching(TIMESTAMP),
      });
      expect(dataOf<Scorecard>(await api.get(`${SESSIONS}/${session.id}/scorecard`), 200)).toEqual(scorecard);
      expect(dataOf(await api.get(`${SESSIONS}/${session.id}/transcript`), 200)).toEqual({
        session_id: session.id,
        transcript: report.transcript,
      });
      expect(dataOf(await api.get(`${SESSIONS}/${session.id}/recording`), 200)).toEqual({
        session_id: session.id,
        recording_url: report.recording_url,
      });
      const completed = await get(session.id);
      expect(completed).toMatchObject({ status: 'completed', ended_at: expect.stringMatching(TIMESTAMP) });
      expect(completed.status_history.map((change) => change.status)).toEqual(['scheduled', 'in_progress', 'completed']);
      expect(expectError(await move(api, session.id, 'scorecard', report), 409).error).toContain('is completed');
      expect(expectError(await move(api, session.id, 'cancel'), 409).error).toContain('is completed');
      const events = await eventsOf(db(), session.id);
      expect(events.map((event) => event.topic)).toEqual(['session.created', 'session.started', 'session.completed']);
      expect(events[2].payload).toMatchObject({
        data: { id: session.id, status: 'completed', scorecard: { weighted_score: 7.2, passed: true, recommendation: 'hire' } },
      });
    });

    it('a failing score gets the negative recommendation; without transcript or recording those read 404', async () => {
      const session = await scheduled();
      expectStatus(await move(api, session.id, 'start'), 200);
      const scorecard = dataOf<Scorecard>(
        await move(api, session.id, 'scorecard', { scores: { 'Problem solving': 7, Communication: 6.5 } }),
        201,
      );
      expect(scorecard).toMatchObject({ weighted_score: 6.8, passed: false, recommendation: 'no_hire', summary: null });
      expect(expectError(await api.get(`${SESSIONS}/${session.id}/transcript`), 404).error).toContain('no transcript');
      expect(expectError(await api.get(`${SESSIONS}/${session.id}/recording`), 404).error).toContain('no recording');
    });

    it('before a scorecard, its reads are 404 saying so', async () => {
      const session = await scheduled();
      for (const what of ['scorecard', 'transcript', 'recording']) {
        expect(expectError(await api.get(`${SESSIONS}/${session.id}/${what}`), 404).error).toContain('has no scorecard yet');
      }
    });

    it('missing, unknown and off-scale dimensions are 400 naming them; the session stays in_progress', async () => {
      const session = await scheduled();
      expectStatus(await move(api, session.id, 'start'), 200);
      const missing = await move(api, session.id, 'scorecard', { scores: { 'Problem solving': 8 } });
      expectIssue(missing, ['scores', 'Communication']);
      const unknown = await move(api, session.id, 'scorecard', { scores: { 'Problem solving': 8, Communication: 6, Charm: 9 } });
      expectIssue(unknown, ['scores', 'Charm']);
      const off = await move(api, session.id, 'scorecard', { scores: { 'Problem solving': 11, Communication: -1 } });
      expectIssue(off, ['scores', 'Problem solving']);
      expectIssue(off, ['scores', 'Communication']);
      expect((await get(session.id)).status).toBe('in_progress');
      expectError(await api.get(`${SESSIONS}/${session.id}/scorecard`), 404);
    });

    it("a round without an interviewer is a 409 explaining it; the interviewer's scale and the role's vocabulary apply", async () => {
      const unscored = await scheduled({ interview_id: setup.second.id });
      expectStatus(await move(api, unscored.id, 'start'), 200);
      expect(expectError(await move(api, unscored.id, 'scorecard', { scores: {} }), 409).error).toContain('no interviewer');

      const interviewer = await api.post('/api/v1/interviewers', {
        name: `Scale ${unique()}`,
        persona: 'Examiner',
        useCase: 'training',
        evaluationDimensions: [{ name: 'Safety', description: 'Follows the procedure', weight: 100 }],
        scoring: { scale: '0-5' },
      });
      const interviewerId = dataOf<{ id: string }>(interviewer, 201).id;
      const role = await createRole(api, { template_name: `Forklift ${unique()}`, use_case: 'training', description: 'd', objective: 'o' });
      const round = await createRound(api, role.id, { interviewer_id: interviewerId });
      const trainee = await someone({ role_id: role.id });
      const session = await createSession(api, { candidate_id: trainee.id, role_id: role.id });
      expectStatus(await move(api, session.id, 'start'), 200);
      expectIssue(await move(api, session.id, 'scorecard', { scores: { Safety: 6 } }), ['scores', 'Safety']);
      const scorecard = dataOf<Scorecard>(await move(api, session.id, 'scorecard', { scores: { Safety: 4 } }), 201);
      expect(scorecard).toMatchObject({
        scale: '0-5',
        weighted_score: 4,
        passed: true,
        recommendation: 'ready',
        interviewer_id: interviewerId,
      });
      expect(round.pass_threshold).toBeNull();
    });
  });
});
