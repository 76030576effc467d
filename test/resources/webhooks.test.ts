import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { count, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages, type Db } from '../../src/platform/index.js';
import { publishEvent, publishEvents } from '../../src/resources/webhooks/publish.js';
import { removeDir, tempDir } from '../platform/support/app.js';
import { pgliteDriver, postgresDriver } from '../platform/support/drivers.js';
import { startWebhookReceiver, type ReceivedRequest, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createKey, createWorkspace, startResourcesApp, type ResourcesApp } from './support/app.js';
import { dataOf, expectError, expectIssue, expectStatus, explain, listOf, walkPages, type Api } from './support/client.js';
import { createParticipant, createRole, sleep, TIMESTAMP, unique, UUID, type Participant } from './support/resources.js';

const LOOPBACK = '127.0.0.0/8,::1/128';
/** Quick polls and a backoff of 1 s then 2 s: a retry is seen soon, and a pending delivery stays pending long enough to act on it. */
const SETTINGS = { OUTBOX_POLL_MS: '50', OUTBOX_BACKOFF_BASE_MS: '1000', OUTBOX_BACKOFF_MAX_MS: '2000', WEBHOOK_TIMEOUT_MS: '1000' };

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  created_at: string;
  updated_at: string;
  secret?: string;
}

interface Attempt {
  attempt: number;
  started_at: string;
  duration_ms: number;
  outcome: 'delivered' | 'retry' | 'failed';
  status_code: number | null;
  error: string | null;
}

interface Delivery {
  id: string;
  event_id: string;
  type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
  next_attempt_at: string | null;
  attempt_log: Attempt[];
}

interface Payload {
  id: string;
  type: string;
  created_at: string;
  workspace_id: string;
  external_id: string | null;
  data: Record<string, unknown>;
}

type Verify = (secret: string, headers: Record<string, unknown>, rawBody: Buffer | string, toleranceSeconds?: number) => boolean;

/** The verification snippet of docs/webhooks.md, run as a reader would paste it. */
async function documentedVerifier(): Promise<Verify> {
  const docs = readFileSync(path.join(import.meta.dirname, '../../docs/webhooks.md'), 'utf8');
  const snippet = /```js\n([\s\S]*?export function verifyWebhook[\s\S]*?)```/.exec(docs)?.[1];
  if (!snippet) throw new Error('docs/webhooks.md has no js block exporting verifyWebhook');
  const dir = tempDir();
  const file = path.join(dir, 'verify.mjs');
  writeFileSync(file, snippet);
  try {
    return ((await import(pathToFileURL(file).href)) as { verifyWebhook: Verify }).verifyWebhook;
  } finally {
    removeDir(dir);
  }
}

