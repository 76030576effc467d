import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { SmtpReceiver, type ReceivedMail } from '../support/smtp-receiver.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, expectStatus, explain, listOf, walkPages, type Api } from './support/client.js';
import {
  createInterviewer,
  createParticipant,
  createProgram,
  createRole,
  createRound,
  sleep,
  TIMESTAMP,
  unique,
  type Interviewer,
  type Participant,
  type Program,
  type Role,
  type Round,
} from './support/resources.js';
import { createSession, MAIL_FROM, move, SESSIONS, type Scorecard, type Session } from './support/sessions.js';

/*
 * The whole story of issue 11 through HTTP, as an ATS integrating with the service would live it:
 * set up what is assessed, subscribe to webhooks, schedule a session (the invite reaches a real SMTP
 * server), replay, duplicate, reschedule, run and score it, and read it all back in lists.
 */

const SETTINGS = {
  MAIL_FROM,
  OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
  OUTBOX_POLL_MS: '50',
  OUTBOX_BACKOFF_BASE_MS: '50',
  OUTBOX_BACKOFF_MAX_MS: '500',
};

const SESSION_EVENTS = ['session.created', 'session.rescheduled', 'session.started', 'session.completed', 'session.cancelled'];

interface Event {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  external_id: string | null;
  data: Session & { scorecard?: { weighted_score: number; passed: boolean; recommendation: string } };
}

