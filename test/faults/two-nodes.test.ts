import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPostgres, type PostgresServer } from '../platform/support/servers.js';
import { Api, dataOf, explain, listOf } from '../resources/support/client.js';
import { createParticipant, createRole, createRound, sleep, unique, type Participant } from '../resources/support/resources.js';
import { SESSIONS, type Session } from '../resources/support/sessions.js';
import { buildServiceOnce } from '../support/build-once.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Two built service processes on one PostgreSQL, one mail server and one webhook receiver: creates
 * spread over both, one idempotency key raced from both, and every outbox message delivered exactly
 * once, by whichever node claimed it.
 */

let postgres: PostgresServer;
let databaseUrl: string;
let smtp: SmtpReceiver;
let hooks: WebhookReceiver;

beforeAll(async () => {
  await buildServiceOnce();
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  smtp = await SmtpReceiver.start();
  hooks = await startWebhookReceiver();
}, 180_000);
afterAll(async () => {
  await hooks?.close();
  await smtp?.stop();
  await postgres?.stop();
});
watchServiceProcesses();

interface OutboxRow {
  id: string;
  kind: string;
  topic: string;
  status: string;
  attempts: number;
  claimed_by: string | null;
  event_id: string | null;
}

async function outbox(): Promise<OutboxRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<OutboxRow>(
      `SELECT id, kind, topic, status, attempts, claimed_by, payload ->> 'id' AS event_id FROM outbox_messages ORDER BY created_at`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

it('two nodes on one PostgreSQL: creates on both, one session per raced key, every invite and webhook delivered once', async () => {
  const settings = {
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Interviews <interviews@example.test>',
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
    OUTBOX_POLL_MS: '50',
    OUTBOX_BACKOFF_BASE_MS: '100',
    OUTBOX_BACKOFF_MAX_MS: '400',
  };
  // One after the other: the first applies the migrations.
  const a = await ServiceProcess.start('node-a', settings);
  const b = await ServiceProcess.start('node-b', settings);
  try {
    const key = await a.workspaceKey('acme');
    const nodes = [new Api(a.url, key), new Api(b.url, key)];
    const node = (i: number) => nodes[i % 2];

    const role = await createRole(nodes[0], {
      template_name: 'Backend engineer',
      use_case: 'hiring',
      description: 'Payments.',
      objective: 'Hire.',
    });
    await createRound(nodes[1], role.id, { stage_name: 'Technical screen', duration_minutes: 45 });
    const endpoint = await nodes[1].post('/api/v1/webhooks', { url: `${hooks.url}/hooks`, events: ['*'] });
    expect(endpoint.status, explain(endpoint)).toBe(201);

    // 30 participants and 30 sessions, created at once, alternately on each node.
    const people: Participant[] = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        createParticipant(node(i), { name: `Person ${i}`, email: `person.${i}.${unique()}@example.com`, external_id: `ats-${i}` }),
      ),
    );
    const created = await Promise.all(
      people.map(async (person, i) => {
        const answer = await node(i).post(SESSIONS, { candidate_id: person.id, role_id: role.id, scheduled_at: '2030-05-04T07:30:00Z' });
        return dataOf<Session>(answer, 201);
      }),
    );
    expect(new Set(created.map((session) => session.id)).size).toBe(30);

    // 20 creates with one idempotency key, ten on each node, all at once: one session.
    const raced = await createParticipant(nodes[0], { name: 'Raced', email: `raced.${unique()}@example.com`, external_id: 'ats-raced' });
    const idempotencyKey = `booking-${unique()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        node(i).post(SESSIONS, { candidate_id: raced.id, role_id: role.id, idempotency_key: idempotencyKey }),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses, answers.map(explain).join('\n')).toEqual([...Array<number>(19).fill(200), 201]);
    const racedIds = new Set(answers.map((answer) => (answer.body.data as Session).id));
    expect(racedIds.size, answers.map(explain).join('\n')).toBe(1);
    expect(answers.filter((answer) => (answer.body.data as Session).idempotent).length).toBe(19);
    expect(listOf<Session>(await nodes[1].get(`${SESSIONS}?participantId=${raced.id}`)).meta.total).toBe(1);
    expect(listOf<Session>(await nodes[0].get(SESSIONS)).meta.total).toBe(31);

    // Every message of the outbox ends delivered.
    const deadline = Date.now() + 60_000;
    let rows = await outbox();
    while (rows.some((row) => row.status !== 'delivered') && Date.now() < deadline) {
      await sleep(200);
      rows = await outbox();
    }
    const undelivered = rows.filter((row) => row.status !== 'delivered');
    expect(undelivered, JSON.stringify(undelivered, null, 2)).toEqual([]);
    // Longer than several polls of both nodes: a second copy of anything would have come by now.
    await sleep(1500);

    const emails = rows.filter((row) => row.kind === 'email');
    const webhooks = rows.filter((row) => row.kind === 'webhook');
    // 31 invites; events: 31 participant.created and 31 session.created (the role and round came before the endpoint).
    expect(emails).toHaveLength(31);
    expect(webhooks).toHaveLength(62);
    const messageIds = smtp.messages.map((mail) => mail.parsed.messageId ?? '');
    expect(messageIds.length, 'every invite arrived exactly once').toBe(31);
    expect(messageIds.map((id) => /^<([0-9a-f-]{36})@/.exec(id)?.[1]).sort()).toEqual(emails.map((row) => row.id).sort());
    const eventIds = hooks.received.map((request) => String(request.headers['webhook-id']));
    expect(eventIds.length, 'every webhook arrived exactly once').toBe(62);
    expect([...eventIds].sort()).toEqual(webhooks.map((row) => row.event_id).sort());

    // Both nodes delivered some: the claims name each process (host/pid/random).
    const deliveredBy = (service: ServiceProcess) => rows.filter((row) => row.claimed_by?.includes(`/${service.pid}/`)).length;
    const counts = { a: deliveredBy(a), b: deliveredBy(b) };
    expect(counts.a + counts.b, JSON.stringify(counts)).toBe(rows.length);
    expect(counts.a, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts.b, JSON.stringify(counts)).toBeGreaterThan(0);
  } finally {
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  }
}, 180_000);
