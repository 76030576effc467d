import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { leftoverContainers, startTestService } from '../support/service.js';

const checker = path.resolve(import.meta.dirname, '../../../shared/corpus/check.mjs');
let service: Service;

beforeAll(async () => {
  service = await startTestService({ POOL_MIN_PYTHON: '4', POOL_MIN_NODE: '4', POOL_REFILL_CONCURRENCY: '4' });
});
afterAll(async () => {
  await service?.close();
});

it('passes every positive and fails every negative of the HumanEval conformance corpus', async () => {
  expect(existsSync(checker), `conformance checker expected at ${checker}`).toBe(true);
  const child = spawn(process.execPath, [checker, '--base', service.url, '--lang', 'all', '--concurrency', '6'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const summary = output.trim().split('\n').at(-1) ?? '';
  expect(summary).toMatch(/^942 passed, 0 failed$/);
  expect(code).toBe(0);
  await service.close();
  expect(await leftoverContainers(service)).toBe(0);
}, 600_000);
