// The api node's clock, overload, a stalled, refusing or lying runner tier, and key revocation across the hop.
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiNode, RunnerNode } from '../../src/service.js';
import { FaultProxy } from './fault-proxy.js';
import { keyOn, post, startApi, startRunner } from './support.js';

const API_TIMEOUT_MS = 3000;
// R1 keeps the api node's limit and runs one execution at a time with one waiting; R2's own limit is far longer than the api node's.
let r1: RunnerNode;
let r2: RunnerNode;
let proxy: FaultProxy;
let api: ApiNode;

beforeAll(async () => {
  [r1, r2] = await Promise.all([
    startRunner({ EXECUTION_TIMEOUT_MS: String(API_TIMEOUT_MS), CONCURRENCY: '1', QUEUE_LIMIT: '1' }),
    startRunner({ EXECUTION_TIMEOUT_MS: '20000' }),
  ]);
  proxy = new FaultProxy(new URL(r1.url));
  await proxy.up();
  // backstop: QUEUE_WAIT_MS 0 + 3000 ms + 1 s of slack = 4 s after arrival
  api = await startApi(proxy.url, { EXECUTION_TIMEOUT_MS: String(API_TIMEOUT_MS), QUEUE_WAIT_MS: '0' });
});
afterAll(async () => {
  await api?.close();
  await proxy?.down();
  await Promise.all([r1?.close(), r2?.close()]);
});

const execute = (body: unknown, headers: Record<string, string> = {}) => post(`${api.url}/api/v1/code/execute`, body, headers);
const SLOW_THIRD = {
  language: 'python',
  code: 'import time\ndef f(s):\n    time.sleep(s)\n    return s\n',
  testCases: [
    { args: { s: 0 }, expected: 0 },
    { args: { s: 0.1 }, expected: 0.1 },
    { args: { s: 30 }, expected: 30 },
  ],
};

interface TimedOut {
  ms: number;
  status: number;
  body: { error: string; results: Array<{ passed: boolean; error: string | null }> };
}

async function timedOutAnswer(kind: 'forward' | 'hang'): Promise<TimedOut> {
  await proxy.set({ kind });
  const started = Date.now();
  const reply = await execute(SLOW_THIRD);
  return { ms: Date.now() - started, status: reply.status, body: JSON.parse(reply.text) };
}

describe("the api node's clock", () => {
  it('answers 408 with the finished cases when the execution runs past the limit', async () => {
    const { ms, status, body } = await timedOutAnswer('forward');
    expect(status, JSON.stringify(body)).toBe(408);
    expect(body.error).toBe(`execution timed out after ${API_TIMEOUT_MS} ms`);
    expect(body.results.map((r) => [r.passed, r.error])).toEqual([
      [true, null],
      [true, null],
      [false, 'timed out'],
    ]);
    expect(ms).toBeGreaterThanOrEqual(API_TIMEOUT_MS);
    expect(ms).toBeLessThan(API_TIMEOUT_MS + 1000);
  });

  it("cuts a runner node's longer limit to its own budget, still with the finished cases", async () => {
    const direct = new FaultProxy(new URL(r2.url));
    await direct.up();
    const api2 = await startApi(direct.url, { EXECUTION_TIMEOUT_MS: String(API_TIMEOUT_MS), QUEUE_WAIT_MS: '0' });
    try {
      const started = Date.now();
      const reply = await post(`${api2.url}/api/v1/code/execute`, SLOW_THIRD);
      const ms = Date.now() - started;
      const body = JSON.parse(reply.text) as { results: Array<{ passed: boolean; error: string | null }> };
      expect(reply.status, reply.text).toBe(408);
      expect(body.results.map((r) => [r.passed, r.error])).toEqual([
        [true, null],
        [true, null],
        [false, 'timed out'],
      ]);
      // the runner node was told 4 s - 0.5 s: it answers before the api node's backstop, far before its own 20 s
      expect(ms).toBeLessThan(API_TIMEOUT_MS + 1000);
      expect(r2.runner.stats().running).toBe(0);
    } finally {
      await api2.close();
      await direct.down();
    }
  });

  it('answers 408 with every case "timed out" by its backstop when the runner tier stalls, and hangs up on it', async () => {
    const { ms, status, body } = await timedOutAnswer('hang');
    expect(status, JSON.stringify(body)).toBe(408);
    expect(body.results.map((r) => r.error)).toEqual(['timed out', 'timed out', 'timed out']);
    expect(ms).toBeGreaterThanOrEqual(API_TIMEOUT_MS + 1000 - 50);
    expect(ms).toBeLessThan(API_TIMEOUT_MS + 1500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(proxy.closedWhileHung).toBe(1);
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { runner: 'no answer within 2000 ms' } });
  });
});

