import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createKey, createWorkspace, removeDir, type TestApp } from './support/app.js';
import { pgliteDriver, postgresDriver } from './support/drivers.js';
import { call, expectError, expectRateLimitHeaders, sessionCookie } from './support/http.js';

describe.each([pgliteDriver(), postgresDriver()])('access on $name', (driver) => {
  let t: TestApp;
  let readKey: string;
  let cookie: string;

  beforeAll(async () => {
    t = await buildTestApp({ ...(await driver.env()), MCP_CODE_EXECUTIONS_STARTER: '2' });
    await createWorkspace(t.platform, 'acme', 'starter');
    await createWorkspace(t.platform, 'other', 'pro');
    await createWorkspace(t.platform, 'freebie', 'free');
    readKey = await createKey(t.platform, 'acme', 'participants:read');
    await t.platform.admin({ command: 'user.create', email: 'Ada@Example.com', password: 'correct horse' });
    await t.platform.admin({ command: 'member.add', workspace: 'acme', email: 'ada@example.com' });
    cookie = sessionCookie(
      await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'ada@example.com', password: 'correct horse' } }),
    );
  });
  afterAll(async () => {
    await t?.close();
    if (t) removeDir(t.dataDir);
    await driver.stop();
  });

  describe('API keys', () => {
    it('accepts a valid key with the scope', async () => {
      const response = await call(t.app, { url: '/api/v1/test/things', key: readKey });
      expect(response.statusCode).toBe(200);
      expectRateLimitHeaders(response);
    });

    it.each([
      ['no key', undefined, /missing/],
      ['a malformed key', 'abc', /malformed/],
      ['a key that is too short', 'svc_live_abc123', /malformed/],
      ['an unknown key', `svc_live_${'A'.repeat(40)}`, /invalid/],
    ])('refuses %s with 401 (rate-limit headers included)', async (_, key, message) => {
      const response = await call(t.app, { url: '/api/v1/test/things', key });
      expect(expectError(response, 401).error).toMatch(message);
      expectRateLimitHeaders(response);
    });

    it('refuses a key revoked while in use on its very next request', async () => {
      const key = await createKey(t.platform, 'acme', 'all');
      expect((await call(t.app, { url: '/api/v1/test/things', key })).statusCode).toBe(200);
      const id = (await t.platform.admin({ command: 'key.list', workspace: 'acme' }))
        .split('\n')
        .find((line) => line.includes(key.slice(-4)))!
        .split('\t')[0];
      await t.platform.admin({ command: 'key.revoke', id });
      expect(expectError(await call(t.app, { url: '/api/v1/test/things', key }), 401).error).toMatch(/revoked/);
    });

    it.each(['participants:read', 'candidates.read'])('grants participants:read to a key created with %s', async (scope) => {
      const key = await createKey(t.platform, 'acme', scope);
      expect((await call(t.app, { url: '/api/v1/test/things', key })).statusCode).toBe(200);
    });

    it.each(['participants:write', 'candidates.write', 'role:read', 'templates:read', 'evaluation_templates.read', 'interviews.read'])(
      'refuses a key with only %s with 403 naming the scope',
      async (scope) => {
        const key = await createKey(t.platform, 'acme', scope);
        expect(expectError(await call(t.app, { url: '/api/v1/test/things', key }), 403).error).toContain('participants:read');
      },
    );

    it('needs the delete scope for deletes', async () => {
      const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
      expect(expectError(await call(t.app, { method: 'DELETE', url: `/api/v1/test/things/${id}`, key: readKey }), 403).error).toContain(
        'participants:delete',
      );
      const key = await createKey(t.platform, 'acme', 'candidates.delete');
      const response = await call(t.app, { method: 'DELETE', url: `/api/v1/test/things/${id}`, key });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    });

    it('lets anonymous callers through optional-key routes but checks a key that is sent', async () => {
      const anonymous = await call(t.app, { method: 'POST', url: '/api/v1/test/execute' });
      expect(anonymous.json()).toEqual({ workspace: null });
      expectRateLimitHeaders(anonymous);
      expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/execute', key: 'nope' }), 401);
      expect((await call(t.app, { method: 'POST', url: '/api/v1/test/execute', key: readKey })).json()).toEqual({ workspace: 'acme' });
    });
  });

  describe('cookie sessions', () => {
    it('sets a signed HttpOnly SameSite=Lax cookie and refuses bad passwords', async () => {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/v1/auth/login',
        body: { email: 'ada@example.com', password: 'correct horse' },
      });
      expect(response.json().data.workspaces).toEqual([{ slug: 'acme', plan: 'starter' }]);
      const header = String(response.headers['set-cookie']);
      expect(header).toMatch(/HttpOnly/);
      expect(header).toMatch(/SameSite=Lax/);
      expectError(
        await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'ada@example.com', password: 'wrong horse' } }),
        401,
      );
      expectError(
        await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'nobody@example.com', password: 'x' } }),
        401,
      );
    });

    it('reaches a workspace the user is a member of, picked by accountSlug', async () => {
      const response = await call(t.app, { url: '/api/v1/test/things?accountSlug=acme', cookie });
      expect(response.statusCode).toBe(200);
      expectRateLimitHeaders(response);
    });

    it('takes accountSlug from the body where the body carries it', async () => {
      const response = await call(t.app, {
        method: 'POST',
        url: '/api/v1/test/sessions',
        cookie,
        body: { candidate: 'c', accountSlug: 'acme' },
      });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.workspace).toBe('acme');
    });

    it('gives 404 for a workspace the user is not a member of, or that does not exist', async () => {
      expectError(await call(t.app, { url: '/api/v1/test/things?accountSlug=other', cookie }), 404);
      expectError(await call(t.app, { url: '/api/v1/test/things?accountSlug=missing', cookie }), 404);
    });

    it('needs accountSlug', async () => {
      expect(expectError(await call(t.app, { url: '/api/v1/test/things', cookie }), 400).issues).toEqual([
        { path: ['accountSlug'], message: expect.any(String) },
      ]);
    });

    it('is refused with 401 on key-only routes', async () => {
      expect(expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/mcp?accountSlug=acme', cookie }), 401).error).toMatch(
        /cookie/,
      );
    });

    it('refuses a tampered cookie', async () => {
      expectError(await call(t.app, { url: '/api/v1/test/things?accountSlug=acme', cookie: `${cookie.slice(0, -3)}xyz` }), 401);
    });

    it('ends with logout', async () => {
      const mine = sessionCookie(
        await call(t.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'ada@example.com', password: 'correct horse' } }),
      );
      const logout = await call(t.app, {
        method: 'POST',
        url: '/api/v1/auth/logout',
        cookie: mine,
        headers: { 'content-type': 'application/json' },
      });
      expect(logout.json()).toEqual({ success: true });
      expectError(await call(t.app, { url: '/api/v1/test/things?accountSlug=acme', cookie: mine }), 401);
    });
  });

  describe('API key management over the API', () => {
    it('creates (201, shown once), lists without secrets and revokes (204) keys', async () => {
      const created = await call(t.app, {
        method: 'POST',
        url: '/api/v1/api-keys?accountSlug=acme',
        cookie,
        body: { name: 'ci', scopes: ['candidates.read', 'round:write'] },
      });
      expect(created.statusCode).toBe(201);
      const { data } = created.json();
      expect(data.key).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);
      expect(data.scopes).toEqual(['participants:read', 'rounds:write']);
      expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect((await call(t.app, { url: '/api/v1/test/things', key: data.key })).statusCode).toBe(200);

      const list = await call(t.app, { url: '/api/v1/api-keys?accountSlug=acme&pageSize=100', cookie });
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain(data.key);
      expect(list.body).not.toContain('hash');
      expect(list.json().data.find((k: { id: string }) => k.id === data.id)).toMatchObject({
        name: 'ci',
        suffix: data.key.slice(-4),
        revoked_at: null,
      });

      const removed = await call(t.app, { method: 'DELETE', url: `/api/v1/api-keys/${data.id}?accountSlug=acme`, cookie });
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe('');
      expectError(await call(t.app, { url: '/api/v1/test/things', key: data.key }), 401);
    });

    it('is cookie-only, and checks ids and scope names', async () => {
      expectError(await call(t.app, { url: '/api/v1/api-keys?accountSlug=acme', key: readKey }), 401);
      expect(
        expectError(await call(t.app, { method: 'DELETE', url: '/api/v1/api-keys/not-a-uuid?accountSlug=acme', cookie }), 400).issues?.[0]
          .path,
      ).toEqual(['id']);
      expectError(
        await call(t.app, { method: 'DELETE', url: '/api/v1/api-keys/7c9e6679-7425-40de-944b-e07fc1f90ae7?accountSlug=acme', cookie }),
        404,
      );
      expect(
        expectError(
          await call(t.app, { method: 'POST', url: '/api/v1/api-keys?accountSlug=acme', cookie, body: { scopes: ['teleport:write'] } }),
          400,
        ).issues?.[0].path,
      ).toEqual(['scopes']);
    });

    it("cannot revoke another workspace's key", async () => {
      const otherKey = await createKey(t.platform, 'other', 'all');
      const id = (await t.platform.admin({ command: 'key.list', workspace: 'other' }))
        .split('\n')
        .find((line) => line.includes(otherKey.slice(-4)))!
        .split('\t')[0];
      expectError(await call(t.app, { method: 'DELETE', url: `/api/v1/api-keys/${id}?accountSlug=acme`, cookie }), 404);
      expect((await call(t.app, { url: '/api/v1/test/things', key: otherKey })).statusCode).toBe(200);
    });
  });

  describe('plans and metering', () => {
    it('refuses a free workspace on a paid-plan route with 402, before validating the body', async () => {
      const key = await createKey(t.platform, 'freebie', 'all');
      expect(expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: '{not json' }), 402).error).toMatch(
        /paid plan/,
      );
      expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: { candidate: 'x' } }), 402);
    });

    it('spends one credit per metered success and gives 402 when none are left', async () => {
      await t.platform.admin({ command: 'plan.set', workspace: 'other', plan: 'pro', credits: 2 });
      const key = await createKey(t.platform, 'other', 'sessions:write,usage:read');
      for (let i = 0; i < 2; i += 1)
        expect((await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: { candidate: 'x' } })).statusCode).toBe(201);
      expect(
        expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: { candidate: 'x' } }), 402).error,
      ).toMatch(/credits/);
      expect((await call(t.app, { url: '/api/v1/usage', key })).json().data).toMatchObject({ workspace: 'other', plan: 'pro', credits: 0 });
    });

    it('counts MCP calls against the monthly allowance', async () => {
      const key = await createKey(t.platform, 'acme', 'usage:read');
      for (let i = 0; i < 2; i += 1) expect((await call(t.app, { method: 'POST', url: '/api/v1/test/mcp', key })).statusCode).toBe(200);
      expect(expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/mcp', key }), 402).error).toMatch(/mcp_code_executions/);
      const usage = (await call(t.app, { url: '/api/v1/usage', key })).json().data;
      expect(usage.counters.mcp_code_executions).toEqual({ used: 2, allowance: 2 });
      expect(usage.counters.mcp_problem_generations.used).toBe(0);
    });

    it('needs usage:read for /usage with a key, and accountSlug with a cookie', async () => {
      expect(expectError(await call(t.app, { url: '/api/v1/usage', key: readKey }), 403).error).toContain('usage:read');
      expect((await call(t.app, { url: '/api/v1/usage?accountSlug=acme', cookie })).json().data.workspace).toBe('acme');
    });
  });
});