/** The signature recomputed here from the spec, independently of the service's code. */
function expectedSignature(secret: string, request: ReceivedRequest): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = Buffer.concat([Buffer.from(`${request.headers['webhook-id']}.${request.headers['webhook-timestamp']}.`), request.body]);
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe.each([pgliteDriver(), postgresDriver()])('webhooks on $name', (driver) => {
  let server: ResourcesApp;
  let api: Api;
  let otherApi: Api;
  let readOnly: Api;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    server = await startResourcesApp({ ...(await driver.env()), ...SETTINGS, OUTBOUND_ALLOWED_NETWORKS: LOOPBACK });
    await createWorkspace(server.platform, 'acme');
    await createWorkspace(server.platform, 'other');
    api = server.api(await createKey(server.platform, 'acme', 'all'));
    otherApi = server.api(await createKey(server.platform, 'other', 'all'));
    readOnly = server.api(await createKey(server.platform, 'acme', 'participants:read,participants:write,roles:write'));
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await driver.stop();
  });

  const db = (): Db => server.platform.database.db;

  async function receiver(): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver();
    receivers.push(started);
    return started;
  }

  async function createEndpoint(client: Api, body: Record<string, unknown>): Promise<Endpoint> {
    return dataOf<Endpoint>(await client.post('/api/v1/webhooks', body), 201);
  }

  /** A workspace of its own for one test, so that no other test's events reach its endpoints. */
  async function freshWorkspace(): Promise<{ id: string; api: Api }> {
    const slug = `w-${unique()}`;
    const id = await createWorkspace(server.platform, slug);
    return { id, api: server.api(await createKey(server.platform, slug, 'all')) };
  }

  const deliveries = async (client: Api, endpointId: string) =>
    listOf<Delivery>(await client.get(`/api/v1/webhooks/${endpointId}/deliveries?pageSize=100`)).data;

  /** Polls the deliveries until `done` holds of them; a timeout prints what they were. */
  async function deliveriesWhen(
    client: Api,
    endpointId: string,
    done: (list: Delivery[]) => boolean,
    timeout = 10_000,
  ): Promise<Delivery[]> {
    let last: Delivery[] = [];
    await vi.waitFor(
      async () => {
        last = await deliveries(client, endpointId);
        if (!done(last)) throw new Error(`deliveries not there yet: ${JSON.stringify(last, null, 1)}`);
      },
      { timeout, interval: 50 },
    );
    return last;
  }

  describe('endpoints', () => {
    it('creates an endpoint and shows its secret in that answer only', async () => {
      const hook = await receiver();
      const answer = await api.post('/api/v1/webhooks', {
        url: `${hook.url}/hooks`,
        events: ['participant.created', 'session.completed', 'participant.created'],
        description: 'CRM sync',
      });
      const created = dataOf<Endpoint>(answer, 201);
      expect(created, explain(answer)).toEqual({
        id: expect.stringMatching(UUID),
        url: `${hook.url}/hooks`,
        events: ['participant.created', 'session.completed'],
        description: 'CRM sync',
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      });
      expect(Buffer.from(created.secret!.slice('whsec_'.length), 'base64')).toHaveLength(32);

      const { secret, ...shown } = created;
      const read = await api.get(`/api/v1/webhooks/${created.id}`);
      expect(dataOf(read, 200), explain(read)).toEqual(shown);
      const list = await api.get('/api/v1/webhooks?pageSize=100');
      expect(listOf<Endpoint>(list).data.find((item) => item.id === created.id)).toEqual(shown);
      for (const other of [read, list]) expect(other.text, 'no answer but the create shows the secret').not.toContain(secret!.slice(6));

      const second = await createEndpoint(api, { url: `${hook.url}/hooks`, events: ['*'] });
      expect(second.secret, 'each endpoint has its own secret').not.toBe(secret);
      expect(second.description).toBeNull();
    });

    it('pages the list, newest first', async () => {
      await createWorkspace(server.platform, 'pages');
      const client = server.api(await createKey(server.platform, 'pages', 'webhooks:write'));
      const made: Endpoint[] = [];
      for (let i = 0; i < 5; i++) made.push(await createEndpoint(client, { url: `https://example.com/${i}`, events: ['role.created'] }));
      const { items } = await walkPages<Endpoint>(client, '/api/v1/webhooks', 2);
      expect(items.map((item) => item.id)).toEqual(made.map((item) => item.id).reverse());
    });

    it('deletes an endpoint: 204, then 404 everywhere', async () => {
      const endpoint = await createEndpoint(api, { url: 'https://example.com/gone', events: ['*'] });
      expectStatus(await api.delete(`/api/v1/webhooks/${endpoint.id}`), 204);
      expectError(await api.get(`/api/v1/webhooks/${endpoint.id}`), 404);
      expectError(await api.get(`/api/v1/webhooks/${endpoint.id}/deliveries`), 404);
      expectError(await api.delete(`/api/v1/webhooks/${endpoint.id}`), 404);
    });

    it('refuses bad bodies and queries with a 400 naming the field', async () => {
      const good = { url: 'https://example.com/hook', events: ['participant.created'] };
      expectIssue(await api.post('/api/v1/webhooks', { events: good.events }), 'url');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, url: 'not a url' }), 'url');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, url: 'ftp://example.com/hook' }), 'url');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, url: `https://example.com/${'a'.repeat(2048)}` }), 'url');
      expectIssue(await api.post('/api/v1/webhooks', { url: good.url }), 'events');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, events: [] }), 'events');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, events: 'participant.created' }), 'events');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, events: ['participant.deleted'] }), ['events', '0']);
      expectIssue(await api.post('/api/v1/webhooks', { ...good, description: 'x'.repeat(5001) }), 'description');
      expectIssue(await api.post('/api/v1/webhooks', { ...good, secret: 'whsec_mine' }), 'secret');
      expectIssue(await api.get('/api/v1/webhooks/not-a-uuid'), 'id');
      expectIssue(await api.get('/api/v1/webhooks?pageSize=101'), 'pageSize');
      const endpoint = await createEndpoint(api, good);
      expectIssue(await api.get(`/api/v1/webhooks/${endpoint.id}/deliveries?status=sent`), 'status');
      expectIssue(await api.delete('/api/v1/webhooks/42'), 'id');
    });

    it('answers 403 to a key without webhooks:write, on every route', async () => {
      const endpoint = await createEndpoint(api, { url: 'https://example.com/hook', events: ['*'] });
      const answers = [
        await readOnly.post('/api/v1/webhooks', { url: 'https://example.com/hook', events: ['*'] }),
        await readOnly.get('/api/v1/webhooks'),
        await readOnly.get(`/api/v1/webhooks/${endpoint.id}`),
        await readOnly.get(`/api/v1/webhooks/${endpoint.id}/deliveries`),
        await readOnly.delete(`/api/v1/webhooks/${endpoint.id}`),
      ];
      for (const answer of answers) expectError(answer, 403);
      expectStatus(await api.get(`/api/v1/webhooks/${endpoint.id}`), 200);
    });

    it("answers 404 for another workspace's endpoint and never lists it", async () => {
      const endpoint = await createEndpoint(api, { url: 'https://example.com/acme', events: ['*'] });
      expectError(await otherApi.get(`/api/v1/webhooks/${endpoint.id}`), 404);
      expectError(await otherApi.get(`/api/v1/webhooks/${endpoint.id}/deliveries`), 404);
      expectError(await otherApi.delete(`/api/v1/webhooks/${endpoint.id}`), 404);
      const listed = listOf<Endpoint>(await otherApi.get('/api/v1/webhooks?pageSize=100')).data;
      expect(listed.map((item) => item.id)).not.toContain(endpoint.id);
      expectStatus(await api.get(`/api/v1/webhooks/${endpoint.id}`), 200);
    });
  });

  describe('publishEvent', () => {
    let pubId: string;
    let endpoints: Record<'roles' | 'all' | 'participants' | 'otherAll', Endpoint>;

    beforeAll(async () => {
      const hook = await receiver();
      pubId = await createWorkspace(server.platform, 'pub');
      const pub = server.api(await createKey(server.platform, 'pub', 'webhooks:write'));
      endpoints = {
        roles: await createEndpoint(pub, { url: `${hook.url}/roles`, events: ['role.created'] }),
        all: await createEndpoint(pub, { url: `${hook.url}/all`, events: ['*'] }),
        participants: await createEndpoint(pub, { url: `${hook.url}/participants`, events: ['participant.created'] }),
        otherAll: await createEndpoint(otherApi, { url: `${hook.url}/other`, events: ['*'] }),
      };
    });

    const messagesOf = () =>
      db()
        .select()
        .from(outboxMessages)
        .where(
          inArray(
            outboxMessages.target_id,
            Object.values(endpoints).map((endpoint) => endpoint.id),
          ),
        );

    it('writes one message per endpoint of the workspace subscribed to the type, with one event id', async () => {
      const data = { id: 'r-1', template_name: 'Backend' };
      await db().transaction((tx) => publishEvent(tx, { workspaceId: pubId, type: 'role.created', data, externalId: 'ext-9' }));
      const messages = await messagesOf();
      expect(messages.map((message) => message.target_id).sort()).toEqual([endpoints.roles.id, endpoints.all.id].sort());
      const [first, second] = messages;
      expect(first.payload, 'one event, the same for every endpoint').toEqual(second.payload);
      for (const message of messages) {
        expect(message).toMatchObject({ workspace_id: pubId, kind: 'webhook', topic: 'role.created' });
      }
      expect(first.payload).toEqual({
        id: expect.stringMatching(UUID),
        type: 'role.created',
        created_at: expect.stringMatching(TIMESTAMP),
        workspace_id: pubId,
        external_id: 'ext-9',
        data,
      });
    });

    it('publishes nothing when the transaction rolls back', async () => {
      const before = (await messagesOf()).length;
      const rolledBack = db().transaction(async (tx) => {
        await publishEvent(tx, { workspaceId: pubId, type: 'program.created', data: { id: 'p-1' }, externalId: null });
        expect(
          (
            await tx
              .select()
              .from(outboxMessages)
              .where(inArray(outboxMessages.target_id, [endpoints.all.id]))
          ).length,
        ).toBeGreaterThan(0);
        throw new Error('the write failed');
      });
      await expect(rolledBack).rejects.toThrow('the write failed');
      expect(await messagesOf()).toHaveLength(before);
    });

    it('publishes a batch larger than one statement can carry (500 events to 22 endpoints)', async () => {
      const { id: workspaceId, api: client } = await freshWorkspace();
      const ids: string[] = [];
      for (let i = 0; i < 22; i++) ids.push((await createEndpoint(client, { url: `https://example.com/${i}`, events: ['*'] })).id);
      const events = Array.from({ length: 500 }, (_, i) => ({
        workspaceId,
        type: 'participant.created' as const,
        data: { i },
        externalId: null,
      }));
      // Rolled back at the end, so that the worker never sends the 11 000 messages.
      const counted = db().transaction(async (tx) => {
        await publishEvents(tx, events);
        const [{ n }] = await tx.select({ n: count() }).from(outboxMessages).where(inArray(outboxMessages.target_id, ids));
        throw new Error(`counted ${n}`);
      });
      await expect(counted).rejects.toThrow('counted 11000');
    });
  });

  describe('delivery', () => {
    it('delivers a signed POST that the receiver can verify, with the participant and its external_id', async () => {
      const { id: workspaceId, api: client } = await freshWorkspace();
      const hook = await receiver();
      const endpoint = await createEndpoint(client, { url: `${hook.url}/signed?source=test`, events: ['participant.created'] });
      const participant = await createParticipant(client, { external_id: `crm-${unique()}` });
      expect((await deliveries(client, endpoint.id)).length, 'the delivery is stored when the create answers').toBe(1);

      const [request] = await hook.waitFor(1);
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/signed?source=test');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toMatch(/\S/);
      const payload = JSON.parse(request.body.toString()) as Payload;
      expect(payload).toEqual({
        id: expect.stringMatching(UUID),
        type: 'participant.created',
        created_at: expect.stringMatching(TIMESTAMP),
        workspace_id: workspaceId,
        external_id: participant.external_id,
        data: dataOf<Participant>(await client.get(`/api/v1/participants/${participant.id}`), 200),
      });

      expect(request.headers['webhook-id']).toBe(payload.id);
      const timestamp = Number(request.headers['webhook-timestamp']);
      expect(Math.abs(Date.now() / 1000 - timestamp), 'webhook-timestamp is now, in Unix seconds').toBeLessThan(30);
      expect(request.headers['webhook-signature'], 'HMAC-SHA256 over id.timestamp.body with the decoded secret').toBe(
        expectedSignature(endpoint.secret!, request),
      );
      const tampered = {
        ...request,
        // one character of the id changed (to another one: an id may already end in 0)
        body: Buffer.from(
          request.body.toString().replace(
            participant.id,
            participant.id.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
          ),
        ),
      };
      expect(expectedSignature(endpoint.secret!, tampered)).not.toBe(request.headers['webhook-signature']);

      const verify = await documentedVerifier();
      expect(verify(endpoint.secret!, request.headers, request.body), 'the documented snippet accepts it').toBe(true);
      expect(verify(endpoint.secret!, request.headers, tampered.body), 'and refuses a changed body').toBe(false);
      const otherSecret = (await createEndpoint(client, { url: `${hook.url}/x`, events: ['session.failed'] })).secret!;
      expect(verify(otherSecret, request.headers, request.body), 'and another secret').toBe(false);
      expect(verify(endpoint.secret!, request.headers, request.body, -1), 'and a timestamp out of tolerance').toBe(false);

      const [delivery] = await deliveriesWhen(client, endpoint.id, ([only]) => only?.status === 'delivered');
      expect(delivery).toEqual({
        id: expect.stringMatching(UUID),
        event_id: payload.id,
        type: 'participant.created',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
        created_at: expect.stringMatching(TIMESTAMP),
        delivered_at: expect.stringMatching(TIMESTAMP),
        next_attempt_at: null,
        attempt_log: [
          {
            attempt: 1,
            started_at: expect.stringMatching(TIMESTAMP),
            duration_ms: expect.any(Number),
            outcome: 'delivered',
            status_code: 200,
            error: null,
          },
        ],
      });
      await sleep(300);
      expect(hook.received, 'delivered once').toHaveLength(1);
    });

    it('retries a receiver that fails twice: three attempts recorded, one delivery accepted', async () => {
      const { api: client } = await freshWorkspace();
      const hook = await receiver();
      hook.answerNext(500, { status: 503, body: 'busy' });
      const endpoint = await createEndpoint(client, { url: `${hook.url}/flaky`, events: ['role.created'] });
      await createRole(client);
      const requests = await hook.waitFor(3, 15_000);
      const [delivery] = await deliveriesWhen(client, endpoint.id, ([only]) => only?.status === 'delivered');
      expect(delivery.attempt_log.map(({ attempt, outcome, status_code }) => ({ attempt, outcome, status_code }))).toEqual([
        { attempt: 1, outcome: 'retry', status_code: 500 },
        { attempt: 2, outcome: 'retry', status_code: 503 },
        { attempt: 3, outcome: 'delivered', status_code: 200 },
      ]);
      expect(delivery.attempt_log[0].error).toMatch(/500/);
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, last_status_code: 200, last_error: null });
      const gaps = [requests[1].at - requests[0].at, requests[2].at - requests[1].at];
      expect(gaps[0], `backoff between attempts: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(900);
      expect(gaps[1], `the backoff grows: ${gaps.join(', ')} ms`).toBeGreaterThanOrEqual(1800);
      expect(new Set(requests.map((request) => request.headers['webhook-id'])).size, 'one event id across retries').toBe(1);
      expect(new Set(requests.map((request) => request.body.toString())).size, 'the same body each time').toBe(1);
      for (const request of requests) expect(request.headers['webhook-signature']).toBe(expectedSignature(endpoint.secret!, request));
      await sleep(300);
      expect(hook.received).toHaveLength(3);
    });

    it('does not follow a redirect: the 3xx fails the attempt', async () => {
      const { api: client } = await freshWorkspace();
      const hook = await receiver();
      const elsewhere = await receiver();
      hook.answerNext({ status: 307, headers: { location: `${elsewhere.url}/landing` } });
      const endpoint = await createEndpoint(client, { url: `${hook.url}/moved`, events: ['role.created'] });
      await createRole(client);
      const [delivery] = await deliveriesWhen(client, endpoint.id, ([only]) => only?.status === 'delivered');
      expect(delivery.attempt_log.map(({ outcome, status_code }) => ({ outcome, status_code }))).toEqual([
        { outcome: 'retry', status_code: 307 },
        { outcome: 'delivered', status_code: 200 },
      ]);
      expect(delivery.attempt_log[0].error).toMatch(/307.*redirects are not followed/);
      expect(elsewhere.received, 'the redirect target is never called').toEqual([]);
      expect(hook.received.map((request) => request.path)).toEqual(['/moved', '/moved']);
    });

    it('fails an attempt that gets no answer within WEBHOOK_TIMEOUT_MS, and retries it', async () => {
      const { api: client } = await freshWorkspace();
      const hook = await receiver();
      hook.answerNext({ status: 200, delayMs: 2500 });
      const endpoint = await createEndpoint(client, { url: `${hook.url}/slow`, events: ['role.created'] });
      await createRole(client);
      const [delivery] = await deliveriesWhen(client, endpoint.id, ([only]) => only?.status === 'delivered', 15_000);
      expect(delivery.attempt_log.map(({ outcome }) => outcome)).toEqual(['retry', 'delivered']);
      expect(delivery.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/1000 ms/) });
      expect(delivery.attempt_log[0].duration_ms).toBeLessThan(2000);
    });

    it('ends the pending deliveries of a deleted endpoint as failed, and sends no more', async () => {
      const { api: client } = await freshWorkspace();
      const hook = await receiver();
      // Failing every time: the delivery is pending (between retries) whenever the delete comes.
      hook.answerNext(500, 500, 500, 500);
      const endpoint = await createEndpoint(client, { url: `${hook.url}/deleted`, events: ['role.created'] });
      await createRole(client);
      await deliveriesWhen(client, endpoint.id, ([only]) => only?.attempt_log.length >= 1);
      expectStatus(await client.delete(`/api/v1/webhooks/${endpoint.id}`), 204);
      const [message] = await db()
        .select()
        .from(outboxMessages)
        .where(inArray(outboxMessages.target_id, [endpoint.id]));
      expect(message).toMatchObject({ status: 'failed', last_error: 'endpoint deleted' });
      const sent = hook.received.length;
      // Past the longest backoff (2 s): a retry would have come by now.
      await sleep(2500);
      expect(hook.received, 'no attempt after the delete').toHaveLength(sent);
      expect(sent).toBe(message.attempts);
    });
  });

  describe('address guard', () => {
    it('refuses a loopback URL when OUTBOUND_ALLOWED_NETWORKS is empty: failed at once, nothing sent', async () => {
      const guarded = await startResourcesApp({ ...(await driver.env()), ...SETTINGS, OUTBOUND_ALLOWED_NETWORKS: '' });
      try {
        await createWorkspace(guarded.platform, 'guarded');
        const client = guarded.api(await createKey(guarded.platform, 'guarded', 'all'));
        const hook = await receiver();
        const endpoint = await createEndpoint(client, { url: `${hook.url}/local`, events: ['role.created'] });
        await createRole(client);
        let list: Delivery[] = [];
        await vi.waitFor(
          async () => {
            list = listOf<Delivery>(await client.get(`/api/v1/webhooks/${endpoint.id}/deliveries`)).data;
            expect(list[0]?.status, JSON.stringify(list)).toBe('failed');
          },
          { timeout: 10_000, interval: 50 },
        );
        expect(list[0]).toMatchObject({ attempts: 1, last_status_code: null });
        expect(list[0].last_error).toMatch(/^address 127\.0\.0\.1 is loopback; allow it with OUTBOUND_ALLOWED_NETWORKS$/);
        expect(list[0].attempt_log.map(({ outcome }) => outcome)).toEqual(['failed']);
        expect(hook.received).toEqual([]);
      } finally {
        await guarded.close();
      }
    });
  });

  describe('deliveries list', () => {
    it('pages deliveries newest first and filters them by status', async () => {
      const { api: client } = await freshWorkspace();
      const hook = await receiver();
      const endpoint = await createEndpoint(client, { url: `${hook.url}/list`, events: ['role.created'] });
      for (let i = 0; i < 5; i++) await createRole(client);
      await deliveriesWhen(client, endpoint.id, (list) => list.length === 5 && list.every((item) => item.status === 'delivered'));
      const { items } = await walkPages<Delivery>(client, `/api/v1/webhooks/${endpoint.id}/deliveries`, 2);
      const times = items.map((item) => item.created_at);
      expect(times, 'newest first').toEqual([...times].sort().reverse());
      const eventIds = hook.received.map((request) => String(request.headers['webhook-id']));
      expect(items.map((item) => item.event_id).sort()).toEqual(eventIds.sort());
      const delivered = listOf<Delivery>(await client.get(`/api/v1/webhooks/${endpoint.id}/deliveries?status=delivered`));
      expect(delivered.meta.total).toBe(5);
      const failed = listOf<Delivery>(await client.get(`/api/v1/webhooks/${endpoint.id}/deliveries?status=failed`));
      expect(failed.meta.total).toBe(0);
    });
  });
});
