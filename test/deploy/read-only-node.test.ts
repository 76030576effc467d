import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { INTERNAL_PATHS } from '../../src/tier/protocol.js';
import { buildServiceOnce } from '../support/build-once.js';
import { SERVICE_ARGS } from '../support/build-service.js';
import { docker } from './support/docker-cli.js';

// No base image can be pulled here, so the service image itself cannot be built. This test runs the
// built service (dist/) as a runner node in a stand-in of its final stage instead (the local runner
// image as base, this machine's node, the `node` user with uid 1000 and /data owned by it, as in the
// Dockerfile), with exactly runner1's settings from deploy/compose.yaml: its environment, read-only
// root, tmpfs mounts, every capability dropped, no new privileges, only the Docker socket's group added.
const root = path.resolve(import.meta.dirname, '../..');
const tag = `code-runner-standin:test-${randomBytes(4).toString('hex')}`;
const instance = `test-${randomBytes(4).toString('hex')}`;
let container = '';
let url = '';

const logs = async () => (container ? docker('logs', '--tail', '100', container).catch((error: Error) => error.message) : '');

async function ready(deadline: number): Promise<void> {
  for (;;) {
    const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
    if (answer?.ok) return;
    if (Date.now() > deadline) throw new Error(`the containerised service never became ready; its output:\n${await logs()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

interface RunnerService {
  read_only: boolean;
  cap_drop: string[];
  security_opt: string[];
  tmpfs: string[];
  environment: Record<string, string>;
}
const token = randomBytes(32).toString('hex');

beforeAll(async () => {
  await buildServiceOnce();
  const runner = (parse(readFileSync('deploy/compose.yaml', 'utf8'), { merge: true }) as { services: Record<string, RunnerService> })
    .services.runner1;
  expect(runner).toMatchObject({ read_only: true, cap_drop: ['ALL'], security_opt: ['no-new-privileges:true'] });
  const context = mkdtempSync(path.join(os.tmpdir(), 'standin-'));
  try {
    copyFileSync(process.execPath, path.join(context, 'node'));
    writeFileSync(
      path.join(context, 'Dockerfile'),
      [
        `FROM ${process.env.NODE_IMAGE ?? 'code-runner-node:latest'}`,
        'USER root',
        'COPY node /usr/local/bin/node',
        'RUN (id -u node >/dev/null 2>&1 || useradd -u 1000 -U -M node) && mkdir -p /data && chown node:node /data',
        'USER node',
        'WORKDIR /app',
        'ENTRYPOINT []',
      ].join('\n'),
    );
    await docker('build', '-q', '-t', tag, context);
  } finally {
    rmSync(context, { recursive: true, force: true });
  }
  const socketGroup = String(statSync('/var/run/docker.sock').gid);
  container = await docker(
    'run',
    '-d',
    '--read-only',
    '--cap-drop',
    runner.cap_drop[0],
    '--security-opt',
    runner.security_opt[0],
    '--group-add',
    socketGroup,
    ...runner.tmpfs.flatMap((mount) => ['--tmpfs', mount]),
    ...Object.entries({ ...runner.environment, RUNNER_TOKEN: token, SANDBOX_INSTANCE: instance, PORT: '8080', DATA_DIR: '/data' }).flatMap(
      ([k, v]) => ['-e', `${k}=${v}`],
    ),
    '-e',
    'POOL_MIN_PYTHON=0',
    '-e',
    'POOL_MIN_NODE=0',
    '-v',
    '/var/run/docker.sock:/var/run/docker.sock',
    '-v',
    `${root}:/app:ro`,
    '-p',
    '127.0.0.1::8080',
    tag,
    'node',
    ...SERVICE_ARGS,
  );
  url = `http://${(await docker('port', container, '8080/tcp')).split('\n')[0]}`;
  await ready(Date.now() + 60_000);
}, 300_000);

afterAll(async () => {
  // SIGTERM first: the service removes its sandboxes on the way out.
  if (container) await docker('stop', '-t', '20', container).catch(() => '');
  if (container) await docker('rm', '-f', container).catch(() => '');
  await docker('image', 'rm', '-f', tag).catch(() => '');
  const left = await docker('ps', '-aq', '--filter', `label=code-runner.sandbox=${instance}`);
  if (left) await docker('rm', '-f', ...left.split('\n'));
});

describe('a runner node in a read-only, unprivileged container, as compose runs it', () => {
  it('runs as uid 1000 with no capability and cannot write outside its tmpfs', async () => {
    const probe = await docker(
      'exec',
      container,
      'sh',
      '-c',
      'id -u; grep CapEff /proc/1/status; touch /app/x /x 2>&1 || true; touch /data/x /tmp/x && echo writable',
    );
    const [uid, capabilities, ...rest] = probe.split('\n');
    expect(uid).toBe('1000');
    expect(capabilities).toMatch(/^CapEff:\s+0+$/);
    expect(rest.join('\n'), probe).toMatch(/Read-only file system[\s\S]*Read-only file system[\s\S]*writable/);
    expect(await docker('exec', container, 'sh', '-c', 'printenv SERVICE_ROLE')).toBe('runner');
  });

  it('runs an execution for an api node in a sandbox, through the host’s Docker socket', async () => {
    const answer = await fetch(`${url}${INTERNAL_PATHS.execute}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        language: 'python',
        functionName: 'add',
        code: 'def add(a, b):\n    return a + b\n',
        testCases: [{ args: { a: 1, b: 2 }, expected: 3 }],
      }),
    });
    const body = await answer.text();
    expect(answer.status, `${body}\n${await logs()}`).toBe(200);
    expect((JSON.parse(body) as { results: Array<{ passed: boolean }> }).results[0].passed).toBe(true);
  });
});
