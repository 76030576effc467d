import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LISTENER_NAME } from '../../src/platform/broadcast/listener.js';
import { accessDocumentation, loadPlatformConfig, registerPlatform, type Platform } from '../../src/platform/index.js';
import { createApp } from '../../src/web/app.js';
import { defineRoute } from '../../src/web/route.js';
import { createKey, createWorkspace, removeDir, tempDir } from './support/app.js';
import { startPostgres, type PostgresServer } from './support/servers.js';

/*
 * Two nodes (the real app with the platform, in this process) on one real PostgreSQL: a key revoked
 * on one ends the requests that use it on the other within a second, by every revocation path, and
 * after the other's listener connection was cut.
 */

const LONG_MS = 20_000;
/** The bound between a revocation and the end of the requests with the key on every node. */
const WITHIN_MS = 1_000;

interface Node {
  app: FastifyInstance;
  platform: Platform;
  url: string;
  logs: string[];
  dataDir: string;
  /** Long requests whose handler runs now (past the gate). */
  running: number;
}

let postgres: PostgresServer;
let databaseUrl: string;
const nodes: Node[] = [];

async function startNode(): Promise<Node> {
  const logs: string[] = [];
  const app = createApp({
    logger: pino({ level: 'info' }, { write: (line: string) => void logs.push(line) }),
    bodyLimit: 1 << 20,
    accessDocumentation,
  });
  const dataDir = tempDir();
  const platform = await registerPlatform(app, {
    config: loadPlatformConfig({ DATA_DIR: dataDir, ADMIN_ENDPOINT: 'false', DATABASE_URL: databaseUrl }),
  });
  const node: Node = { app, platform, url: '', logs, dataDir, running: 0 };
  // A request that lasts until its key is revoked, like a long execution.
  defineRoute(app, { method: 'GET', url: '/api/v1/test/long', summary: 'long request', access: { auth: 'key' } }, async ({ request }) => {
    const signal = request.keyRevoked!;
    node.running += 1;
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, LONG_MS);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      });
    }).finally(() => (node.running -= 1));
    return { finished: true };
  });
  node.url = await app.listen({ host: '127.0.0.1', port: 0 });
  nodes.push(node);
  return node;
}

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase();
  // One after the other: the first applies the migrations.
  await startNode();
  await startNode();
  await createWorkspace(nodes[0].platform, 'acme', 'pro');
}, 120_000);

afterAll(async () => {
  for (const node of nodes) {
    await node.app.close();
    removeDir(node.dataDir);
  }
  await postgres?.stop();
});

/** Starts a long request with the key on the node; resolves with its status and when it was answered. */
function longRequest(node: Node, key: string): Promise<{ status: number; body: string; at: number }> {
  return fetch(`${node.url}/api/v1/test/long`, { headers: { 'x-api-key': key } }).then(async (response) => ({
    status: response.status,
    body: await response.text(),
    at: Date.now(),
  }));
}

