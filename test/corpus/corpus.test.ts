import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { leftoverContainers, startTestService } from '../support/service.js';
import { expectConformance } from './conformance.js';

let service: Service;

beforeAll(async () => {
  service = await startTestService({ POOL_MIN_PYTHON: '4', POOL_MIN_NODE: '4', POOL_REFILL_CONCURRENCY: '4' });
});
afterAll(async () => {
  await service?.close();
});

it('passes every positive and fails every negative of the HumanEval conformance corpus', async () => {
  await expectConformance(service.url);
  await service.close();
  expect(await leftoverContainers(service)).toBe(0);
}, 600_000);
