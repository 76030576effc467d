// Executions wait in one line per caller, served in turn, and never wait longer than QUEUE_WAIT_MS.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { createApiKey } from '../mcp/keys.js';
import { execute, startTestService } from '../support/service.js';

let service: Service;
beforeAll(async () => {
  service = await startTestService({ CONCURRENCY: '2', QUEUE_WAIT_MS: '4000' });
});
afterAll(async () => {
  await service?.close();
});

const sleeper = (seconds: number) => ({
  language: 'python',
  code: `import time\ndef nap():\n    time.sleep(${seconds})\n    return 1\n`,
  testCases: [{ args: {}, expected: 1 }],
});

it("one caller's backlog of long jobs delays another caller by one job, and what cannot start in time gets 503", async () => {
  const [flooder, victim] = [await createApiKey(service), await createApiKey(service)];
  const sent = Date.now();
  const flood = Array.from({ length: 8 }, () =>
    execute(service, sleeper(3), { 'x-api-key': flooder }).then((reply) => ({ reply, at: Date.now() - sent })),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  const victimSent = Date.now();
  const victimReply = await execute(service, sleeper(0), { 'x-api-key': victim });
  const victimWaited = Date.now() - victimSent;
  const flooded = await Promise.all(flood);
  const summary = JSON.stringify(flooded.map(({ reply, at }) => [reply.status, at]));

  // Served in turn it starts when the first of the flooder's jobs ends (about 3 s); in one line it would wait for 8 of them (12 s).
  expect(victimReply.status, JSON.stringify(victimReply.body)).toBe(200);
  expect(victimWaited, `the victim waited ${victimWaited} ms; the flood answered ${summary}`).toBeLessThan(7_000);

  // Two slots, 3 s jobs and a 4 s longest wait: some of the flood ran, the rest was refused with Retry-After rather than run late.
  const refused = flooded.filter(({ reply }) => reply.status === 503);
  expect(flooded.filter(({ reply }) => reply.status === 200).length, summary).toBeGreaterThanOrEqual(2);
  expect(refused.length, summary).toBeGreaterThanOrEqual(2);
  for (const { reply, at } of refused) {
    expect(reply.headers.get('retry-after'), summary).toBe('4');
    expect(at, summary).toBeLessThan(4_000 + 2_000);
  }
  // No answer comes later than the run's budget, counted from arrival.
  for (const { at } of flooded) expect(at, summary).toBeLessThan(15_000 + 2_000);
});
