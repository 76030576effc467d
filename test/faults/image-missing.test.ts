import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, startTestService } from '../support/service.js';

// A private tag of the Python image, so deleting it cannot disturb other test files.
const tag = `code-runner-python:fault-${randomBytes(4).toString('hex')}`;
let service: Service;
const job = { language: 'python', code: 'def f(x):\n    return x\n', testCases: [{ args: { x: 1 }, expected: 1 }] };

beforeAll(async () => {
  execFileSync('docker', ['tag', 'code-runner-python:latest', tag]);
  service = await startTestService({ PYTHON_IMAGE: tag, POOL_ENABLED: 'false' });
});
afterAll(async () => {
  await service?.close();
  execFileSync('docker', ['rmi', '-f', tag]);
});

it('answers 502 naming the missing image, fails /readyz, and recovers once the image is back', async () => {
  expect((await execute(service, job)).status).toBe(200);
  execFileSync('docker', ['rmi', tag]);

  const missing = await execute(service, job);
  expect(missing.status).toBe(502);
  expect(missing.body.error).toMatch(/image/);
  expect(missing.body.error).toContain(tag);
  const ready = await fetch(`${service.url}/readyz`);
  expect(ready.status).toBe(503);
  expect(JSON.stringify(await ready.json())).toContain(`missing: ${tag}`);

  execFileSync('docker', ['tag', 'code-runner-python:latest', tag]);
  const back = await execute(service, job);
  expect(back.status).toBe(200);
  expect(back.body.results?.[0].passed).toBe(true);
  expect((await fetch(`${service.url}/readyz`)).status).toBe(200);
});
