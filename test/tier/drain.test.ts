// Runner and api nodes as processes (built dist/, as `npm start` runs them): graceful drain on SIGTERM, and a runner node killed mid-job.
import Docker from 'dockerode';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';
import { post, TOKEN } from './support.js';

beforeAll(buildServiceOnce);
watchServiceProcesses();

const docker = new Docker({ socketPath: '/var/run/docker.sock' });
const containersOf = async (node: ServiceProcess) =>
  (await docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${node.env.SANDBOX_INSTANCE}`] } })).length;

const napping = (seconds: number) => ({
  language: 'python',
  code: `import time\ndef nap():\n    time.sleep(${seconds})\n    return 1\n`,
  testCases: [{ args: {}, expected: 1 }],
});

async function tier(): Promise<{ runner: ServiceProcess; api: ServiceProcess }> {
  const runner = await ServiceProcess.start('runner', { SERVICE_ROLE: 'runner', RUNNER_TOKEN: TOKEN, POOL_MIN_PYTHON: '1' });
  const api = await ServiceProcess.start('api', {
    SERVICE_ROLE: 'api',
    RUNNER_TOKEN: TOKEN,
    RUNNER_URL: runner.url,
    ADMIN_ENDPOINT: 'false',
  });
  return { runner, api };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM', () => {
  it('on a runner node: not ready at once, no new job, the one in flight finishes, containers removed, exit 0', async () => {
    const { runner, api } = await tier();
    expect((await fetch(`${runner.url}/readyz`)).status).toBe(200);
    const inFlight = post(`${api.url}/api/v1/code/execute`, napping(2));
    await pause(700);
    const exited = runner.kill('SIGTERM');
    await pause(100);
    const ready = await fetch(`${runner.url}/readyz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(ready).not.toBe(200);
    // A new execution is not started on the draining node: 503 (it refused the job) or 502 (no runner node left behind RUNNER_URL).
    const late = await post(`${api.url}/api/v1/code/execute`, napping(0));
    expect([502, 503], late.text).toContain(late.status);
    const answer = await inFlight;
    expect(answer.status, answer.text).toBe(200);
    expect(JSON.parse(answer.text).results[0]).toMatchObject({ passed: true });
    expect((await exited).code).toBe(0);
    expect(runner.output()).toContain('stopped; all sandbox containers removed');
    expect(await containersOf(runner)).toBe(0);
  }, 120_000);

  it('on an api node: the execution in flight on the runner node finishes, then it exits 0', async () => {
    const { runner, api } = await tier();
    const inFlight = post(`${api.url}/api/v1/code/execute`, napping(2));
    await pause(700);
    const exited = api.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status, answer.text).toBe(200);
    expect((await exited).code).toBe(0);
    expect((await fetch(`${runner.url}/readyz`)).status).toBe(200);
    // stopped as it should be, so that its warm container goes too
    expect((await runner.kill('SIGTERM')).code).toBe(0);
    expect(await containersOf(runner)).toBe(0);
  }, 120_000);
});

describe('a runner node killed mid-job', () => {
  it('gives 502 naming the hop, not a retry elsewhere; its replacement removes the orphaned container at start', async () => {
    const { runner, api } = await tier();
    const inFlight = post(`${api.url}/api/v1/code/execute`, napping(5));
    await pause(1500);
    await runner.kill('SIGKILL');
    const answer = await inFlight;
    expect(answer.status, answer.text).toBe(502);
    expect(JSON.parse(answer.text).error).toMatch(/^code runner failed at runner: /);
    expect(await containersOf(runner)).toBeGreaterThan(0);
    const replacement = await ServiceProcess.start('replacement', { ...runner.env, PORT: '0' });
    await replacement.kill('SIGTERM');
    expect(await containersOf(runner)).toBe(0);
    await api.kill('SIGTERM');
  }, 120_000);
});
