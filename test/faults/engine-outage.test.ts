import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { labelledContainers } from '../support/containers.js';
import { execute, startTestService } from '../support/service.js';
import { SocketProxy } from '../support/socket-proxy.js';

const proxy = new SocketProxy();
let service: Service;
const job = (x: number) => ({
  language: 'python',
  code: 'import time\ndef f(x):\n    time.sleep(0.5)\n    return x\n',
  testCases: [{ args: { x }, expected: x }],
});

beforeAll(async () => {
  await proxy.up();
  service = await startTestService({ DOCKER_SOCKET: proxy.path, POOL_MIN_PYTHON: '2', POOL_MIN_NODE: '0' });
});
afterAll(async () => {
  await proxy.down();
  await proxy.up();
  await service?.close();
  await proxy.down();
});

it('fails in-flight requests with 502 while the engine is gone, recovers when it is back, and does not crash', async () => {
  // Two requests run in warm containers when the engine goes (its wait answers then never come),
  // the third is still waiting for a container to start.
  for (let i = 0; i < 100 && service.runner.stats().pools.python.ready < 2; i += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(service.runner.stats().pools.python.ready).toBe(2);
  const inFlight = Promise.all([1, 2, 3].map((x) => execute(service, job(x))));
  await new Promise((resolve) => setTimeout(resolve, 200));
  await proxy.down();
  const during = await inFlight;
  for (const reply of during) {
    expect(reply.status).toBe(502);
    if (reply.status === 502) expect(reply.body.error).toMatch(/code runner failed at/);
  }
  expect(during.some((reply) => reply.status === 502)).toBe(true);

  const whileDown = await execute(service, job(4));
  expect(whileDown.status).toBe(502);
  expect(whileDown.body.error).toMatch(/engine|unreachable|ENOENT|ECONNREFUSED/i);
  expect((await fetch(`${service.url}/readyz`)).status).toBe(503);
  expect((await fetch(`${service.url}/healthz`)).status).toBe(200);

  await proxy.up();
  let recovered = 0;
  for (let attempt = 0; attempt < 40 && recovered === 0; attempt += 1) {
    const reply = await execute(service, job(5));
    if (reply.status === 200 && reply.body.results?.[0].passed) recovered += 1;
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(recovered).toBe(1);
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
}, 60_000);

it('removes the containers the outage stranded once it can reach the engine again', async () => {
  await service.close();
  const left = await labelledContainers(service.config.SANDBOX_INSTANCE);
  expect(left).toHaveLength(0);
});
