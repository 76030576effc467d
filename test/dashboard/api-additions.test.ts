import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspaces } from '../../src/platform/db/schema.js';
import { buildTestApp, createKey, createWorkspace, removeDir, type TestApp } from '../platform/support/app.js';
import { call, sessionCookie } from '../platform/support/http.js';

/**
 * What the dashboard needed of the API and the API had not (docs/dashboard.md, "API additions"): who is
 * signed in, the plan's rate limit, usage per day, and when a key was last used. Real platform, embedded database.
 */

let t: TestApp;
let cookie: string;
const ORIGIN = { origin: 'http://localhost' };

beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PRO: '777' });
  await createWorkspace(t.platform, 'acme', 'pro');
  await createWorkspace(t.platform, 'zeta', 'free');
  await t.platform.admin({ command: 'user.create', email: 'member@example.com', password: 'correct horse' });
  await t.platform.admin({ command: 'member.add', workspace: 'zeta', email: 'member@example.com' });
  await t.platform.admin({ command: 'member.add', workspace: 'acme', email: 'member@example.com' });
  cookie = sessionCookie(
    await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'member@example.com', password: 'correct horse' } }),
  );
});

afterAll(async () => {
  await t?.close();
  if (t) removeDir(t.dataDir);
});

describe('GET /api/v1/auth/session', () => {
  it('names the signed-in user and their workspaces, without accountSlug', async () => {
    const answer = await call(t.app, { url: '/api/v1/auth/session', cookie });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({
      user: { email: 'member@example.com' },
      workspaces: [
        { slug: 'acme', plan: 'pro' },
        { slug: 'zeta', plan: 'free' },
      ],
    });
  });

  it('is 401 without a session, with a forged cookie, and after sign-out', async () => {
    expect((await call(t.app, { url: '/api/v1/auth/session' })).statusCode).toBe(401);
    expect((await call(t.app, { url: '/api/v1/auth/session', cookie: 'session=forged.signature' })).statusCode).toBe(401);
    const other = sessionCookie(
      await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'member@example.com', password: 'correct horse' } }),
    );
    expect((await call(t.app, { method: 'POST', url: '/api/v1/auth/logout', cookie: other, headers: ORIGIN })).statusCode).toBe(200);
    expect((await call(t.app, { url: '/api/v1/auth/session', cookie: other })).statusCode).toBe(401);
  });

  it('is in the OpenAPI document, as are the daily usage and last_used_at', async () => {
    const document = (await call(t.app, { url: '/api/v1/openapi.json' })).json();
    expect(document.paths['/api/v1/auth/session'].get).toBeDefined();
    expect(document.paths['/api/v1/usage/daily'].get).toBeDefined();
    expect(JSON.stringify(document)).toContain('last_used_at');
  });
});

describe('usage for the dashboard', () => {
  it('GET /api/v1/usage carries the plan’s rate limit', async () => {
    const answer = await call(t.app, { url: '/api/v1/usage?accountSlug=acme', cookie });
    expect(answer.json().data.rate_limit).toEqual({ requests: 777, window_seconds: 60 });
  });

  it('GET /api/v1/usage/daily counts metered calls per day, today last, days without use as 0', async () => {
    const key = await createKey(t.platform, 'acme', 'usage:read');
    for (let n = 0; n < 3; n++) expect((await call(t.app, { method: 'POST', url: '/api/v1/test/mcp', key })).statusCode).toBe(200);
    const answer = await call(t.app, { url: '/api/v1/usage/daily?days=7', key });
    expect(answer.statusCode, answer.body).toBe(200);
    const days = answer.json().data as { date: string; mcp_code_executions: number; mcp_problem_generations: number }[];
    expect(days).toHaveLength(7);
    expect(days.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      mcp_code_executions: 3,
      mcp_problem_generations: 0,
      code_executions: 0,
    });
    expect(days.slice(0, -1).every((day) => day.mcp_code_executions === 0)).toBe(true);
    // The month's counter is the same 3: the per-day rows are not counted into it.
    expect((await call(t.app, { url: '/api/v1/usage', key })).json().data.counters.mcp_code_executions.used).toBe(3);
    // Another workspace's days are its own.
    const zeta = (await call(t.app, { url: '/api/v1/usage/daily?days=1&accountSlug=zeta', cookie })).json().data;
    expect(zeta).toEqual([{ date: days.at(-1)!.date, mcp_code_executions: 0, mcp_problem_generations: 0, code_executions: 0 }]);
  });

  it('counts REST executions of a key per day, with no allowance and nothing in the monthly counters', async () => {
    const [acme] = await t.platform.database.db.select().from(workspaces).where(eq(workspaces.slug, 'acme'));
    // What the execute route does after a run made with a key (its request carries the key's principal).
    const request = { principal: { workspaceId: acme.id, workspaceSlug: 'acme', plan: 'pro', scopes: [] } } as unknown as FastifyRequest;
    await t.platform.checkMeter(request, 'code_executions');
    await t.platform.meter(request, 'code_executions');
    await t.platform.meter(request, 'code_executions');
    const today = (await call(t.app, { url: '/api/v1/usage/daily?days=1&accountSlug=acme', cookie })).json().data[0];
    expect(today.code_executions).toBe(2);
    const month = (await call(t.app, { url: '/api/v1/usage?accountSlug=acme', cookie })).json().data.counters;
    expect(Object.keys(month)).toEqual(['mcp_code_executions', 'mcp_problem_generations']);
  });

  it('refuses a days value outside 1..90', async () => {
    for (const days of ['0', '91', 'x']) {
      const answer = await call(t.app, { url: `/api/v1/usage/daily?days=${days}&accountSlug=acme`, cookie });
      expect(answer.statusCode, days).toBe(400);
      expect(answer.json().issues[0].path).toEqual(['days']);
    }
  });
});

describe('last_used_at of an API key', () => {
  it('is null until the key is used, then the time of use, rewritten at most once a minute', async () => {
    const key = await createKey(t.platform, 'zeta', 'usage:read');
    const listed = async () =>
      (
        (await call(t.app, { url: '/api/v1/api-keys?accountSlug=zeta', cookie })).json().data as {
          suffix: string;
          last_used_at: string | null;
        }[]
      ).find((row) => row.suffix === key.slice(-4))!.last_used_at;
    expect(await listed()).toBeNull();
    const before = Date.now();
    expect((await call(t.app, { url: '/api/v1/usage', key })).statusCode).toBe(200);
    const first = await listed();
    expect(Date.parse(first!)).toBeGreaterThanOrEqual(before - 1000);
    expect((await call(t.app, { url: '/api/v1/usage', key })).statusCode).toBe(200);
    expect(await listed()).toBe(first);
  });
});
