import { and, eq, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages } from '../../src/platform/index.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, explain, expectStatus, type Api } from './support/client.js';
import {
  PATHS,
  createInterviewer,
  createParticipant,
  createRole,
  fullInterviewerBody,
  fullParticipantBody,
  fullRoleBody,
  minimalRoleBody,
  sleep,
  type BulkResult,
  type Interviewer,
  type Kind,
  type Obj,
  type Participant,
  type Program,
  type Role,
} from './support/resources.js';

/** An event as an outbox message of kind 'webhook' carries it (docs/webhooks.md). */
interface Event {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  external_id: string | null;
  data: Obj;
}

/*
 * Every resource write publishes its event into the outbox in the write's own transaction, so the
 * message is there when the API answers: these tests read the outbox right after each call, with no
 * waiting, and a refused write must leave it unchanged.
 */
describe.each([pgliteDriver(), postgresDriver()])('resource events on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;
  let acmeId: string;
  let otherId: string;
  let receiver: WebhookReceiver;
  const endpointIds: Record<'acme' | 'other', string> = { acme: '', other: '' };

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    server = await startResourcesApp({ ...(await driver.env()), OUTBOUND_ALLOWED_NETWORKS: '127.0.0.0/8,::1/128', OUTBOX_POLL_MS: '50' });
    acmeId = await createWorkspace(server.platform, 'acme');
    otherId = await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
    for (const [name, client] of [['acme', api] as const, ['other', otherApi] as const]) {
      const answer = await client.post('/api/v1/webhooks', { url: `${receiver.url}/${name}`, events: ['*'] });
      endpointIds[name] = dataOf<{ id: string }>(answer, 201).id;
    }
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await driver.stop();
  });

  const published = (endpoint: 'acme' | 'other', except: string[] = []) =>
    server.platform.database.db
      .select({ id: outboxMessages.id, topic: outboxMessages.topic, payload: outboxMessages.payload })
      .from(outboxMessages)
      .where(
        and(
          eq(outboxMessages.kind, 'webhook'),
          eq(outboxMessages.target_id, endpointIds[endpoint]),
          except.length ? notInArray(outboxMessages.id, except) : undefined,
        ),
      );

  /** The events `action` published to the workspace's endpoint, read as soon as it returns. */
  async function eventsOf(action: () => Promise<void>, endpoint: 'acme' | 'other' = 'acme'): Promise<Event[]> {
    const before = (await published(endpoint)).map((message) => message.id);
    await action();
    const messages = await published(endpoint, before);
    for (const message of messages) expect(message.topic, 'the message topic is the event type').toBe(message.payload.type);
    return messages.map((message) => message.payload as unknown as Event);
  }

  const envelope = (type: string, workspaceId: string, data: unknown, externalId: string | null = null) => ({
    id: expect.any(String),
    type,
    created_at: expect.any(String),
    workspace_id: workspaceId,
    external_id: externalId,
    data,
  });

  it('publishes <resource>.created once for each create, with the workspace id and the resource as answered', async () => {
    let role: Role | undefined;
    let interviewer: Interviewer | undefined;
    let program: Program | undefined;
    const creates: Array<[Kind, () => Obj]> = [
      ['role', () => fullRoleBody()],
      ['interviewer', () => fullInterviewerBody()],
      ['program', () => ({ name: 'Graduates', description: 'Rotation', status: 'active' })],
      ['round', () => ({ role_id: role!.id, stage_name: 'Screen', interviewer_id: interviewer!.id, pass_threshold: 70 })],
      ['participant', () => fullParticipantBody(role!.id, program!.id)],
    ];
    for (const [kind, body] of creates) {
      let answered: Obj = {};
      const events = await eventsOf(async () => {
        answered = dataOf<Obj>(await api.post(PATHS[kind], body()), 201);
      });
      const externalId = kind === 'participant' ? (answered.external_id as string) : null;
      expect(events, `events of creating a ${kind}`).toEqual([envelope(`${kind}.created`, acmeId, answered, externalId)]);
      if (kind === 'role') role = answered as unknown as Role;
      if (kind === 'interviewer') interviewer = answered as unknown as Interviewer;
      if (kind === 'program') program = answered as unknown as Program;
    }
  });

  it("carries the id of the workspace that created it, and reaches only that workspace's endpoints", async () => {
    let answered: unknown;
    const acmeBefore = (await published('acme')).map((message) => message.id);
    const events = await eventsOf(async () => {
      answered = await createRole(otherApi, minimalRoleBody('training'));
    }, 'other');
    expect(events).toEqual([envelope('role.created', otherId, answered)]);
    expect(await published('acme', acmeBefore)).toEqual([]);
  });

  it('publishes interviewer.created for a fork, with the fork', async () => {
    const source = await createInterviewer(otherApi, { ...fullInterviewerBody(), isPublic: true });
    let fork: unknown;
    const events = await eventsOf(async () => {
      fork = dataOf(await api.post('/api/v1/interviewers?action=fork', { sourceId: source.id }), 201);
    });
    expect(events).toEqual([envelope('interviewer.created', acmeId, fork)]);
  });

  it('publishes participant.created for each participant a bulk import created, and none for the rejected', async () => {
    const email = `bulk.${Date.now()}@example.com`;
    let result: BulkResult | undefined;
    const events = await eventsOf(async () => {
      const answer = await api.post('/api/v1/participants/bulk', {
        participants: [
          { name: 'One', email, external_id: 'crm-1' },
          { name: 'Duplicate', email: email.toUpperCase() },
          { name: 'Two', email: `two.${email}` },
          { name: 'Bad', email: 'nope' },
        ],
      });
      result = dataOf<BulkResult>(answer, 200);
      expect(result.created, explain(answer)).toBe(2);
    });
    const createdIds = result!.results.filter((item) => item.status === 'created').map((item) => item.id);
    expect(events.map((event) => event.type)).toEqual(['participant.created', 'participant.created']);
    expect(events.every((event) => event.workspace_id === acmeId)).toBe(true);
    expect(events.map((event) => event.data.id).sort()).toEqual([...createdIds].sort());
    for (const event of events) {
      const stored = dataOf<Participant>(await api.get(`/api/v1/participants/${String(event.data.id)}`), 200);
      expect(event.data, 'the event carries the participant as stored').toEqual(stored);
      expect(event.external_id).toBe(stored.external_id);
    }
    expect(new Set(events.map((event) => event.id)).size, 'each event has its own id').toBe(2);
  });

  it('publishes participant.updated for an update, with the participant as answered, and nothing for a delete', async () => {
    const participant = await createParticipant(api, { external_id: 'crm-7' });
    let answered: unknown;
    const updated = await eventsOf(async () => {
      answered = dataOf(await api.patch(`/api/v1/participants/${participant.id}`, { tags: ['x'], external_id: 'crm-8' }), 200);
    });
    expect(updated).toEqual([envelope('participant.updated', acmeId, answered, 'crm-8')]);

    const deleted = await eventsOf(async () => expectStatus(await api.delete(`/api/v1/participants/${participant.id}`), 204));
    expect(deleted, 'a delete publishes nothing').toEqual([]);
  });

  it('publishes the participant with its résumé pending when the write names a resume_url', async () => {
    let answered: Participant | undefined;
    const events = await eventsOf(async () => {
      answered = await createParticipant(api, { resume_url: `${receiver.url}/resume.txt` });
    });
    expect(answered, 'the fetch is queued in the same transaction').toMatchObject({ resume_status: 'pending' });
    expect(answered).not.toHaveProperty('resume_text');
    expect(events).toEqual([envelope('participant.created', acmeId, answered)]);
  });

  it('publishes nothing for a refused write', async () => {
    const participant = await createParticipant(api);
    const refused = await eventsOf(async () => {
      expectError(await api.post('/api/v1/participants', { name: 'Clash', email: participant.email.toUpperCase() }), 409);
      expectError(await api.patch(`/api/v1/participants/${participant.id}`, { role_id: '00000000-0000-4000-8000-000000000000' }), 400);
      expectError(await api.post('/api/v1/roles', { template_name: 'No use case' }), 400);
      expectError(await api.post('/api/v1/rounds', { role_id: '00000000-0000-4000-8000-000000000000', stage_name: 'Screen' }), 400);
      const role = await createRole(api);
      expectError(await api.post('/api/v1/rounds', { role_id: role.id, stage_name: 'Screen', interviewer_id: participant.id }), 400);
      expectError(
        await api.post('/api/v1/interviewers', {
          ...fullInterviewerBody(),
          evaluationDimensions: [{ name: 'A', description: 'a', weight: 99 }],
        }),
        400,
      );
      expectError(await api.post('/api/v1/interviewers?action=fork', { sourceId: '00000000-0000-4000-8000-000000000000' }), 400);
    });
    expect(
      refused.map((event) => event.type),
      'only the role created in between',
    ).toEqual(['role.created']);
  });

  it('delivers every published event to the endpoint, once', async () => {
    const eventIds = (await published('acme')).map((message) => String(message.payload.id)).sort();
    const delivered = () =>
      receiver.received.filter((request) => request.path === '/acme').map((request) => String(request.headers['webhook-id']));
    await vi.waitFor(() => expect(delivered().length).toBeGreaterThanOrEqual(eventIds.length), { timeout: 15_000, interval: 50 });
    await sleep(200);
    expect(delivered().sort()).toEqual(eventIds);
  });
});
