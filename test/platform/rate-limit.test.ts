import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { buildTestApp, createKey, createWorkspace, removeDir, tempDir, type TestApp } from './support/app.js';
import { call, expectError, expectRateLimitHeaders } from './support/http.js';
import { startRedis, type RedisServer } from './support/servers.js';

const LIMITS = { RATE_LIMIT_STARTER: '3', RATE_LIMIT_PRO: '5', RATE_LIMIT_ANONYMOUS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' };

let redis: RedisServer;
const dataDir = tempDir();
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.stop();
  removeDir(dataDir);
});

describe.each([
  { store: 'memory', env: () => ({}) },
  { store: 'redis', env: () => ({ REDIS_URL: redis.url }) },
])('rate limits in $store', ({ store, env }) => {
  let t: TestApp;
  const suffix = store;

  beforeAll(async () => {
    // Both stores share one data folder, one after the other, to open PGlite once.
    t = await buildTestApp({ ...LIMITS, ...env() }, dataDir);
    await createWorkspace(t.platform, `starter-${suffix}`, 'starter');
    await createWorkspace(t.platform, `pro-${suffix}`, 'pro');
  });
  afterAll(async () => {
    await t?.close();
  });

  it("counts per key at the plan's limit, then answers 429 with Retry-After", async () => {
    const key = await createKey(t.platform, `starter-${suffix}`, 'all');
    const before = Math.floor(Date.now() / 1000);
    for (const remaining of [2, 1, 0]) {
      const response = await call(t.app, { url: '/api/v1/test/things', key });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('3');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
      expectRateLimitHeaders(response);
      expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(before + 59);
    }
    const refused = await call(t.app, { url: '/api/v1/test/things', key });
    expect(expectError(refused, 429).error).toMatch(/rate limit/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expectRateLimitHeaders(refused);

    // Another key of a bigger plan has its own bucket.
    const other = await createKey(t.platform, `pro-${suffix}`, 'all');
    const fresh = await call(t.app, { url: '/api/v1/test/things', key: other });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-ratelimit-limit']).toBe('5');
  });

  it('counts anonymous callers, refused ones included, per client IP', async () => {
    const ip = store === 'memory' ? '10.0.0.1' : '10.0.0.2';
    const anonymous = (headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/v1/test/execute', remoteAddress: ip, headers });
    expect((await anonymous()).headers['x-ratelimit-limit']).toBe('2');
    expect((await anonymous({ 'x-api-key': 'bad' })).statusCode).toBe(401);
    const refused = await anonymous();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/test/execute', remoteAddress: '10.9.9.9' })).statusCode).toBe(200);
  });

  if (store === 'redis') {
    it('keeps its counters in Redis', async () => {
      const client = new Redis(redis.url);
      try {
        expect((await client.keys('platform-rl:*')).length).toBeGreaterThan(0);
      } finally {
        client.disconnect();
      }
    });
  }
});
