import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Revocations } from '../../src/platform/auth/revocations.js';
import { installGuard } from '../../src/platform/auth/guard.js';
import { Metering } from '../../src/platform/metering.js';
import { loadPlatformConfig, resolveScopes, SCOPES } from '../../src/platform/index.js';
import { buildTestApp, createKey, createWorkspace, removeDir, type TestApp } from './support/app.js';
import { call, expectError, expectRateLimitHeaders } from './support/http.js';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  await createWorkspace(t.platform, 'acme', 'pro');
  key = await createKey(t.platform, 'acme', 'all');
});
afterAll(async () => {
  await t?.close();
  if (t) removeDir(t.dataDir);
});

describe('scope aliases', () => {
  it.each([
    [['participants:read', 'candidates.read'], ['participants:read']],
    [['role:read', 'templates:read', 'evaluation_templates.read'], ['roles:read']],
    [['round:write', 'evaluation_stages.write'], ['rounds:write']],
    [['interviewers.write', 'interviewer:write'], ['interviewers:write']],
    [['interviews.read'], ['sessions:read', 'interviewers:read']],
    [['interviews.write'], ['sessions:write', 'interviewers:write']],
    [
      ['programs.read', 'webhooks:write'],
      ['programs:read', 'webhooks:write'],
    ],
  ])('%j all mean %j', (names, canonical) => {
    for (const name of names) expect(resolveScopes([name]).every((scope) => canonical.includes(scope))).toBe(true);
    expect(resolveScopes(names)).toEqual(canonical);
  });

  it('expands all and refuses unknown names', () => {
    expect(resolveScopes(['all'])).toEqual([...SCOPES]);
    expect(() => resolveScopes(['sessions:fly'])).toThrow(/unknown scope/);
  });
});

describe('pagination', () => {
  it('defaults to page 1 of 20', async () => {
    const body = (await call(t.app, { url: '/api/v1/test/things', key })).json();
    expect(body.data).toHaveLength(20);
    expect(body.meta).toEqual({ page: 1, pageSize: 20, total: 45, totalPages: 3 });
  });

  it('accepts pageSize 100 and the last page', async () => {
    expect((await call(t.app, { url: '/api/v1/test/things?pageSize=100', key })).json().meta).toEqual({
      page: 1,
      pageSize: 100,
      total: 45,
      totalPages: 1,
    });
    expect((await call(t.app, { url: '/api/v1/test/things?page=3', key })).json().data).toHaveLength(5);
  });

  it.each(['pageSize=101', 'pageSize=0', 'page=0', 'page=-1', 'page=abc', 'pageSize=2.5', 'page='])(
    'refuses %s with 400 naming the field',
    async (query) => {
      const response = await call(t.app, { url: `/api/v1/test/things?${query}`, key });
      expect(expectError(response, 400).issues?.[0].path).toEqual([query.split('=')[0]]);
      expectRateLimitHeaders(response);
    },
  );
});

describe('request conventions', () => {
  it('answers malformed JSON with 400, issues at path [] and rate-limit headers', async () => {
    const response = await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: '{"candidate":' });
    expect(expectError(response, 400).issues?.[0].path).toEqual([]);
    expectRateLimitHeaders(response);
  });

  it('reports body validation issues with string paths', async () => {
    expect(
      expectError(await call(t.app, { method: 'POST', url: '/api/v1/test/sessions', key, body: { candidate: 5 } }), 400).issues,
    ).toEqual([{ path: ['candidate'], message: expect.any(String) }]);
  });

  it('accepts an empty body on bodiless POSTs with or without Content-Type', async () => {
    expect(
      (await call(t.app, { method: 'POST', url: '/api/v1/test/execute', key, headers: { 'content-type': 'application/json' } })).statusCode,
    ).toBe(200);
    expect((await call(t.app, { method: 'POST', url: '/api/v1/test/execute', key })).statusCode).toBe(200);
  });

  it('refuses a non-UUID {id} with 400 naming id', async () => {
    expect(expectError(await call(t.app, { method: 'DELETE', url: '/api/v1/test/things/42', key }), 400).issues).toEqual([
      { path: ['id'], message: 'must be a UUID' },
    ]);
  });

  it('puts rate-limit headers on unknown /api routes but leaves other routes alone', async () => {
    expectRateLimitHeaders(await call(t.app, { url: '/api/v1/nothing-here' }));
    const health = await call(t.app, { url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('refuses to register an /api route that declares no access', async () => {
    const app = Fastify({ logger: false });
    installGuard(app, {
      db: t.platform.database.db,
      limiter: async () => {},
      metering: new Metering(t.platform.database.db, loadPlatformConfig({})),
      revocations: new Revocations(),
      settings: loadPlatformConfig({}),
      publicPrefixes: [],
    });
    expect(() => app.get('/api/v1/undeclared', async () => ({}))).toThrow(/must declare config.access/);
    expect(() => app.get('/healthz', async () => ({}))).not.toThrow();
    await app.close();
  });

  it('never leaks internals in a 500', async () => {
    const response = await call(t.app, { url: '/api/v1/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'internal error' });
  });
});

describe('OpenAPI', () => {
  it('documents platform and declared routes with their scopes', async () => {
    const response = await call(t.app, { url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/v1/api-keys', '/api/v1/api-keys/{id}', '/api/v1/usage', '/api/v1/auth/login', '/api/v1/test/things']),
    );
    const list = document.paths['/api/v1/test/things'].get;
    expect(list['x-required-scope']).toBe('participants:read');
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'pageSize']);
    expect(list.responses).toHaveProperty('403');
    expect(document.paths['/api/v1/test/sessions'].post.responses).toHaveProperty('402');
  });

  it('serves a browsable page', async () => {
    const response = await call(t.app, { url: '/api/v1/docs' });
    const page = response.statusCode === 302 ? await call(t.app, { url: String(response.headers.location) }) : response;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);
  });
});
