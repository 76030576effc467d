// /api/mcp through the platform: API keys only, plan allowances per tool, counters in /api/v1/usage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';
import { createApiKey } from './keys.js';
import { postMcp, request } from './support.js';

let service: Service;
beforeAll(async () => {
  // Small free-plan allowances, so that the 402 paths are reached in a few calls.
  service = await startTestService({ MCP_CODE_EXECUTIONS_FREE: '2', MCP_PROBLEM_GENERATIONS_FREE: '1' });
});
afterAll(async () => {
  await service?.close();
});

const EXECUTE = {
  name: 'execute_code',
  arguments: { language: 'python', code: 'def add(a, b):\n    return a + b\n', testCases: [{ args: { a: 1, b: 2 }, expected: 3 }] },
};
const GENERATE = { name: 'generate_problem', arguments: { topic: 'arrays', seed: 7 } };

const call = (key: string, params: Record<string, unknown>, id = 1) =>
  postMcp(service, request('tools/call', params, id), { 'x-api-key': key });

function expectHttpError(reply: { status: number; body: unknown; headers: Headers }, status: number): string {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  const body = reply.body as { error?: unknown; jsonrpc?: unknown };
  expect(typeof body.error).toBe('string');
  expect(body.jsonrpc).toBeUndefined();
  return body.error as string;
}

async function usage(key: string) {
  const response = await fetch(`${service.url}/api/v1/usage`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(200);
  return (
    (await response.json()) as { data: { workspace: string; plan: string; counters: Record<string, { used: number; allowance: number }> } }
  ).data;
}

async function keyId(workspace: string): Promise<string> {
  const listing = await service.platform.admin({ command: 'key.list', workspace });
  return listing.split('\t')[0];
}

describe('authentication on /api/mcp', () => {
  it('answers 401 without a key, with a malformed key and with an unknown key', async () => {
    expect(expectHttpError(await postMcp(service, request('ping')), 401)).toMatch(/x-api-key/);
    expect(expectHttpError(await postMcp(service, request('ping'), { 'x-api-key': 'svc_live_short' }), 401)).toMatch(/malformed/);
    expect(expectHttpError(await postMcp(service, request('ping'), { 'x-api-key': `svc_live_${'a'.repeat(40)}` }), 401)).toMatch(/invalid/);
  });

  it('refuses a session cookie, even a valid one, with 401', async () => {
    const slug = 'mcp-cookie';
    await service.platform.admin({ command: 'workspace.create', slug, plan: 'pro' });
    await service.platform.admin({ command: 'user.create', email: 'dev@example.com', password: 'correct horse battery' });
    await service.platform.admin({ command: 'member.add', workspace: slug, email: 'dev@example.com' });
    const login = await fetch(`${service.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'dev@example.com', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('session='))!
      .split(';')[0];
    // The same cookie is good elsewhere, so the refusal is the endpoint's rule, not a bad cookie.
    expect((await fetch(`${service.url}/api/v1/usage?accountSlug=${slug}`, { headers: { cookie } })).status).toBe(200);
    expect(expectHttpError(await postMcp(service, request('ping'), { cookie }), 401)).toMatch(/cookie/);
    expect(expectHttpError(await postMcp(service, { ...request('tools/call', EXECUTE), accountSlug: slug }, { cookie }), 401)).toMatch(
      /x-api-key/,
    );
  });

  it('refuses a key on the very next request after it is revoked', async () => {
    const key = await createApiKey(service, 'pro');
    expect((await postMcp(service, request('ping'), { 'x-api-key': key })).status).toBe(200);
    await service.platform.admin({ command: 'key.revoke', id: await keyId((await usage(key)).workspace) });
    expect(expectHttpError(await postMcp(service, request('ping'), { 'x-api-key': key }), 401)).toMatch(/revoked/);
  });
});

describe('metering on /api/mcp', () => {
  it('counts each successful execute_code call and answers 402 past the allowance', async () => {
    const key = await createApiKey(service, 'free');
    expect((await usage(key)).counters.mcp_code_executions).toEqual({ used: 0, allowance: 2 });

    // Listing tools and a call with bad arguments (a tool error) cost nothing.
    expect((await postMcp(service, request('tools/list'), { 'x-api-key': key })).status).toBe(200);
    const bad = await call(key, { name: 'execute_code', arguments: { language: 'python' } });
    expect((bad.body as { result: { isError: boolean } }).result.isError).toBe(true);
    expect((await usage(key)).counters.mcp_code_executions.used).toBe(0);

    for (let i = 1; i <= 2; i += 1) {
      const reply = await call(key, EXECUTE, i);
      expect(reply.status).toBe(200);
      expect(
        (reply.body as { result: { structuredContent: { results: Array<{ passed: boolean }> } } }).result.structuredContent.results[0]
          .passed,
      ).toBe(true);
      expect((await usage(key)).counters.mcp_code_executions.used).toBe(i);
    }
    expect(expectHttpError(await call(key, EXECUTE, 3), 402)).toMatch(/allowance/);
    expect((await usage(key)).counters.mcp_code_executions.used).toBe(2);
    // The other tool has its own allowance, untouched.
    expect((await call(key, GENERATE)).status).toBe(200);
    expect((await usage(key)).counters.mcp_problem_generations.used).toBe(1);
    expect(expectHttpError(await call(key, GENERATE, 2), 402)).toMatch(/mcp_problem_generations/);
    // Methods that are not tool calls still work for a workspace past its allowances.
    expect((await postMcp(service, request('ping'), { 'x-api-key': key })).status).toBe(200);
  });

  it('keeps the allowance per workspace', async () => {
    const spent = await createApiKey(service, 'free');
    for (let i = 0; i < 2; i += 1) expect((await call(spent, EXECUTE)).status).toBe(200);
    expect((await call(spent, EXECUTE)).status).toBe(402);
    const fresh = await createApiKey(service, 'free');
    expect((await call(fresh, EXECUTE)).status).toBe(200);
    expect((await usage(fresh)).counters.mcp_code_executions.used).toBe(1);
  });
});
