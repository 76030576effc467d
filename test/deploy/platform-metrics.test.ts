import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessDocumentation, enqueue, loadPlatformConfig, registerPlatform, type Platform } from '../../src/platform/index.js';
import { openDatabase } from '../../src/platform/db/open.js';
import { countSandboxFailures } from '../../src/code/sandbox-failures.js';
import { registerPlatformMetrics } from '../../src/platform/metrics/index.js';
import { outboxBacklogGauge } from '../../src/platform/metrics/outbox-backlog.js';
import { createApp } from '../../src/web/app.js';
import { SandboxError } from '../../src/web/errors.js';
import { defineRoute } from '../../src/web/route.js';
import { removeDir, tempDir } from '../platform/support/app.js';

// The real platform (rate limiter, embedded database, outbox) with the metrics wired as service.ts
// is to wire them: after the routes, before the app is ready.
let app: FastifyInstance;
let platform: Platform;
let registry: Registry;
const dataDir = tempDir();

/** One sample's value from the registry's exposition; undefined when the series is absent. */
async function sample(name: string, labels: string): Promise<number | undefined> {
  const line = (await registry.metrics()).split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
}

beforeAll(async () => {
  app = createApp({ logger: pino({ level: 'silent' }), bodyLimit: 1024 * 1024, accessDocumentation });
  platform = await registerPlatform(app, {
    config: loadPlatformConfig({ DATA_DIR: dataDir, ADMIN_ENDPOINT: 'false', RATE_LIMIT_ANONYMOUS: '2' }),
  });
  defineRoute(app, { method: 'GET', url: '/api/v1/test/open', summary: 'open', access: { auth: 'optional-key' } }, async () => ({
    ok: true,
  }));
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/test/sandbox',
      summary: 'a failed sandbox (outside /api: not rate-limited)',
      access: { auth: 'none' },
      undocumented: true,
    },
    async () => {
      throw new SandboxError('create', 'no space left on device');
    },
  );
  registry = new Registry();
  registerPlatformMetrics(app, registry, platform.database.db);
  countSandboxFailures(app, registry);
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  removeDir(dataDir);
});

describe('platform metrics', () => {
  it('counts rate-limit rejections by kind of caller', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'GET', url: '/api/v1/test/open' })).statusCode);
    expect(statuses).toEqual([200, 200, 429, 429]);
    // A key the platform does not know is limited in the IP's bucket, which is spent: counted as a key caller.
    const withKey = await app.inject({ method: 'GET', url: '/api/v1/test/open', headers: { 'x-api-key': 'svc_live_unknown' } });
    expect(withKey.statusCode, withKey.body).toBe(429);
    expect(await sample('code_runner_rate_limit_rejections_total', 'caller="anonymous"')).toBe(2);
    expect(await sample('code_runner_rate_limit_rejections_total', 'caller="key"')).toBe(1);
  });

  it('counts sandbox failures by stage, from the error the route threw', async () => {
    const answer = await app.inject({ method: 'POST', url: '/test/sandbox' });
    expect(answer.statusCode, answer.body).toBe(502);
    expect(await sample('code_runner_sandbox_failures_total', 'stage="create"')).toBe(1);
  });

  it('reports the outbox backlog by kind at scrape time, and still answers when the database is gone', async () => {
    expect(await sample('code_runner_outbox_backlog', 'kind="email"')).toBe(0);
    const message = (kind: 'email' | 'webhook') => ({ workspaceId: null, kind, topic: 'test', payload: {} });
    await enqueue(platform.database.db, [message('email'), message('email'), message('webhook')]);
    expect(await sample('code_runner_outbox_backlog', 'kind="email"')).toBe(2);
    expect(await sample('code_runner_outbox_backlog', 'kind="webhook"')).toBe(1);
    expect(await sample('code_runner_outbox_backlog', 'kind="resume"')).toBe(0);
  });

  it('leaves the backlog out when the database does not answer, and the scrape still succeeds', async () => {
    const folder = tempDir();
    const gone = await openDatabase({ dataDir: folder });
    await gone.close();
    const scrape = new Registry();
    outboxBacklogGauge(gone.db, scrape);
    const text = await scrape.metrics();
    removeDir(folder);
    expect(text).toContain('# TYPE code_runner_outbox_backlog gauge');
    expect(text).not.toMatch(/^code_runner_outbox_backlog\{/m);
  });
});
