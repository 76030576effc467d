import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';
import { createApiKey, PLATFORM_PRESENT, revokeApiKey, sessionCookie } from './keys.js';
import { postMcp, request } from './support.js';

let service: Service;
beforeAll(async () => { service = await startTestService(); });
afterAll(async () => { await service?.close(); });

const run = { name: 'execute_code', arguments: { code: 'def f(x):\n    return x\n', language: 'python', testCases: [{ args: { x: 1 }, expected: 1 }] } };

describe.skipIf(!PLATFORM_PRESENT)('authentication and plan allowances', () => {
  it('answers 401 with { error } for a missing, malformed or revoked key', async () => {
    const none = await postMcp(service, request('ping'));
    expect(none.status).toBe(401);
    expect(none.body).toHaveProperty('error');
    expect((await postMcp(service, request('ping'), { 'x-api-key': 'not-a-key' })).status).toBe(401);
    expect((await postMcp(service, request('ping'), { 'x-api-key': 'svc_live_0000000000000000000000000000' })).status).toBe(401);

    const key = await createApiKey(service);
    expect((await postMcp(service, request('ping'), { 'x-api-key': key })).status).toBe(200);
    await revokeApiKey(service, key);
    expect((await postMcp(service, request('ping'), { 'x-api-key': key })).status).toBe(401);
  });

  it('rejects a session cookie without a key with 401', async () => {
    const reply = await postMcp(service, request('ping'), { cookie: await sessionCookie(service) });
    expect(reply.status).toBe(401);
    expect(reply.body).toHaveProperty('error');
  });

  it('meters successful calls per tool and answers 402 past the allowance', async () => {
    const key = { 'x-api-key': await createApiKey(service, { mcp_code_executions: 1, mcp_problem_generations: 1 }) };
    // Free methods and failed calls do not count.
    expect((await postMcp(service, request('tools/list'), key)).status).toBe(200);
    const bad = await postMcp(service, request('tools/call', { name: 'execute_code', arguments: { language: 'python' } }), key);
    expect(bad.body).toMatchObject({ result: { isError: true } });

    expect((await postMcp(service, request('tools/call', run), key)).body).toMatchObject({ result: { structuredContent: { passed: 1 } } });
    const over = await postMcp(service, request('tools/call', run), key);
    expect(over.status).toBe(402);
    expect(over.body).toHaveProperty('error');

    // Each tool has its own counter.
    expect((await postMcp(service, request('tools/call', { name: 'generate_problem', arguments: { seed: 3 } }), key)).status).toBe(200);
    expect((await postMcp(service, request('tools/call', { name: 'generate_problem', arguments: { seed: 4 } }), key)).status).toBe(402);
  });
});
