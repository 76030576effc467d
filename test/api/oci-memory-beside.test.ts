// Memory bombs beside correct executions under the oci driver (soak finding, session 7): a correct
// TypeScript request was answered 502 "out of memory" because the sandbox judged by the host's OOM
// counter, which the bombs beside it raised. Each sandbox now judges by its own cgroup.
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { withSlots } from '../attacks/support.js';
import { execute, startTestService, type ExecuteReply } from '../support/service.js';

/** Shared with the other oci-driver test files, so the runner images are unpacked once. */
const ROOTFS_DIR = path.join(os.tmpdir(), 'code-runner-oci-rootfs');
const ROUNDS = 3;
// Under crun the container's own cgroup tells an OOM kill apart (test/attacks/memory.test.ts also allows
// the bare exit code, for runtimes that cannot).
const MEMORY_KILL = /^memory limit exceeded \(256 MB\)$/;
const cases = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));
const requests = {
  pythonBomb: { language: 'python', code: 'def f(x):\n    blocks = []\n    while True:\n        blocks.append(bytearray(1 << 20))\n' },
  javascriptBomb: { language: 'javascript', code: 'function f(x) { const blocks = []; for (;;) blocks.push(Buffer.alloc(1 << 20, 1)); }' },
  python: { language: 'python', code: 'def f(x):\n    return x\n' },
  typescript: { language: 'typescript', code: 'function f(x: number): number { return x; }' },
};
let service: Service;

beforeAll(async () => {
  service = await startTestService({ SANDBOX_DRIVER: 'oci', SANDBOX_RUNTIME: 'crun', SANDBOX_ROOTFS_DIR: ROOTFS_DIR, CONCURRENCY: '4' });
}, 180_000);
afterAll(async () => {
  await service?.close();
});

it('answers correct executions as passed while memory bombs run beside them, and the bombs with the memory error', async () => {
  const names = Object.keys(requests) as Array<keyof typeof requests>;
  const rounds: Array<Record<keyof typeof requests, ExecuteReply>> = [];
  await withSlots(names.length, async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      const replies = await Promise.all(names.map((name) => execute(service, { ...requests[name], testCases: cases })));
      rounds.push(Object.fromEntries(names.map((name, i) => [name, replies[i]])) as Record<keyof typeof requests, ExecuteReply>);
    }
  });
  const summary = JSON.stringify(
    rounds.map((replies) => Object.fromEntries(Object.entries(replies).map(([name, reply]) => [name, [reply.status, reply.body]]))),
  );
  console.log(
    `bombs' errors: ${rounds.map((replies) => `${replies.pythonBomb.body.results?.[0].error} / ${replies.javascriptBomb.body.results?.[0].error}`).join('; ')}`,
  );
  for (const replies of rounds) {
    for (const name of ['python', 'typescript'] as const) {
      expect(replies[name].status, `${name}: ${summary}`).toBe(200);
      expect(
        replies[name].body.results?.map((r) => r.passed),
        `${name}: ${summary}`,
      ).toEqual([true, true, true]);
    }
    for (const name of ['pythonBomb', 'javascriptBomb'] as const) {
      expect(replies[name].status, `${name}: ${summary}`).toBe(200);
      expect(replies[name].body.results?.[0].error, `${name}: ${summary}`).toMatch(MEMORY_KILL);
    }
  }
}, 120_000);
