import { beforeAll, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { labelledContainers } from '../support/containers.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';

beforeAll(buildServiceOnce);
watchServiceProcesses();

it('finishes or cleanly fails in-flight requests on SIGTERM and removes every container', async () => {
  // With its warm pool on, as it runs by default; a failure prints the child's output (watchServiceProcesses).
  const service = await ServiceProcess.start('sigterm', { POOL_MIN_PYTHON: '2', POOL_MIN_NODE: '2' }, 120_000);
  const url = service.url;
  const instance = service.env.SANDBOX_INSTANCE;

  const body = JSON.stringify({
    language: 'python',
    code: 'import time\ndef f(x):\n    time.sleep(1)\n    return x\n',
    testCases: [{ args: { x: 1 }, expected: 1 }],
  });
  const requests = Array.from({ length: 8 }, () =>
    fetch(`${url}/api/v1/code/execute`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
      async (r) => ({ status: r.status, body: (await r.json()) as { results?: Array<{ passed: boolean }> } }),
      () => ({ status: 0, body: {} as { results?: Array<{ passed: boolean }> } }),
    ),
  );
  await new Promise((r) => setTimeout(r, 300));
  const exited = service.kill('SIGTERM');
  const replies = await Promise.all(requests);
  const { code } = await exited;

  expect(code).toBe(0);
  for (const reply of replies) {
    // Accepted requests finish; any that arrive after the listener closed are refused (503 or a closed connection).
    expect([200, 503, 0]).toContain(reply.status);
    if (reply.status === 200) expect(reply.body.results?.[0].passed).toBe(true);
  }
  expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
  expect(await labelledContainers(instance)).toHaveLength(0);
}, 180_000);
