import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { expectError, expectIssue, explain, listOf, type Api, type Method } from './support/client.js';
import { createParticipant, unique } from './support/resources.js';
import { createSession, move, SESSIONS, setUp, type Session, type Setup } from './support/sessions.js';

/** One bad request and the field its 400 must name (a path; issues may go deeper). */
type Case = [name: string, method: Method, path: string, body: unknown, field: string | string[]];

describe.each([pgliteDriver(), postgresDriver()])('session input on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let setup: Setup;
  let session: Session;
  let running: Session;

  beforeAll(async () => {
    server = await startResourcesApp(await driver.env());
    await createWorkspace(server.platform, 'acme');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    setup = await setUp(api);
    session = await createSession(api, { candidate_id: setup.participant.id, role_id: setup.role.id });
    const other = await createParticipant(api, { name: `Other ${unique()}` });
    running = await createSession(api, { candidate_id: other.id, role_id: setup.role.id });
    await move(api, running.id, 'start');
  });
  afterAll(async () => {
    await server?.close();
    await driver.stop();
  });

  const create = (extra: Record<string, unknown>) => ({
    candidate_id: setup.participant.id,
    role_id: setup.role.id,
    force: true,
    ...extra,
  });

  it('every route answers bad input with 400 and issues naming the field, never a 500, and changes nothing', async () => {
    const id = session.id;
    const cases: Case[] = [
      ['no candidate_id', 'POST', SESSIONS, { role_id: setup.role.id }, 'candidate_id'],
      ['no role_id', 'POST', SESSIONS, { candidate_id: setup.participant.id }, 'role_id'],
      ['candidate_id not a UUID', 'POST', SESSIONS, create({ candidate_id: 'ada' }), 'candidate_id'],
      ['role_id not a UUID', 'POST', SESSIONS, create({ role_id: 42 }), 'role_id'],
      ['interview_id not a UUID', 'POST', SESSIONS, create({ interview_id: 'first' }), 'interview_id'],
      ['unknown field', 'POST', SESSIONS, create({ participant_id: setup.participant.id }), 'participant_id'],
      ['camelCase field', 'POST', SESSIONS, create({ scheduledAt: '2030-01-01T00:00:00Z' }), 'scheduledAt'],
      ['idempotency_key too long', 'POST', SESSIONS, create({ idempotency_key: 'k'.repeat(256) }), 'idempotency_key'],
      ['idempotency_key empty', 'POST', SESSIONS, create({ idempotency_key: '' }), 'idempotency_key'],
      ['notes too long', 'POST', SESSIONS, create({ notes: 'n'.repeat(1001) }), 'notes'],
      ['stage too long', 'POST', SESSIONS, create({ stage: 's'.repeat(201) }), 'stage'],
      ['unknown time zone', 'POST', SESSIONS, create({ timezone: 'Mars/Olympus_Mons' }), 'timezone'],
      ['offset as time zone', 'POST', SESSIONS, create({ timezone: '+01:00' }), 'timezone'],
      ['empty time zone', 'POST', SESSIONS, create({ timezone: '' }), 'timezone'],
      ['scheduled_at without offset', 'POST', SESSIONS, create({ scheduled_at: '2030-01-01T10:00:00' }), 'scheduled_at'],
      ['scheduled_at not a date', 'POST', SESSIONS, create({ scheduled_at: 'tomorrow at ten' }), 'scheduled_at'],
      ['scheduled_at impossible', 'POST', SESSIONS, create({ scheduled_at: '2030-02-30T10:00:00Z' }), 'scheduled_at'],
      ['scheduled_at a number', 'POST', SESSIONS, create({ scheduled_at: 1_900_000_000_000 }), 'scheduled_at'],
      ['force a string', 'POST', SESSIONS, create({ force: 'yes' }), 'force'],
      ['notes null', 'POST', SESSIONS, create({ notes: null }), 'notes'],
      ['body an array', 'POST', SESSIONS, [create({})], []],
      ['pageSize over 100', 'GET', `${SESSIONS}?pageSize=101`, undefined, 'pageSize'],
      ['page 0', 'GET', `${SESSIONS}?page=0`, undefined, 'page'],
      ['unknown status filter', 'GET', `${SESSIONS}?status=done`, undefined, 'status'],
      ['participantId not a UUID', 'GET', `${SESSIONS}?participantId=ada`, undefined, 'participantId'],
      ['roleId not a UUID', 'GET', `${SESSIONS}?roleId=1`, undefined, 'roleId'],
      ['roundId not a UUID', 'GET', `${SESSIONS}?roundId=1`, undefined, 'roundId'],
      ['programId not a UUID', 'GET', `${SESSIONS}?programId=1`, undefined, 'programId'],
      ['search too long', 'GET', `${SESSIONS}?search=${'s'.repeat(201)}`, undefined, 'search'],
      ['get: id not a UUID', 'GET', `${SESSIONS}/abc`, undefined, 'id'],
      ['participant sessions: id not a UUID', 'GET', '/api/v1/participants/abc/sessions', undefined, 'id'],
      ['participant sessions: bad status', 'GET', `/api/v1/participants/${setup.participant.id}/sessions?status=open`, undefined, 'status'],
      ['participant sessions: pageSize', 'GET', `/api/v1/participants/${setup.participant.id}/sessions?pageSize=0`, undefined, 'pageSize'],
      ['reschedule: no scheduled_at', 'PATCH', `${SESSIONS}/${id}`, {}, 'scheduled_at'],
      ['reschedule: null scheduled_at', 'PATCH', `${SESSIONS}/${id}`, { scheduled_at: null }, 'scheduled_at'],
      ['reschedule: bad scheduled_at', 'PATCH', `${SESSIONS}/${id}`, { scheduled_at: '03/04/2030' }, 'scheduled_at'],
      ['reschedule: another field', 'PATCH', `${SESSIONS}/${id}`, { scheduled_at: '2030-01-01T00:00:00Z', timezone: 'UTC' }, 'timezone'],
      ['reschedule: no body', 'PATCH', `${SESSIONS}/${id}`, undefined, []],
      ['reschedule: id not a UUID', 'PATCH', `${SESSIONS}/1`, { scheduled_at: '2030-01-01T00:00:00Z' }, 'id'],
      ['resend: id not a UUID', 'POST', `${SESSIONS}/1/resend-invite`, undefined, 'id'],
      ['start: id not a UUID', 'POST', `${SESSIONS}/1/start`, undefined, 'id'],
      ['fail: no body', 'POST', `${SESSIONS}/${running.id}/fail`, undefined, []],
      ['fail: no reason', 'POST', `${SESSIONS}/${running.id}/fail`, {}, 'reason'],
      ['fail: empty reason', 'POST', `${SESSIONS}/${running.id}/fail`, { reason: '' }, 'reason'],
      ['fail: reason too long', 'POST', `${SESSIONS}/${running.id}/fail`, { reason: 'r'.repeat(1001) }, 'reason'],
      ['fail: another field', 'POST', `${SESSIONS}/${running.id}/fail`, { reason: 'x', code: 7 }, 'code'],
      ['fail: id not a UUID', 'POST', `${SESSIONS}/1/fail`, { reason: 'x' }, 'id'],
      ['cancel: reason a number', 'POST', `${SESSIONS}/${id}/cancel`, { reason: 3 }, 'reason'],
      ['cancel: reason too long', 'POST', `${SESSIONS}/${id}/cancel`, { reason: 'r'.repeat(1001) }, 'reason'],
      ['cancel: another field', 'POST', `${SESSIONS}/${id}/cancel`, { why: 'x' }, 'why'],
      ['cancel: id not a UUID', 'POST', `${SESSIONS}/1/cancel`, undefined, 'id'],
      ['scorecard: no body', 'POST', `${SESSIONS}/${running.id}/scorecard`, undefined, []],
      ['scorecard: no scores', 'POST', `${SESSIONS}/${running.id}/scorecard`, {}, 'scores'],
      [
        'scorecard: a score not a number',
        'POST',
        `${SESSIONS}/${running.id}/scorecard`,
        { scores: { Communication: 'good' } },
        ['scores', 'Communication'],
      ],
      [
        'scorecard: transcript turn',
        'POST',
        `${SESSIONS}/${running.id}/scorecard`,
        { scores: {}, transcript: [{ speaker: 'a', text: 'b' }] },
        'transcript',
      ],
      [
        'scorecard: recording_url',
        'POST',
        `${SESSIONS}/${running.id}/scorecard`,
        { scores: {}, recording_url: 'ftp://x.example/r' },
        'recording_url',
      ],
      ['scorecard: another field', 'POST', `${SESSIONS}/${running.id}/scorecard`, { scores: {}, verdict: 'hire' }, 'verdict'],
      ['scorecard: id not a UUID', 'POST', `${SESSIONS}/1/scorecard`, { scores: {} }, 'id'],
      ['scorecard read: id not a UUID', 'GET', `${SESSIONS}/1/scorecard`, undefined, 'id'],
      ['transcript read: id not a UUID', 'GET', `${SESSIONS}/1/transcript`, undefined, 'id'],
      ['recording read: id not a UUID', 'GET', `${SESSIONS}/1/recording`, undefined, 'id'],
    ];
    for (const [name, method, path, body, field] of cases) {
      const answer = await api.request(method, path, body === undefined ? {} : { body });
      expect(answer.status, `${name}: ${explain(answer)}`).toBe(400);
      if (field.length > 0) expectIssue(answer, field);
      else expectError(answer, 400);
    }
    const malformed = await api.request('POST', SESSIONS, { raw: '{"candidate_id": ' });
    expectError(malformed, 400);
    const sessions = listOf<Session>(await api.get(`${SESSIONS}?pageSize=100`)).data;
    expect(sessions.map((s) => [s.id, s.status]).sort()).toEqual(
      [
        [session.id, 'scheduled'],
        [running.id, 'in_progress'],
      ].sort(),
    );
  });

  it('a bad body is a 400 even where the move is not allowed: validation comes before the state check', async () => {
    const answer = await move(api, session.id, 'fail', { reason: '' });
    expectIssue(answer, 'reason');
  });
});
