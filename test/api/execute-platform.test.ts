// The execute endpoint as the platform sees it in the real service: anonymous or with a valid key,
// rate-limited per IP or per key, and documented in the OpenAPI document from its zod schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, startTestService } from '../support/service.js';
import { createApiKey } from '../mcp/keys.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_ANONYMOUS: '6', RATE_LIMIT_PRO: '1000' });
});
afterAll(async () => {
  await service?.close();
});

const body = { language: 'javascript', code: 'function inc(x) { return x + 1; }', testCases: [{ args: { x: 1 }, expected: 2 }] };

function expectRateLimitHeaders(headers: Headers, limit: number): void {
  expect(Number(headers.get('x-ratelimit-limit'))).toBe(limit);
  expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  const reset = Number(headers.get('x-ratelimit-reset'));
  expect(reset).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
}

describe('execute behind the platform', () => {
  // The tests share one anonymous per-IP budget of 6 and run in order: 1 here, 2 refused keys, then 3 executions.
  it('documents execute, languages and /api/mcp in the OpenAPI document', async () => {
    const response = await fetch(`${service.url}/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const operation = document.paths['/api/v1/code/execute'].post;
    const schema = operation.requestBody!.content['application/json'].schema;
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['code', 'language', 'functionName', 'testCases', 'functionNames', 'pythonFunctionName', 'jsFunctionName']),
    );
    expect(schema.required).toEqual(expect.arrayContaining(['code', 'language', 'testCases']));
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '408', '413', '422', '429', '502', '503']));
    expect(document.paths['/api/v1/code/languages'].get).toBeDefined();
    expect(document.paths['/api/mcp'].post.responses).toHaveProperty('402');
    expect(document.paths['/api/v1/usage'].get).toBeDefined();
  });

  it('runs with a valid key, refuses a malformed or unknown one with 401 (counted against the IP)', async () => {
    const key = await createApiKey(service, 'pro');
    const ok = await execute(service, body, { 'x-api-key': key });
    expect(ok.status).toBe(200);
    expect(ok.body.results?.[0].passed).toBe(true);
    expectRateLimitHeaders(ok.headers, 1000);

    expect((await execute(service, body, { 'x-api-key': 'not-a-key' })).status).toBe(401);
    const unknown = await execute(service, body, { 'x-api-key': `svc_live_${'Z'.repeat(40)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toMatch(/invalid API key/);
  });

  it('limits anonymous callers per IP with 429 and Retry-After, headers on every answer', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof execute>> | undefined;
    for (let i = 0; i < 5; i += 1) {
      last = await execute(service, body);
      statuses.push(last.status);
      expectRateLimitHeaders(last.headers, 6);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(typeof last!.body.error).toBe('string');
    // A key has its own bucket.
    expect((await execute(service, body, { 'x-api-key': await createApiKey(service, 'pro') })).status).toBe(200);
  });
});
