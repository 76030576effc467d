import { createServer, connect, type Server, type Socket } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { Api, dataOf, explain } from '../resources/support/client.js';
import { createParticipant, createRole, createRound, sleep, unique, type Participant, type Role } from '../resources/support/resources.js';
import { SESSIONS, type Session } from '../resources/support/sessions.js';
import { buildServiceOnce } from '../support/build-once.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';
import { SmtpReceiver } from '../support/smtp-receiver.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * The outbox of the built service, as `npm start` runs it, on its embedded database: a dead mail
 * server never slows a create, and a SIGKILL between the commit and the delivery loses nothing and
 * sends nothing twice once the service is back on the same data folder.
 */

beforeAll(buildServiceOnce, 180_000);
watchServiceProcesses();

const OUTBOX = {
  MAIL_FROM: 'Interviews <interviews@example.test>',
  OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8',
  OUTBOX_POLL_MS: '50',
  OUTBOX_BACKOFF_BASE_MS: '100',
  OUTBOX_BACKOFF_MAX_MS: '400',
  OUTBOX_MAX_ATTEMPTS: '100',
};

/** A workspace with a key (through the CLI), a role with a round and a participant to schedule. */
async function prepare(service: ServiceProcess): Promise<{ api: Api; role: Role; participant: Participant }> {
  const api = new Api(service.url, await service.workspaceKey('acme'));
  const role = await createRole(api, {
    template_name: 'Backend engineer',
    use_case: 'hiring',
    description: 'Payments.',
    objective: 'Hire.',
  });
  await createRound(api, role.id, { stage_name: 'Technical screen', duration_minutes: 45 });
  const participant = await createParticipant(api, {
    name: 'Ada Lovelace',
    email: `ada.${unique()}@example.com`,
    external_id: 'ats-000123',
  });
  return { api, role, participant };
}

