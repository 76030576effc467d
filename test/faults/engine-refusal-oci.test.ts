// The oci driver with a runtime that refuses to kill or delete containers (issue 13): the same
// scenario as engine-refusal-docker.test.ts, the refusal coming from a wrapper around the real crun.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { OciEngine, ociLayout } from '../../src/core/sandbox/oci/oci-engine.js';
import { findExecutable, RuntimeCli } from '../../src/core/sandbox/oci/runtime-cli.js';
import type { Service } from '../../src/service.js';
import { RefusingRuntime } from './engine-refusal-runtime.js';
import { refusalScenario, startRefusalService, SWEEP_INTERVAL_MS, type RefusalFigures } from './engine-refusal-scenario.js';

/** Shared with the other oci-driver test files, so the runner images are unpacked once. */
const ROOTFS_DIR = path.join(os.tmpdir(), 'code-runner-oci-rootfs');
const LIMITS = { memoryMb: 128, cpus: 1, pids: 64, tmpfsMb: 16, nofile: 256, fsizeMb: 8 };
const realCrun = findExecutable('crun');
const wrapper = new RefusingRuntime('crun', realCrun ?? '/usr/bin/crun');
let service: Service | undefined;

/** The containers in an instance's runtime state, as the real crun lists them. */
async function containersOf(dataDir: string, instance: string): Promise<string[]> {
  const runtime = new RuntimeCli('crun', realCrun ?? 'crun', ociLayout(dataDir, instance, ROOTFS_DIR).state);
  return (await runtime.list()).map((c) => c.id);
}

beforeAll(async () => {
  // The driver looks its runtime up on PATH when it starts: the wrapper is found first.
  process.env.PATH = wrapper.pathWithWrapper();
  service = await startRefusalService({ SANDBOX_DRIVER: 'oci', SANDBOX_RUNTIME: 'crun', SANDBOX_ROOTFS_DIR: ROOTFS_DIR });
});
afterAll(async () => {
  wrapper.accept();
  const config = service?.config;
  await service?.close();
  wrapper.remove();
  // Its data folder (with the runtime's state) is gone with it: what could survive is a runtime process naming that state.
  if (config) {
    const { state } = ociLayout(config.DATA_DIR, config.SANDBOX_INSTANCE);
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(
      processes.split('\n').filter((line) => line.includes(state)),
      'runtime processes left after close',
    ).toEqual([]);
  }
});

it('answers as usual while kill and delete are refused, keeps the budget exact, and sweeps the leftovers once the runtime accepts', async () => {
  expect(service!.runner.ociRuntime).toBe('crun');
  const figures: RefusalFigures = { sweptMs: -1, answersMs: [] };
  const { DATA_DIR, SANDBOX_INSTANCE } = service!.config;
  // `crun run` deletes a container whose harness ended on its own; only the timed-out one needs kill and delete.
  await refusalScenario(service!, wrapper, async () => (await containersOf(DATA_DIR, SANDBOX_INSTANCE)).length, 1, figures);
  console.log(`oci/crun: answers in ${figures.answersMs.join(', ')} ms; leftovers swept ${figures.sweptMs} ms after the runtime accepted`);
}, 150_000);

it("sweeps the instance's containers and bundles that no sandbox holds, leaves held ones, and retries a refused sweep", async () => {
  const { DATA_DIR, SANDBOX_INSTANCE, PYTHON_IMAGE, NODE_IMAGE } = service!.config;
  const instance = `${SANDBOX_INSTANCE}-sweep`;
  const errors: string[] = [];
  const engine = await OciEngine.start(
    new Docker({ socketPath: '/var/run/docker.sock' }),
    {
      images: { python: PYTHON_IMAGE, node: NODE_IMAGE },
      instance,
      limits: LIMITS,
      ociRuntime: 'crun',
      dataDir: DATA_DIR,
      rootfsDir: ROOTFS_DIR,
      sweepIntervalMs: 1_000,
    },
    (error) => errors.push(`${new Date().toISOString()} ${error.message}`),
  );
  const layout = ociLayout(DATA_DIR, instance, ROOTFS_DIR);
  onTestFailed(() => console.error(`sweep errors:\n${errors.join('\n')}\n--- runtime wrapper log\n${wrapper.log()}`));
  try {
    const [retired, held] = await Promise.all([engine.startSandbox('python'), engine.startSandbox('python')]);
    await Promise.all([retired.ready, held.ready]);
    // What a start cut short leaves: a bundle that no container is.
    const orphanBundle = path.join(layout.bundles, `${instance}-orphan`);
    mkdirSync(orphanBundle);
    wrapper.refuse();
    await expect(retired.dispose(), 'the refused delete says its stage').rejects.toThrow(/^remove: crun delete /);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(errors.length, 'the refused sweeps were logged').toBeGreaterThanOrEqual(2);
    expect(errors.every((line) => / remove: sweep: 1 leftover containers not deleted \(crun delete /.test(line))).toBe(true);
    expect((await containersOf(DATA_DIR, instance)).sort()).toEqual([retired.id, held.id].sort());

    wrapper.accept();
    const acceptedAt = Date.now();
    while ((await containersOf(DATA_DIR, instance)).length > 1 && Date.now() - acceptedAt < SWEEP_INTERVAL_MS + 2_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sweptMs = Date.now() - acceptedAt;
    expect(await containersOf(DATA_DIR, instance), 'only the held container is left').toEqual([held.id]);
    expect(existsSync(orphanBundle), 'the orphan bundle was removed').toBe(false);
    expect(held.isAlive, 'the held container was not touched').toBe(true);
    await retired.dispose();
    console.log(`oci engine sweep: ${errors.length} refused sweeps logged; leftovers removed ${sweptMs} ms after the runtime accepted`);
  } finally {
    wrapper.accept();
    await engine.removeAll();
  }
}, 60_000);
