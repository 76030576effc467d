// A Docker engine that refuses to kill or remove containers (issue 13): the service keeps answering,
// keeps every container it could not remove in its budget, and removes them while it runs once the
// engine accepts again. The refusal comes from a proxy in front of the real Docker socket.
import Docker from 'dockerode';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it, onTestFailed } from 'vitest';
import { SANDBOX_LABEL } from '../../src/core/sandbox/container-spec.js';
import { DockerEngine } from '../../src/core/sandbox/engine.js';
import type { Service } from '../../src/service.js';
import { containerCgroups, instanceCgroupDir } from '../support/cgroups.js';
import { labelledContainers } from '../support/containers.js';
import { RefusingDockerProxy } from './engine-refusal-proxy.js';
import { refusalScenario, startRefusalService, SWEEP_INTERVAL_MS, type RefusalFigures } from './engine-refusal-scenario.js';

const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const proxy = new RefusingDockerProxy();
let service: Service | undefined;
const LIMITS = { memoryMb: 128, cpus: 1, pids: 64, tmpfsMb: 16, nofile: 256, fsizeMb: 8 };

beforeAll(async () => {
  await proxy.up();
  service = await startRefusalService({ DOCKER_SOCKET: proxy.path });
});
afterAll(async () => {
  proxy.accept();
  const instance = service?.config.SANDBOX_INSTANCE;
  await service?.close();
  await proxy.down();
  if (instance) expect(await labelledContainers(instance), 'containers left after close').toHaveLength(0);
  if (instance) expect(existsSync(instanceCgroupDir(instance)), 'cgroups left after close').toBe(false);
});

it('answers as usual while kill and remove are refused, keeps the budget exact, and sweeps the leftovers once the engine accepts', async () => {
  const figures: RefusalFigures = { sweptMs: -1, answersMs: [] };
  const fault = {
    refuse: () => proxy.refuse('kill', 'remove'),
    accept: () => proxy.accept(),
    refused: () => ({ ...proxy.refusedCount }),
    log: () => proxy.log(),
  };
  // Docker keeps an exited container until it is removed: all three retired containers are refused their removal.
  await refusalScenario(service!, fault, async () => (await labelledContainers(service!.config.SANDBOX_INSTANCE)).length, 3, figures);
  console.log(`docker: answers in ${figures.answersMs.join(', ')} ms; leftovers swept ${figures.sweptMs} ms after the engine accepted`);
}, 150_000);

it("sweeps the instance's containers that no sandbox holds, leaves held ones, and retries a refused sweep with backoff", async () => {
  const instance = `${service!.config.SANDBOX_INSTANCE}-sweep`;
  const errors: string[] = [];
  const { PYTHON_IMAGE, NODE_IMAGE } = service!.config;
  const engine = await DockerEngine.start(
    new Docker({ socketPath: proxy.path }),
    { images: { python: PYTHON_IMAGE, node: NODE_IMAGE }, instance, limits: LIMITS, sweepIntervalMs: 1_000 },
    'runc',
    (error) => errors.push(`${new Date().toISOString()} ${error.message}`),
  );
  onTestFailed(() => console.error(`sweep errors:\n${errors.join('\n')}\n--- proxy log\n${proxy.log()}`));
  try {
    const [retired, held] = await Promise.all([engine.startSandbox('python'), engine.startSandbox('python')]);
    await Promise.all([retired.ready, held.ready]);
    // What a start cut short leaves: a labelled container that no sandbox is.
    const orphan = await docker.createContainer({ Image: PYTHON_IMAGE, Labels: { [SANDBOX_LABEL]: instance } });
    proxy.refuse('remove');
    await expect(retired.dispose(), 'the refused removal says its stage').rejects.toThrow(/^remove: /);
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(errors.length, 'the refused sweeps were logged').toBeGreaterThanOrEqual(2);
    expect(errors.every((line) => / remove: sweep: 2 of 2 leftover containers not removed/.test(line))).toBe(true);
    expect((await labelledContainers(instance)).map((c) => c.Id).sort()).toEqual([retired.id, held.id, orphan.id].sort());
    expect(retired.cgroup && held.cgroup, 'each sandbox has a cgroup of the service around its own').toBeDefined();
    expect(containerCgroups(instance), 'a cgroup whose container the engine would not remove stays').toEqual(
      [retired.cgroup?.name, held.cgroup?.name].sort(),
    );

    proxy.accept();
    const acceptedAt = Date.now();
    while (
      ((await labelledContainers(instance)).length > 1 || containerCgroups(instance).length > 1) &&
      Date.now() - acceptedAt < SWEEP_INTERVAL_MS + 2_000
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const sweptMs = Date.now() - acceptedAt;
    expect(
      (await labelledContainers(instance)).map((c) => c.Id),
      'only the held container is left',
    ).toEqual([held.id]);
    expect(held.isAlive, 'the held container was not touched').toBe(true);
    expect(containerCgroups(instance), "the sweep removed the retired container's cgroup with it").toEqual([held.cgroup?.name]);
    await retired.dispose();
    console.log(`docker engine sweep: ${errors.length} refused sweeps logged; leftovers removed ${sweptMs} ms after the engine accepted`);
  } finally {
    proxy.accept();
    await engine.removeAll();
  }
  expect(existsSync(instanceCgroupDir(instance)), "removeAll removes the instance's cgroup").toBe(false);
}, 60_000);