/** The Standard Webhooks check, written from docs/webhooks.md: HMAC-SHA256 of `id.timestamp.body` keyed with the secret's base64 part. */
function signatureValid(secret: string, headers: IncomingHttpHeaders, body: Buffer): boolean {
  const [id, timestamp, signatures] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => headers[name]);
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  return signatures.split(' ').some((entry) => {
    const [version, value = ''] = entry.split(',');
    const given = Buffer.from(value, 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

const eventOf = (request: ReceivedRequest) => JSON.parse(request.body.toString('utf8')) as Event;

/** The calendar parts of an email (the text/calendar alternative and the .ics attachment), unfolded. */
function calendarsOf(mail: ReceivedMail): Array<{ contentType: string; filename?: string; lines: string[] }> {
  return mail.parsed.attachments
    .filter((part) => /calendar|ics/.test(part.contentType))
    .map((part) => ({
      contentType: part.contentType,
      filename: part.filename,
      lines: part.content
        .toString('utf8')
        .replace(/\r\n[ \t]/g, '')
        .split('\r\n'),
    }));
}

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);

describe.each([pgliteDriver(), postgresDriver()])('the session journey on $name', (driver) => {
  let smtp: SmtpReceiver;
  let hooks: WebhookReceiver;
  let server: ResourcesApp;
  let api: Api;
  let workspaceId: string;

  // What the story made so far, as the API answered it.
  let interviewer: Interviewer;
  let role: Role;
  let screen: Round;
  let final: Round;
  let program: Program;
  let ada: Participant;
  let secret: string;
  let session: Session;
  let forced: Session;
  const idempotencyKey = `ats-booking-${unique()}`;

  beforeAll(async () => {
    smtp = await SmtpReceiver.start();
    hooks = await startWebhookReceiver();
    server = await startResourcesApp({ ...(await driver.env()), ...SETTINGS, SMTP_URL: smtp.url });
    workspaceId = await createWorkspace(server.platform, 'acme');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
    await smtp?.stop();
    await driver.stop();
  });

  /** The mails sent to a participant, in order of arrival. */
  const mailsTo = (participant: Participant) => smtp.messages.filter((mail) => mail.envelope.to.includes(participant.email));
  const eventsAbout = (sessionId: string) => hooks.received.filter((request) => eventOf(request).data.id === sessionId);
  /** Waits until the webhook receiver holds events of these types about the session, then returns them in that order. */
  async function waitForEvents(sessionId: string, types: string[]): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + 10_000;
    const has = () => types.every((type) => eventsAbout(sessionId).some((request) => eventOf(request).type === type));
    while (!has()) {
      if (Date.now() > deadline) {
        const seen = JSON.stringify(eventsAbout(sessionId).map((request) => eventOf(request).type));
        const errors = server.serverErrors.join('\n');
        throw new Error(`events ${types.join(', ')} about ${sessionId} did not all arrive; got ${seen}\n${errors}`);
      }
      await sleep(20);
    }
    return types.map((type) => eventsAbout(sessionId).find((request) => eventOf(request).type === type)!);
  }

  it('sets up an interviewer scoring on 0-5, a hiring role with two rounds, a program and a participant with an external_id', async () => {
    interviewer = await createInterviewer(api, {
      name: 'Backend screener',
      persona: 'A staff engineer who asks about systems they built',
      useCase: 'hiring',
      evaluationDimensions: [
        { name: 'Problem solving', description: 'Breaks the problem down', weight: 60 },
        { name: 'Communication', description: 'Explains trade-offs', weight: 40 },
      ],
      scoring: { scale: '0-5' },
    });
    role = await createRole(api, {
      template_name: 'Backend engineer',
      use_case: 'hiring',
      description: 'Payments team.',
      objective: 'Hire.',
    });
    expect(role.success_outcome).toBe('hire_no_hire');
    // Made out of order: the session picks the first active round by stage_order, not by creation.
    final = await createRound(api, role.id, { stage_name: 'Final', stage_order: 2, duration_minutes: 60 });
    screen = await createRound(api, role.id, {
      stage_name: 'Technical screen',
      stage_order: 1,
      duration_minutes: 45,
      interviewer_id: interviewer.id,
      pass_threshold: 70,
    });
    program = await createProgram(api, { name: 'Graduate programme 2030' });
    ada = await createParticipant(api, {
      name: 'Ada Lovelace',
      email: `ada.${unique()}@example.com`,
      external_id: 'ats-000123',
      role_id: role.id,
      pipeline_id: program.id,
    });
  });

  it('registers a webhook endpoint for the session events, and keeps its secret', async () => {
    const endpoint = dataOf<{ id: string; secret: string; events: string[] }>(
      await api.post('/api/v1/webhooks', { url: `${hooks.url}/ats/hooks`, events: SESSION_EVENTS }),
      201,
    );
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(endpoint.events).toEqual(SESSION_EVENTS);
    secret = endpoint.secret;
  });

  it('creates a session with an idempotency key: 201 in the first round, and the invite arrives with text, HTML and the .ics', async () => {
    const started = Date.now();
    const answer = await api.post(SESSIONS, {
      candidate_id: ada.id,
      role_id: role.id,
      stage: 'screen',
      idempotency_key: idempotencyKey,
      scheduled_at: '2030-05-04T09:30:00+02:00',
      timezone: 'Europe/Paris',
      notes: 'Prefers mornings.',
    });
    session = dataOf<Session>(answer, 201);
    expect(Date.now() - started, 'the invite is not sent on the request path').toBeLessThan(2000);
    expect(session).toMatchObject({
      candidate_id: ada.id,
      role_id: role.id,
      interview_id: screen.id,
      idempotency_key: idempotencyKey,
      scheduled_at: '2030-05-04T07:30:00.000Z',
      timezone: 'Europe/Paris',
      status: 'scheduled',
      idempotent: false,
    });

    await smtp.waitFor(() => mailsTo(ada).length === 1);
    const [invite] = mailsTo(ada);
    expect(invite.envelope).toEqual({ from: 'interviews@example.test', to: [ada.email] });
    expect(invite.parsed.subject).toBe('Interview invitation: Backend engineer – Technical screen');
    for (const part of [invite.parsed.text ?? '', invite.parsed.html || '']) {
      expect(part).toContain('Ada Lovelace');
      expect(part).toContain('Saturday, 4 May 2030, 09:30 (Europe/Paris)');
      expect(part).toContain('Saturday, 4 May 2030, 07:30 (UTC)');
      expect(part).toContain('45 minutes');
    }
    expect(invite.parsed.text, 'internal notes stay internal').not.toContain('Prefers mornings');
    const calendars = calendarsOf(invite);
    expect(calendars.map((c) => c.contentType).sort(), JSON.stringify(invite.parsed.attachments.map((a) => a.contentType))).toEqual([
      'application/ics',
      'text/calendar',
    ]);
    expect(calendars.find((c) => c.contentType === 'application/ics')?.filename).toMatch(/\.ics$/);
    for (const { lines } of calendars) {
      expect(lines).toContain('METHOD:REQUEST');
      expect(lines.find((line) => line.startsWith('UID:'))).toMatch(new RegExp(`^UID:${session.id}@`));
      expect(lines).toContain('DTSTART:20300504T073000Z');
      expect(lines.some((line) => line.startsWith('ATTENDEE') && line.includes(`mailto:${ada.email}`))).toBe(true);
    }
  });

  it('a replayed idempotency key answers 200 with the same session and idempotent: true, and sends nothing', async () => {
    const replay = await api.post(SESSIONS, { candidate_id: ada.id, role_id: role.id, idempotency_key: idempotencyKey, notes: 'again' });
    const replayed = dataOf<Session>(replay, 200);
    expect(replayed.idempotent, explain(replay)).toBe(true);
    expect(replayed.id).toBe(session.id);
    expect(replayed.notes).toBe('Prefers mornings.');
    const sessions = listOf<Session>(await api.get(`${SESSIONS}?participantId=${ada.id}`));
    expect(ids(sessions.data)).toEqual([session.id]);
  });

  it('a second open session for the participant in that round is a 409; with force it is created', async () => {
    const body = { candidate_id: ada.id, role_id: role.id, interview_id: screen.id, scheduled_at: '2030-05-05T08:00:00Z' };
    const duplicate = expectError(await api.post(SESSIONS, body), 409);
    expect(duplicate.error).toContain(session.id);
    forced = dataOf<Session>(await api.post(SESSIONS, { ...body, force: true }), 201);
    expect(forced).toMatchObject({ status: 'scheduled', interview_id: screen.id, idempotent: false });
    expect(forced.id).not.toBe(session.id);
    // The forced session sends its own invite: two so far, none from the replay.
    await smtp.waitFor(() => mailsTo(ada).length === 2);
    expect(calendarsOf(mailsTo(ada)[1])[0].lines).toContain('DTSTART:20300505T080000Z');
  });

  it('reschedules: { success: true }, and an updated invite arrives with the new time, the same UID and a higher SEQUENCE', async () => {
    const answer = await api.patch(`${SESSIONS}/${session.id}`, { scheduled_at: '2030-05-06T16:00:00+02:00' });
    expectStatus(answer, 200);
    expect(answer.body).toEqual({ success: true });
    expect(dataOf<Session>(await api.get(`${SESSIONS}/${session.id}`), 200).scheduled_at).toBe('2030-05-06T14:00:00.000Z');

    await smtp.waitFor(() => mailsTo(ada).length === 3);
    const [original, , update] = mailsTo(ada);
    expect(update.parsed.subject).toBe('Updated interview time: Backend engineer – Technical screen');
    expect(update.parsed.text).toContain('Monday, 6 May 2030, 16:00 (Europe/Paris)');
    const before = calendarsOf(original)[0].lines;
    const after = calendarsOf(update)[0].lines;
    expect(after).toContain('DTSTART:20300506T140000Z');
    expect(after.find((line) => line.startsWith('UID:'))).toBe(before.find((line) => line.startsWith('UID:')));
    const sequence = (lines: string[]) => Number(lines.find((line) => line.startsWith('SEQUENCE:'))?.slice('SEQUENCE:'.length) ?? 0);
    expect(sequence(after)).toBeGreaterThan(sequence(before));
    expect(update.parsed.messageId).not.toBe(original.parsed.messageId);
  });

  it('starts the session', async () => {
    const started = dataOf<Session>(await move(api, session.id, 'start'), 200);
    expect(started).toMatchObject({ status: 'in_progress', started_at: expect.stringMatching(TIMESTAMP), ended_at: null });
    expect(started.status_history.map((change) => change.status)).toEqual(['scheduled', 'in_progress']);
  });

  it('the engine posts a scorecard: weighted score, pass decision and recommendation are computed, stored and readable', async () => {
    const report = {
      scores: { 'Problem solving': 4, Communication: 3 },
      transcript: [
        { speaker: 'interviewer', text: 'Tell me about a ledger you built.', at: '2030-05-06T14:01:00Z' },
        { speaker: 'candidate', text: 'Double entry, in PostgreSQL.', at: '2030-05-06T14:01:30Z' },
      ],
      recording_url: 'https://recordings.example.com/s/ada.mp4',
      summary: 'Clear about trade-offs.',
    };
    const posted = dataOf<Scorecard>(await move(api, session.id, 'scorecard', report), 201);
    // (4 × 60 + 3 × 40) / 100 = 3.6 on 0-5, that is 72 %: at least the round's 70, so a hire.
    const expected = {
      session_id: session.id,
      interviewer_id: interviewer.id,
      scale: '0-5',
      scores: [
        { name: 'Problem solving', score: 4, weight: 60 },
        { name: 'Communication', score: 3, weight: 40 },
      ],
      weighted_score: 3.6,
      pass_threshold: 70,
      passed: true,
      recommendation: 'hire',
      summary: 'Clear about trade-offs.',
      created_at: expect.stringMatching(TIMESTAMP),
    };
    expect(posted).toEqual(expected);
    expect(dataOf<Scorecard>(await api.get(`${SESSIONS}/${session.id}/scorecard`), 200)).toEqual(posted);
    expect(dataOf(await api.get(`${SESSIONS}/${session.id}/transcript`), 200)).toEqual({
      session_id: session.id,
      transcript: report.transcript,
    });
    expect(dataOf(await api.get(`${SESSIONS}/${session.id}/recording`), 200)).toEqual({
      session_id: session.id,
      recording_url: report.recording_url,
    });
    const completed = dataOf<Session>(await api.get(`${SESSIONS}/${session.id}`), 200);
    expect(completed).toMatchObject({ status: 'completed', ended_at: expect.stringMatching(TIMESTAMP) });
  });

  it('the signed webhooks arrive, each carrying the external_id; the test checks every signature itself', async () => {
    const types = ['session.created', 'session.rescheduled', 'session.started', 'session.completed'];
    const requests = await waitForEvents(session.id, types);
    for (const request of requests) {
      const event = eventOf(request);
      const what = `${event.type}: ${JSON.stringify(request.headers)}`;
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/ats/hooks');
      expect(request.headers['content-type'], what).toMatch(/^application\/json/);
      expect(request.headers['webhook-id'], what).toBe(event.id);
      expect(signatureValid(secret, request.headers, request.body), `signature of ${what}`).toBe(true);
      expect(event).toMatchObject({ workspace_id: workspaceId, external_id: 'ats-000123', created_at: expect.stringMatching(TIMESTAMP) });
      expect(event.data).toMatchObject({ id: session.id, candidate_id: ada.id });
    }
    // The check fails on a body changed by one byte, a wrong secret and an old timestamp: it is not a check that always passes.
    const [created] = requests;
    const tampered = Buffer.from(created.body);
    tampered[tampered.length - 2] ^= 1;
    expect(signatureValid(secret, created.headers, tampered)).toBe(false);
    expect(signatureValid(`whsec_${Buffer.from('not the secret').toString('base64')}`, created.headers, created.body)).toBe(false);
    expect(
      signatureValid(secret, { ...created.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600) }, created.body),
    ).toBe(false);

    const [createdEvent, rescheduled, started, completed] = requests.map(eventOf);
    expect(createdEvent.data).toMatchObject({ status: 'scheduled', scheduled_at: '2030-05-04T07:30:00.000Z' });
    expect(rescheduled.data).toMatchObject({ status: 'scheduled', scheduled_at: '2030-05-06T14:00:00.000Z' });
    expect(started.data.status).toBe('in_progress');
    expect(completed.data.status).toBe('completed');
    expect(completed.data.scorecard).toEqual({ weighted_score: 3.6, passed: true, recommendation: 'hire' });
    expect(new Set(requests.map((request) => eventOf(request).id)).size).toBe(4);
  });

  it('cancels the forced session, and session.cancelled arrives', async () => {
    const cancelled = dataOf<Session>(await move(api, forced.id, 'cancel', { reason: 'Booked twice by mistake' }), 200);
    expect(cancelled).toMatchObject({ status: 'cancelled', ended_at: expect.stringMatching(TIMESTAMP) });
    const [request] = await waitForEvents(forced.id, ['session.cancelled']);
    expect(signatureValid(secret, request.headers, request.body)).toBe(true);
    expect(eventOf(request)).toMatchObject({ external_id: 'ats-000123', data: { id: forced.id, status: 'cancelled' } });
  });

  it('an invalid transition is a 409 whose error names the current status', async () => {
    const start = expectError(await move(api, forced.id, 'start'), 409);
    expect(start.error).toContain('cancelled');
    const reschedule = expectError(await api.patch(`${SESSIONS}/${session.id}`, { scheduled_at: '2030-06-01T09:00:00Z' }), 409);
    expect(reschedule.error).toContain('completed');
    expect(dataOf<Session>(await api.get(`${SESSIONS}/${forced.id}`), 200).status).toBe('cancelled');
  });

  it('lists page past one page under every filter, and per participant', async () => {
    // More sessions: Ada in the final round (one open, then forced ones), Grace (no program) in another role.
    const grace = await createParticipant(api, { name: 'Grace Hopper', email: `grace.${unique()}@example.com`, external_id: 'ats-000456' });
    const otherRole = await createRole(api, { template_name: 'Data analyst', use_case: 'hiring', description: 'BI.', objective: 'Hire.' });
    const otherRound = await createRound(api, otherRole.id, { stage_name: 'Case study', duration_minutes: 30 });
    const more: Session[] = [];
    for (let i = 0; i < 3; i++)
      more.push(await createSession(api, { candidate_id: ada.id, role_id: role.id, interview_id: final.id, force: i > 0 }));
    for (let i = 0; i < 3; i++) more.push(await createSession(api, { candidate_id: grace.id, role_id: otherRole.id, force: i > 0 }));
    expectStatus(await move(api, more[4].id, 'start'), 200);
    const all = [session, forced, ...more].reverse(); // newest first
    const statusOf = new Map(all.map((s) => [s.id, s.status as string]));
    statusOf.set(session.id, 'completed');
    statusOf.set(forced.id, 'cancelled');
    statusOf.set(more[4].id, 'in_progress');
    const adas = all.filter((s) => s.candidate_id === ada.id);
    const graces = all.filter((s) => s.candidate_id === grace.id);

    const expectList = async (query: string, want: Session[]) => {
      const { items, meta } = await walkPages<Session>(api, `${SESSIONS}${query ? `?${query}` : ''}`, 2);
      expect(ids(items), `GET ${SESSIONS}?${query}`).toEqual(ids(want));
      return meta;
    };
    expect((await expectList('', all)).totalPages, 'eight sessions on pages of two').toBe(4);
    await expectList(`participantId=${ada.id}`, adas);
    await expectList(`participantEmail=${encodeURIComponent(ada.email.toUpperCase())}`, adas);
    await expectList(`roleId=${otherRole.id}`, graces);
    await expectList(`roleId=${role.id}`, adas);
    await expectList(
      `roundId=${final.id}`,
      adas.filter((s) => s.interview_id === final.id),
    );
    await expectList(`roundId=${otherRound.id}`, graces);
    await expectList(
      'status=scheduled',
      all.filter((s) => statusOf.get(s.id) === 'scheduled'),
    );
    await expectList('status=completed', [session]);
    await expectList('status=cancelled', [forced]);
    await expectList('status=in_progress', [more[4]]);
    await expectList(`programId=${program.id}`, adas);
    await expectList('search=lovelace', adas);
    await expectList('search=HOPPER', graces);
    await expectList(
      `status=scheduled&roleId=${role.id}&roundId=${final.id}&search=ada`,
      adas.filter((s) => s.interview_id === final.id),
    );
    await expectList(`participantId=${grace.id}&programId=${program.id}`, []);

    const perParticipant = `/api/v1/participants/${ada.id}/sessions`;
    expect(ids((await walkPages<Session>(api, perParticipant, 2)).items)).toEqual(ids(adas));
    expect(ids(listOf<Session>(await api.get(`${perParticipant}?status=completed`)).data)).toEqual([session.id]);
    // Every listed session reads as GET /sessions/{id} does.
    const [newest] = listOf<Session>(await api.get(`${SESSIONS}?pageSize=1`)).data;
    expect(dataOf<Session>(await api.get(`${SESSIONS}/${newest.id}`), 200)).toEqual(newest);
  });

  it('in the end, every email and every webhook arrived once, and the server logged no error', async () => {
    // Emails: Ada's invite, the forced one's, the update, three more of Ada's, three of Grace's.
    await smtp.waitFor((messages) => messages.length >= 9);
    // Events: eight session.created, two session.started, one each of rescheduled, completed and cancelled.
    await hooks.waitFor(13);
    await sleep(500);
    const messageIds = smtp.messages.map((mail) => mail.parsed.messageId);
    expect(new Set(messageIds).size, messageIds.join('\n')).toBe(messageIds.length);
    expect(smtp.messages).toHaveLength(9);
    const eventIds = hooks.received.map((request) => request.headers['webhook-id']);
    expect(new Set(eventIds).size, eventIds.join('\n')).toBe(eventIds.length);
    const types = hooks.received.map((request) => eventOf(request).type).sort();
    expect(types).toEqual(
      [
        ...Array<string>(8).fill('session.created'),
        'session.cancelled',
        'session.completed',
        'session.rescheduled',
        'session.started',
        'session.started',
      ].sort(),
    );
    for (const request of hooks.received) expect(signatureValid(secret, request.headers, request.body)).toBe(true);
    expect(server.serverErrors, 'no server errors').toEqual([]);
  });
});