describe('a runner tier that cannot take the job', () => {
  it('answers 503 with Retry-After when the runner node is overloaded, without retrying', async () => {
    await proxy.set({ kind: 'forward' });
    const running = execute({ ...SLOW_THIRD, testCases: [{ args: { s: 1.5 }, expected: 1.5 }] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const waiting = execute({ ...SLOW_THIRD, testCases: [{ args: { s: 0 }, expected: 0 }] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await execute(SLOW_THIRD);
    expect(refused.status, refused.text).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(JSON.parse(refused.text)).toEqual({ error: 'the execution queue is full; retry shortly' });
    expect([(await running).status, (await waiting).status]).toEqual([200, 200]);
  });

  it('answers 502 naming the hop when nothing listens at RUNNER_URL', async () => {
    await proxy.down();
    try {
      const reply = await execute(SLOW_THIRD);
      expect(reply.status).toBe(502);
      expect(JSON.parse(reply.text)).toEqual({ error: 'code runner failed at runner: connect ECONNREFUSED' });
      expect(await (await fetch(`${api.url}/readyz`)).json()).toEqual({ status: 'ready', checks: { runner: 'connect ECONNREFUSED' } });
    } finally {
      await proxy.up();
    }
  });

  it('answers 502 for a garbled or failed answer, and passes a runner-side sandbox failure through as the single node words it', async () => {
    const quick = { language: 'python', code: 'def f():\n    return 1\n', testCases: [{ args: {}, expected: 1 }] };
    await proxy.set({ kind: 'answer', raw: 'HTTP/1.1 200 OK\r\ncontent-length: 5\r\nconnection: close\r\n\r\nhello' });
    let reply = await execute(quick);
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.text).error).toMatch(/^code runner failed at runner: garbled answer/);
    await proxy.set({
      kind: 'answer',
      raw: 'HTTP/1.1 500 Internal Server Error\r\ncontent-length: 28\r\nconnection: close\r\n\r\n{"error":"internal error"}  ',
    });
    reply = await execute(quick);
    expect(JSON.parse(reply.text)).toEqual({ error: 'code runner failed at runner: answered 500 (internal error)' });
    const failure = '{"error":"code runner failed at create: no such image","stage":"create","detail":"no such image"}';
    await proxy.set({
      kind: 'answer',
      raw: `HTTP/1.1 502 Bad Gateway\r\ncontent-length: ${failure.length}\r\nconnection: close\r\n\r\n${failure}`,
    });
    reply = await execute(quick);
    expect(reply.status).toBe(502);
    expect(JSON.parse(reply.text)).toEqual({ error: 'code runner failed at create: no such image' });
  });

  it('sends the job again, once, when a runner node refused it because it is shutting down; never when it is busy', async () => {
    const quick = { language: 'python', code: 'def f():\n    return 1\n', testCases: [{ args: {}, expected: 1 }] };
    const closing = '{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}';
    await proxy.set({
      kind: 'answer',
      raw: `HTTP/1.1 503 Service Unavailable\r\ncontent-length: ${closing.length}\r\nconnection: close\r\n\r\n${closing}`,
    });
    const retried = await execute(quick);
    expect(retried.status, retried.text).toBe(200);
    expect(proxy.connections).toBe(2);
    const busy = '{"error":"the execution queue is full; retry shortly"}';
    await proxy.set({
      kind: 'answer',
      raw: `HTTP/1.1 503 Service Unavailable\r\nx-runner-refused: busy\r\nretry-after: 7\r\ncontent-length: ${busy.length}\r\nconnection: close\r\n\r\n${busy}`,
    });
    const refused = await execute(quick);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(proxy.connections).toBe(1);
  });
});

describe('revoking a key on the api node', () => {
  it("ends the execution on the runner node: its sandbox is killed and the runner's containers return to the pool", async () => {
    const direct = new FaultProxy(new URL(r2.url));
    await direct.up();
    const api2 = await startApi(direct.url);
    try {
      const key = await keyOn(api2, 'tier-revoke');
      const id = (await api2.platform.admin({ command: 'key.list', workspace: 'tier-revoke' }))
        .split('\n')
        .find((l) => l.includes(key.slice(-4)))!
        .split('\t')[0];
      const sleeper = {
        language: 'python',
        code: 'import time\ndef nap():\n    time.sleep(15)\n    return 1\n',
        testCases: [{ args: {}, expected: 1 }],
      };
      const reply = post(`${api2.url}/api/v1/code/execute`, sleeper, { 'x-api-key': key });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(r2.runner.stats().running).toBe(1);
      await api2.platform.admin({ command: 'key.revoke', id });
      const revokedAt = Date.now();
      const answer = await reply;
      expect(answer.status, answer.text).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(1000);
      const docker = new Docker({ socketPath: r2.config.DOCKER_SOCKET });
      const label = { label: [`code-runner.sandbox=${r2.config.SANDBOX_INSTANCE}`] };
      let settled = false;
      for (let i = 0; i < 40 && !settled; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const stats = r2.runner.stats();
        const pooled = stats.pools.python.ready + stats.pools.python.starting + stats.pools.node.ready + stats.pools.node.starting;
        const live = (await docker.listContainers({ all: true, filters: label })).length;
        settled = stats.running === 0 && stats.pools.python.inUse === 0 && live === pooled;
      }
      expect(settled, JSON.stringify(r2.runner.stats())).toBe(true);
    } finally {
      await api2.close();
      await direct.down();
    }
  });
});
