// The oci driver does not start the runtime to kill a harness that ends by itself after its job
// (docs/performance.md, "A finished harness is not killed"), and still kills one that never got a
// job. The runtime's kill calls are logged by a wrapper around the real crun, first on PATH.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runJob } from '../../src/core/execute/run-job.js';
import type { OciEngine } from '../../src/core/sandbox/oci/oci-engine.js';
import { findExecutable } from '../../src/core/sandbox/oci/runtime-cli.js';
import { RefusingRuntime } from '../faults/engine-refusal-runtime.js';
import { startTestOciEngine } from '../support/oci-engine.js';

const wrapper = new RefusingRuntime('crun', findExecutable('crun') ?? '/usr/bin/crun');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'oci-self-exit-'));
let engine: OciEngine;

/** The runtime's kill calls for container `id`, as the wrapper logged them. */
const killsOf = (id: string) =>
  wrapper
    .log()
    .split('\n')
    .filter((line) => line.includes(` kill ${id} `));

beforeAll(async () => {
  // The driver looks its runtime up on PATH when it starts: the wrapper is found first.
  process.env.PATH = wrapper.pathWithWrapper();
  engine = await startTestOciEngine(`selfexit-${process.pid}`, dataDir);
}, 180_000);

afterAll(async () => {
  await engine?.removeAll();
  wrapper.remove();
  rmSync(dataDir, { recursive: true, force: true });
});

it('a harness that finished its job is removed without a kill; one that never got a job is killed', async () => {
  const [finished, idle] = await Promise.all([engine.startSandbox('python'), engine.startSandbox('python')]);
  await Promise.all([finished.ready, idle.ready]);
  const report = await runJob(
    finished,
    {
      code: 'def f(x):\n    return x\n',
      filename: 'solution.py',
      target: { names: ['f'] },
      cases: [{ i: 0, args: [7], kwargs: {}, undef: [] }],
      stdoutCap: 1024,
    },
    { deadline: Date.now() + 10_000, caseTimeoutMs: undefined },
  );
  expect(report.end).toBe('done');
  expect(report.outcomes.get(0)?.value).toBe(7);
  await Promise.all([finished.dispose(), idle.dispose()]);
  expect(killsOf(finished.id), wrapper.log()).toEqual([]);
  expect(killsOf(idle.id).length, wrapper.log()).toBeGreaterThan(0);
}, 60_000);
