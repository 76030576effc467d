import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { listening, startNginx, type Nginx } from '../support/nginx.js';
import { ServiceProcess } from '../support/service-process.js';

const run = promisify(execFile);

/** What the api nodes and the fronts accept (the default MAX_BODY_BYTES). */
const MAX_BODY_BYTES = '1048576';

export interface Fleet {
  apiFront: Nginx;
  runnerFront: Nginx;
  api: ServiceProcess[];
  runners: ServiceProcess[];
}

const servers = (nodes: ServiceProcess[]) => nodes.map((node) => `server ${new URL(node.url).host};`).join(' ');

/**
 * The fleet of deploy/compose.yaml as processes on loopback: two runner nodes behind a runner front,
 * two api nodes (on `shared`: one PostgreSQL, one Redis...) behind the api front, each front Debian's
 * nginx serving the deploy/nginx templates. The api nodes trust the api front's X-Forwarded-For.
 */
export async function startFleet(shared: Record<string, string>): Promise<Fleet> {
  const token = randomBytes(32).toString('hex');
  const started: ServiceProcess[] = [];
  const fronts: Nginx[] = [];
  const node = async (name: string, env: Record<string, string>) => {
    const process = await ServiceProcess.start(name, env);
    started.push(process);
    return process;
  };
  try {
    const runners = await Promise.all(['runner-1', 'runner-2'].map((name) => node(name, { SERVICE_ROLE: 'runner', RUNNER_TOKEN: token })));
    const runnerFront = await startNginx('runner.conf.template', { RUNNER_SERVERS: servers(runners), MAX_BODY_BYTES });
    fronts.push(runnerFront);
    const apiSettings = { ...shared, SERVICE_ROLE: 'api', RUNNER_URL: runnerFront.url, RUNNER_TOKEN: token, TRUST_PROXY: '127.0.0.1' };
    // One after the other: the first applies the migrations.
    const api = [await node('api-1', apiSettings), await node('api-2', apiSettings)];
    const apiFront = await startNginx('api.conf.template', { API_SERVERS: servers(api), MAX_BODY_BYTES });
    return { apiFront, runnerFront, api, runners };
  } catch (error) {
    // A fleet that did not start leaves nothing running: the test never gets it to stop.
    await Promise.all([...fronts.map((front) => front.stop()), ...started.map((process) => process.kill('SIGKILL'))]);
    for (const process of started) if (process.ownDataDir) rmSync(process.env.DATA_DIR, { recursive: true, force: true });
    throw error;
  }
}

export interface Footprint {
  pids: number[];
  ports: number[];
  /** SANDBOX_INSTANCE labels of the runner nodes. */
  instances: string[];
}

/** The processes (nginx workers included), ports and sandbox labels of the fleet, to check once it is stopped. */
export async function footprintOf(fleet: Fleet): Promise<Footprint> {
  const fronts = [fleet.apiFront, fleet.runnerFront];
  const workers = await Promise.all(
    fronts.map(async (front) =>
      (await run('pgrep', ['-P', String(front.pid)]).catch(() => ({ stdout: '' }))).stdout.split('\n').filter(Boolean).map(Number),
    ),
  );
  const nodes = [...fleet.api, ...fleet.runners];
  return {
    pids: [...fronts.map((front) => front.pid), ...workers.flat(), ...nodes.map((node) => node.pid)],
    ports: [...fronts.map((front) => front.port), ...nodes.map((node) => Number(new URL(node.url).port))],
    instances: fleet.runners.map((runner) => runner.env.SANDBOX_INSTANCE),
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function containersOf(instance: string): Promise<string[]> {
  const { stdout } = await run('docker', ['ps', '-aq', '--filter', `label=code-runner.sandbox=${instance}`]);
  return stdout.split('\n').filter(Boolean);
}

/** Asserts that no process, listening port or sandbox container of the footprint is left, waiting a little for each to go. */
export async function expectNothingLeft(footprint: Footprint): Promise<void> {
  const deadline = Date.now() + 10_000;
  const leftovers = async () => ({
    processes: footprint.pids.filter(alive),
    ports: (await Promise.all(footprint.ports.map(async (port) => ((await listening(port)) ? port : 0)))).filter(Boolean),
    containers: (await Promise.all(footprint.instances.map(containersOf))).flat(),
  });
  let left = await leftovers();
  while ((left.processes.length || left.ports.length || left.containers.length) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = await leftovers();
  }
  expect(left).toEqual({ processes: [], ports: [], containers: [] });
}
