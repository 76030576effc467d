import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import Docker from 'dockerode';
import { beforeAll, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { SERVICE_ARGS } from '../support/build-service.js';
import { isolatedEnv } from '../support/service.js';

beforeAll(buildServiceOnce);

it('finishes or cleanly fails in-flight requests on SIGTERM and removes every container', async () => {
  const instance = `sigterm-${randomBytes(4).toString('hex')}`;
  const isolated = isolatedEnv();
  const port = 20000 + Math.floor(Math.random() * 20000);
  // the built service, as `npm start` runs it
  const child = spawn(process.execPath, SERVICE_ARGS, {
    env: { ...process.env, ...isolated, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SANDBOX_INSTANCE: instance },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${port}`;
  // Start-up creates the embedded database and warms the pool; on a loaded machine that can take a while.
  let up = false;
  for (let i = 0; i < 600 && !up && child.exitCode === null; i += 1) {
    up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!up) await new Promise((r) => setTimeout(r, 100));
  }
  expect(up, 'the service came up').toBe(true);

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
  child.kill('SIGTERM');
  const replies = await Promise.all(requests);
  const code = await new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
  );

  expect(code).toBe(0);
  for (const reply of replies) {
    // Accepted requests finish; any that arrive after the listener closed are refused (503 or a closed connection).
    expect([200, 503, 0]).toContain(reply.status);
    if (reply.status === 200) expect(reply.body.results?.[0].passed).toBe(true);
  }
  expect(replies.filter((r) => r.status === 200).length).toBeGreaterThan(0);
  const docker = new Docker({ socketPath: '/var/run/docker.sock' });
  expect(await docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${instance}`] } })).toHaveLength(0);
  rmSync(isolated.DATA_DIR, { recursive: true, force: true });
}, 120_000);
