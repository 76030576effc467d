import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApiNode, startRunnerNode, type ApiNode, type RunnerNode } from '../../src/service.js';

/** The shared secret of the tier in these tests (RUNNER_TOKEN needs 32 characters or more). */
export const TOKEN = randomBytes(24).toString('hex');

function common(): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ADMIN_ENDPOINT: 'false',
    RATE_LIMIT_ANONYMOUS: '1000000',
    RUNNER_TOKEN: TOKEN,
  };
}

/** A runner node in this process, on real Docker, with its own container label and a DATA_DIR that must stay uncreated. */
export function startRunner(env: Record<string, string> = {}): Promise<RunnerNode> {
  return startRunnerNode({
    ...common(),
    SERVICE_ROLE: 'runner',
    POOL_MIN_PYTHON: '1',
    POOL_MIN_NODE: '1',
    SANDBOX_INSTANCE: `test-${randomBytes(4).toString('hex')}`,
    DATA_DIR: path.join(os.tmpdir(), `tier-runner-${randomBytes(4).toString('hex')}`),
    ...env,
  });
}

/** An api node in this process in front of `runnerUrl`, with its own data folder (removed on close) and no Docker socket at all. */
export async function startApi(runnerUrl: string, env: Record<string, string> = {}): Promise<ApiNode> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tier-api-'));
  const node = await startApiNode({
    ...common(),
    SERVICE_ROLE: 'api',
    RUNNER_URL: runnerUrl,
    DATA_DIR: dataDir,
    // nothing listens there: an api node must never need the engine
    DOCKER_SOCKET: path.join(os.tmpdir(), 'no-docker-here.sock'),
    ...env,
  });
  const close = node.close;
  return {
    ...node,
    close: async () => {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A workspace and a key with every scope on a node with a platform. */
export async function keyOn(node: Pick<ApiNode, 'platform'>, slug: string): Promise<string> {
  await node.platform.admin({ command: 'workspace.create', slug, plan: 'enterprise' });
  return (await node.platform.admin({ command: 'key.create', workspace: slug, scopes: 'all' })).trim().split('\n').at(-1)!;
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
}

/** POSTs `body` (a string goes byte for byte) and keeps the answer's exact text. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Sandbox timings differ run to run; everything else of an answer must not. */
export function withoutRuntimes(text: string): string {
  // The runtime field of each result, and the same figure in the MCP tool's text ("✓ case 1 (56ms)").
  return text.replace(/"runtime":"\d+ms"/g, '"runtime":"?ms"').replace(/\(\d+ms\)/g, '(?ms)');
}