/** The outbox as `outbox list` prints it: one row per message, its columns by name. */
async function outboxRows(service: ServiceProcess, kind: 'email' | 'webhook') {
  const output = await service.cli('outbox', 'list', '--kind', kind);
  if (output === 'no outbox messages') return [];
  return output.split('\n').map((line) => {
    const [id, , topic, status, progress] = line.split('\t');
    return { id, topic, status, attempts: Number(/^(\d+)\//.exec(progress)?.[1]), line };
  });
}

/**
 * A TCP port in front of a real receiver that first holds every connection open without a byte in
 * either direction (a receiver that hangs: the delivery is under way and cannot finish), then, once
 * told to, forwards new connections to the receiver.
 */
class Gate {
  connections = 0;
  port = 0;
  private forwarding = false;
  private readonly held: Socket[] = [];
  private readonly server: Server;

  private constructor(targetPort: number) {
    this.server = createServer((socket) => {
      socket.on('error', () => undefined);
      this.connections += 1;
      if (!this.forwarding) return void this.held.push(socket);
      const upstream = connect(targetPort, '127.0.0.1');
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
      socket.pipe(upstream).pipe(socket);
    });
  }

  static async before(targetPort: number): Promise<Gate> {
    const gate = new Gate(targetPort);
    await new Promise<void>((resolve) => gate.server.listen(0, '127.0.0.1', resolve));
    gate.port = (gate.server.address() as { port: number }).port;
    return gate;
  }

  forward(): void {
    this.forwarding = true;
    for (const socket of this.held.splice(0)) socket.destroy();
  }

  close(): Promise<void> {
    this.forward();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const portOf = (url: string) => Number(new URL(url).port);

it('answers a create at once while the SMTP server is down, and the invite arrives once it is back', async () => {
  const smtp = await SmtpReceiver.start();
  await smtp.stop();
  const service = await ServiceProcess.start('smtp-down', { ...OUTBOX, SMTP_URL: smtp.url });
  try {
    const { api, role, participant } = await prepare(service);

    const started = Date.now();
    const answer = await api.post(SESSIONS, { candidate_id: participant.id, role_id: role.id, scheduled_at: '2030-05-04T07:30:00Z' });
    const elapsed = Date.now() - started;
    const session = dataOf<Session>(answer, 201);
    expect(elapsed, `the create took ${elapsed} ms with the mail server down`).toBeLessThan(1000);

    // The worker keeps trying while the server is down: the invite stays pending, attempt after attempt.
    let rows = await outboxRows(service, 'email');
    for (let i = 0; i < 50 && !(rows[0]?.attempts >= 3); i++) {
      await sleep(100);
      rows = await outboxRows(service, 'email');
    }
    expect(
      rows.map((row) => [row.topic, row.status]),
      JSON.stringify(rows),
    ).toEqual([['invite', 'pending']]);
    expect(rows[0].attempts, rows[0].line).toBeGreaterThanOrEqual(3);
    expect(smtp.messages).toHaveLength(0);

    await smtp.start();
    const [invite] = await smtp.waitFor((messages) => messages.length >= 1, 15_000);
    expect(invite.envelope.to).toEqual([participant.email]);
    expect(invite.parsed.subject).toBe('Interview invitation: Backend engineer – Technical screen');
    expect(invite.parsed.attachments.some((part) => part.content.toString().includes(`UID:${session.id}@`))).toBe(true);
    await sleep(1000);
    expect(smtp.messages, 'the invite arrived once').toHaveLength(1);
    const [delivered] = await outboxRows(service, 'email');
    expect(delivered.status, delivered.line).toBe('delivered');
  } finally {
    await service.kill('SIGTERM');
    await smtp.stop();
  }
}, 120_000);

it('a SIGKILL while the invite and the webhook are being delivered loses neither, and after a restart each arrives once', async () => {
  const smtp = await SmtpReceiver.start();
  const hooks: WebhookReceiver = await startWebhookReceiver();
  // Both receivers sit behind gates that hang every connection until the service has been killed.
  const smtpGate = await Gate.before(portOf(smtp.url));
  const hookGate = await Gate.before(portOf(hooks.url));
  // A claim lasts 3 s: the dead process's claims run out soon after the restart, and a delivery is given 2.4 s before it is abandoned.
  const env = { ...OUTBOX, SMTP_URL: `smtp://127.0.0.1:${smtpGate.port}`, OUTBOX_LEASE_MS: '3000' };
  let service = await ServiceProcess.start('before-kill', env);
  try {
    const { api, role, participant } = await prepare(service);
    const endpoint = await api.post('/api/v1/webhooks', { url: `http://127.0.0.1:${hookGate.port}/hooks`, events: ['session.created'] });
    expect(endpoint.status, explain(endpoint)).toBe(201);
    const session = dataOf<Session>(
      await api.post(SESSIONS, { candidate_id: participant.id, role_id: role.id, scheduled_at: '2030-05-04T07:30:00Z' }),
      201,
    );

    // Both messages are claimed and their deliveries connected: the process dies in the middle of them.
    const deadline = Date.now() + 10_000;
    while ((smtpGate.connections === 0 || hookGate.connections === 0) && Date.now() < deadline) await sleep(10);
    expect([smtpGate.connections, hookGate.connections], 'both deliveries were under way').toEqual([1, 1]);
    const killed = await service.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    expect([smtp.messages.length, hooks.received.length], 'nothing reached the receivers before the kill').toEqual([0, 0]);

    smtpGate.forward();
    hookGate.forward();
    service = await ServiceProcess.start('after-restart', service.env);
    const [invite] = await smtp.waitFor((messages) => messages.length >= 1, 20_000);
    const [webhook] = await hooks.waitFor(1, 20_000);
    // Longer than a lease and several polls: a second copy would have come by now.
    await sleep(4000);
    expect(
      smtp.messages.map((mail) => mail.parsed.messageId),
      'the invite arrived once',
    ).toHaveLength(1);
    expect(
      hooks.received.map((request) => request.headers['webhook-id']),
      'the webhook arrived once',
    ).toHaveLength(1);

    expect(invite.envelope.to).toEqual([participant.email]);
    expect(invite.parsed.attachments.some((part) => part.content.toString().includes(`UID:${session.id}@`))).toBe(true);
    const event = JSON.parse(webhook.body.toString()) as { id: string; type: string; external_id: string; data: { id: string } };
    expect(event).toMatchObject({ type: 'session.created', external_id: 'ats-000123', data: { id: session.id } });
    expect(webhook.headers['webhook-id']).toBe(event.id);

    // Each was claimed twice: by the killed process (its claim ran out unreported), then by the restarted one.
    const rows = [...(await outboxRows(service, 'email')), ...(await outboxRows(service, 'webhook'))];
    expect(
      rows.map((row) => [row.topic, row.status, row.attempts]),
      rows.map((row) => row.line).join('\n'),
    ).toEqual([
      ['invite', 'delivered', 2],
      ['session.created', 'delivered', 2],
    ]);
  } finally {
    await service.kill('SIGTERM');
    await Promise.all([smtpGate.close(), hookGate.close()]);
    await Promise.all([smtp.stop(), hooks.close()]);
  }
}, 120_000);

it('a SIGKILL after a create that no worker has claimed yet loses nothing: the restarted service sends it once', async () => {
  const smtp = await SmtpReceiver.start();
  const hooks = await startWebhookReceiver();
  // The worker looks once at start, then not for ten minutes: the create is committed and left for the kill.
  const env = { ...OUTBOX, SMTP_URL: smtp.url };
  let service = await ServiceProcess.start('never-polls', { ...env, OUTBOX_POLL_MS: '600000' });
  try {
    const { api, role, participant } = await prepare(service);
    expect((await api.post('/api/v1/webhooks', { url: `${hooks.url}/hooks`, events: ['session.created'] })).status).toBe(201);
    const session = dataOf<Session>(await api.post(SESSIONS, { candidate_id: participant.id, role_id: role.id }), 201);
    await sleep(300);
    expect((await service.kill('SIGKILL')).signal).toBe('SIGKILL');
    expect([smtp.messages.length, hooks.received.length], 'nothing was sent before the kill').toEqual([0, 0]);

    service = await ServiceProcess.start('restarted', { ...service.env, OUTBOX_POLL_MS: '50' });
    await smtp.waitFor((messages) => messages.length >= 1, 20_000);
    await hooks.waitFor(1, 20_000);
    await sleep(1500);
    expect(smtp.messages, 'the invite arrived once').toHaveLength(1);
    expect(hooks.received, 'the webhook arrived once').toHaveLength(1);
    expect(smtp.messages[0].envelope.to).toEqual([participant.email]);
    expect(JSON.parse(hooks.received[0].body.toString())).toMatchObject({ type: 'session.created', data: { id: session.id } });
    const rows = [...(await outboxRows(service, 'email')), ...(await outboxRows(service, 'webhook'))];
    expect(rows.map((row) => [row.status, row.attempts])).toEqual([
      ['delivered', 1],
      ['delivered', 1],
    ]);
  } finally {
    await service.kill('SIGTERM');
    await Promise.all([smtp.stop(), hooks.close()]);
  }
}, 120_000);
