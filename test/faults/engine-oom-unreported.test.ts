// An engine that is not told of an OOM kill (gVisor's, or an event that comes after the exit, issue
// 13's runsc soak): the container's own cgroup, which the service keeps around the engine's, still
// tells the memory limit from any other SIGKILL. A proxy in front of the real Docker socket answers
// every inspect with `OOMKilled: false`. And each cgroup lives exactly as long as its container.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Service } from '../../src/service.js';
import { containerCgroups } from '../support/cgroups.js';
import { labelledContainers } from '../support/containers.js';
import { execute } from '../support/service.js';
import { RefusingDockerProxy } from './engine-refusal-proxy.js';
import { startRefusalService } from './engine-refusal-scenario.js';

const cases = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));
/** The instance's containers by name, and whether every one of them is running (none waits for its removal). */
async function containersOf(instance: string): Promise<{ names: string[]; allRunning: boolean }> {
  const listed = await labelledContainers(instance);
  return { names: listed.map((c) => c.Names[0].slice(1)).sort(), allRunning: listed.every((c) => c.State === 'running') };
}
const bomb =
  'def f(x):\n    if x == 2:\n        blocks = []\n        while True:\n            blocks.append(bytearray(1 << 20))\n    return x\n';

describe.each(['runc', 'runsc'])('under %s', (runtime) => {
  const proxy = new RefusingDockerProxy();
  let service: Service | undefined;

  beforeAll(async () => {
    await proxy.up();
    proxy.hideOomKills();
    // the default sweep interval, so that what the sweep would remove later shows in the last test
    service = await startRefusalService({ DOCKER_SOCKET: proxy.path, SANDBOX_RUNTIME: runtime, SANDBOX_SWEEP_INTERVAL_MS: '30000' });
  });
  afterAll(async () => {
    await service?.close();
    await proxy.down();
  });

  it('reports an OOM kill as the memory limit when the engine says none happened', async () => {
    onTestFailed(() => console.error(`--- proxy log\n${proxy.log()}`));
    const reply = await execute(service!, { language: 'python', code: bomb, testCases: cases });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.results?.map((r) => r.error)).toEqual([null, 'memory limit exceeded (256 MB)', 'memory limit exceeded (256 MB)']);
  }, 60_000);

  it('keeps a cgroup for each container it has and none for those it removed', async () => {
    const instance = service!.config.SANDBOX_INSTANCE;
    let seen = { cgroups: [] as string[], containers: { names: [] as string[], allRunning: false } };
    // the bomb's container is removed after the answer, and its cgroup after it: wait for both, far
    // less than the sweep's 30 s
    for (let i = 0; i < 50; i += 1) {
      seen = { cgroups: containerCgroups(instance), containers: await containersOf(instance) };
      if (seen.containers.allRunning && JSON.stringify(seen.cgroups) === JSON.stringify(seen.containers.names)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.containers.names.length, 'the warm pool holds containers').toBeGreaterThan(0);
    expect(seen.containers.allRunning, 'only the warm pool is left').toBe(true);
    expect(seen.cgroups).toEqual(seen.containers.names);
  }, 30_000);
});
