// The conformance corpus through an api node in front of a runner node: the same verdicts as the single node.
import { afterAll, beforeAll, it } from 'vitest';
import type { ApiNode, RunnerNode } from '../../src/service.js';
import { expectConformance } from '../corpus/conformance.js';
import { startApi, startRunner } from './support.js';

let runner: RunnerNode;
let api: ApiNode;

beforeAll(async () => {
  runner = await startRunner({ POOL_MIN_PYTHON: '4', POOL_MIN_NODE: '4', POOL_REFILL_CONCURRENCY: '4' });
  api = await startApi(runner.url);
});
afterAll(async () => {
  await api?.close();
  await runner?.close();
});

it('passes every positive and fails every negative of the HumanEval corpus through an api node', async () => {
  await expectConformance(api.url);
}, 600_000);
