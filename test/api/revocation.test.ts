// Revoking a key ends the in-flight requests that use it: the contract's "in-flight requests using it get 401".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { createApiKey } from '../mcp/keys.js';
import { postMcp, request } from '../mcp/support.js';
import { execute, startTestService } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.close();
});

const SLEEPER = {
  language: 'python',
  code: 'import time\ndef nap():\n    time.sleep(12)\n    return 1\n',
  testCases: [{ args: {}, expected: 1 }],
};

async function workspaceOf(key: string): Promise<string> {
  const usage = (await (await fetch(`${service.url}/api/v1/usage`, { headers: { 'x-api-key': key } })).json()) as {
    data: { workspace: string };
  };
  return usage.data.workspace;
}

/** The key's id, from the CLI's listing: a key a line, its id first and its last four characters shown. */
async function keyIdOf(key: string): Promise<string> {
  const listing = await service.platform.admin({ command: 'key.list', workspace: await workspaceOf(key) });
  const line = listing.split('\n').find((entry) => entry.includes(`…${key.slice(-4)}`));
  expect(line, listing).toBeDefined();
  return line!.split('\t')[0];
}

async function revokeSoon(key: string, afterMs: number): Promise<number> {
  const id = await keyIdOf(key);
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  await service.platform.admin({ command: 'key.revoke', id });
  return Date.now();
}

describe('revoking a key', () => {
  it('stops a running execution made with it: 401 within a second, not its 12 s later', async () => {
    const key = await createApiKey(service);
    const [reply, revokedAt] = await Promise.all([execute(service, SLEEPER, { 'x-api-key': key }), revokeSoon(key, 1500)]);
    const answeredAfter = Date.now() - revokedAt;
    expect(reply.status, JSON.stringify(reply.body)).toBe(401);
    expect(reply.body.error).toMatch(/revoked/);
    expect(answeredAfter).toBeLessThan(1000);
    // The next request with the key is refused at the door.
    expect((await execute(service, SLEEPER, { 'x-api-key': key })).status).toBe(401);
  });

  it('stops an MCP execute_code call made with it, and meters nothing', async () => {
    const key = await createApiKey(service);
    const workspace = await workspaceOf(key);
    const other = (await service.platform.admin({ command: 'key.create', workspace, scopes: 'all' })).trim().split('\n').at(-1)!;
    const call = postMcp(service, request('tools/call', { name: 'execute_code', arguments: SLEEPER }, 1), { 'x-api-key': key });
    const [reply, revokedAt] = await Promise.all([call, revokeSoon(key, 1500)]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(401);
    expect(Date.now() - revokedAt).toBeLessThan(1000);
    const usage = (await (await fetch(`${service.url}/api/v1/usage`, { headers: { 'x-api-key': other } })).json()) as {
      data: { counters: Record<string, { used: number }> };
    };
    expect(usage.data.counters.mcp_code_executions.used).toBe(0);
  });

  it('leaves the requests of other keys alone', async () => {
    const [kept, revoked] = [await createApiKey(service), await createApiKey(service)];
    const quick = {
      language: 'python',
      code: 'import time\ndef nap():\n    time.sleep(2)\n    return 1\n',
      testCases: [{ args: {}, expected: 1 }],
    };
    const [reply] = await Promise.all([execute(service, quick, { 'x-api-key': kept }), revokeSoon(revoked, 500)]);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.results?.[0]).toMatchObject({ passed: true });
  });
});
