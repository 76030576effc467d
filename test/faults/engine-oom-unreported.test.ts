// An engine that is not told of an OOM kill (gVisor's, or an event that comes after the exit, issue
// 13's runsc soak): the container's own cgroup, which the service keeps around the engine's, still
// tells the memory limit from any other SIGKILL. A proxy in front of the real Docker socket answers
// every inspect with `OOMKilled: false`.
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute } from '../support/service.js';
import { RefusingDockerProxy } from './engine-refusal-proxy.js';
import { startRefusalService } from './engine-refusal-scenario.js';

const cases = [1, 2, 3].map((x) => ({ args: { x }, expected: x }));
const bomb =
  'def f(x):\n    if x == 2:\n        blocks = []\n        while True:\n            blocks.append(bytearray(1 << 20))\n    return x\n';

describe.each(['runc', 'runsc'])('under %s', (runtime) => {
  const proxy = new RefusingDockerProxy();
  let service: Service | undefined;

  beforeAll(async () => {
    await proxy.up();
    proxy.hideOomKills();
    service = await startRefusalService({ DOCKER_SOCKET: proxy.path, SANDBOX_RUNTIME: runtime });
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
});