/** Waits until `count` long requests run on the node, past the gate. */
async function inFlight(node: Node, count: number): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (node.running < count) {
    if (Date.now() > deadline) throw new Error(`${node.running} long requests run on ${node.url}, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function expectEndedWithin(request: Promise<{ status: number; body: string; at: number }>, revokedAt: number): Promise<number> {
  const answer = await request;
  expect(answer.status, answer.body).toBe(401);
  expect(JSON.parse(answer.body)).toEqual({ error: 'API key has been revoked' });
  const latency = answer.at - revokedAt;
  expect(latency, `the request on the other node ended ${latency} ms after the revocation`).toBeLessThan(WITHIN_MS);
  return latency;
}

async function keyId(platform: Platform, key: string): Promise<string> {
  const listing = await platform.admin({ command: 'key.list', workspace: 'acme' });
  return listing
    .split('\n')
    .find((line) => line.includes(`…${key.slice(-4)}`))!
    .split('\t')[0];
}

async function withListenerConnections<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

const listenerPids = () =>
  withListenerConnections(async (client) => {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [LISTENER_NAME]);
    return rows.map((row) => row.pid);
  });

it('a key revoked through the admin command on node A ends a long request on node B within a second', async () => {
  const [a, b] = nodes;
  const key = await createKey(a.platform, 'acme', 'all');
  const request = longRequest(b, key);
  await inFlight(b, 1);
  const revokedAt = Date.now();
  expect(await a.platform.admin({ command: 'key.revoke', id: await keyId(a.platform, key) })).toMatch(/revoked/);
  const latency = await expectEndedWithin(request, revokedAt);
  console.info(`admin command on A -> 401 on B after ${latency} ms`);
  // And B refuses the key from now on.
  expect((await fetch(`${b.url}/api/v1/usage`, { headers: { 'x-api-key': key } })).status).toBe(401);
});

it('a key revoked through DELETE /api/v1/api-keys/:id on node A ends long requests on both nodes within a second', async () => {
  const [a, b] = nodes;
  await a.platform.admin({ command: 'user.create', email: 'owner@example.com', password: 'correct horse' });
  await a.platform.admin({ command: 'member.add', workspace: 'acme', email: 'owner@example.com' });
  const login = await fetch(`${a.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse' }),
  });
  expect(login.status, await login.clone().text()).toBe(200);
  const cookie = login.headers.getSetCookie()[0].split(';')[0];
  const key = await createKey(a.platform, 'acme', 'all');
  const onB = [longRequest(b, key), longRequest(b, key)];
  const onA = longRequest(a, key);
  await inFlight(b, 2);
  await inFlight(a, 1);
  const revokedAt = Date.now();
  const revoke = await fetch(`${a.url}/api/v1/api-keys/${await keyId(a.platform, key)}?accountSlug=acme`, {
    method: 'DELETE',
    // The dashboard's CSRF check wants the page's origin on a signed-in change.
    headers: { cookie, origin: a.url },
  });
  expect(revoke.status, await revoke.text()).toBe(204);
  const latencies = await Promise.all([...onB, onA].map((request) => expectEndedWithin(request, revokedAt)));
  console.info(`DELETE route on A -> 401 on B after ${latencies[0]} and ${latencies[1]} ms, on A after ${latencies[2]} ms`);
});

it("a revocation still reaches node B after B's listener connection was cut, also one made while it was down", async () => {
  const [a, b] = nodes;
  const before = await listenerPids();
  expect(before, 'one listener connection per node').toHaveLength(2);

  // Cut every listener connection, then revoke at once, before the listeners are back (their first retry is 100 ms away):
  // B misses the notice and must find the revocation when it reconnects.
  const missed = await createKey(a.platform, 'acme', 'all');
  const missedRequest = longRequest(b, missed);
  await inFlight(b, 1);
  await withListenerConnections((client) =>
    client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [LISTENER_NAME]),
  );
  const revokedAt = Date.now();
  await a.platform.admin({ command: 'key.revoke', id: await keyId(a.platform, missed) });
  const missedLatency = await expectEndedWithin(missedRequest, revokedAt);

  // Back and listening: a later revocation arrives as a notice again.
  const deadline = Date.now() + 5_000;
  while ((await listenerPids()).length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await listenerPids();
  expect(after).toHaveLength(2);
  expect(after.filter((pid) => before.includes(pid))).toEqual([]);
  const key = await createKey(a.platform, 'acme', 'all');
  const request = longRequest(b, key);
  await inFlight(b, 1);
  const laterAt = Date.now();
  await a.platform.admin({ command: 'key.revoke', id: await keyId(a.platform, key) });
  const latency = await expectEndedWithin(request, laterAt);
  console.info(`listener cut: revocation made while down -> 401 on B after ${missedLatency} ms; after reconnecting ${latency} ms`);

  const logged = b.logs.map((line) => JSON.parse(line) as { msg: string });
  expect(logged.map((line) => line.msg)).toContain(
    'revocation listener lost its PostgreSQL connection; revocations on other nodes are not heard until it is back',
  );
  expect(logged.map((line) => line.msg)).toContain('revocation listener reconnected');
});
