import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService, type Service } from '../../src/service.js';
import { labelledContainers } from './containers.js';

/**
 * Settings every service a test starts needs: its own data folder and container label, and an
 * anonymous rate limit that a test's burst of executions from one IP stays under.
 */
export function isolatedEnv(): Record<string, string> {
  return {
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'code-runner-test-')),
    SANDBOX_INSTANCE: `test-${randomBytes(4).toString('hex')}`,
    RATE_LIMIT_ANONYMOUS: '1000000',
  };
}

/** Starts the real service (real Docker engine and storage) on a free loopback port; close() also removes its data folder. */
export async function startTestService(env: Record<string, string> = {}): Promise<Service> {
  const isolated = { ...isolatedEnv(), ...env };
  const service = await startService({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    POOL_MIN_PYTHON: '1',
    POOL_MIN_NODE: '1',
    ADMIN_ENDPOINT: 'false',
    ...isolated,
  });
  const close = service.close;
  return {
    ...service,
    close: async () => {
      await close();
      rmSync(isolated.DATA_DIR, { recursive: true, force: true });
    },
  };
}

export interface ExecuteReply {
  status: number;
  body: Record<string, unknown> & { results?: Array<Record<string, unknown>>; error?: string };
  headers: Headers;
}

/** An answer of the execute endpoint as it came, its body not yet decoded (parseExecuteReply). */
export interface RawExecuteReply {
  status: number;
  bytes: Buffer;
  headers: Headers;
}

/**
 * POSTs a body to the execute endpoint (a string body is sent byte for byte) and keeps the answer's
 * bytes: a test that measures the event loop of a service in its own process decodes a large answer
 * after measuring, since a client elsewhere would not parse it on the service's thread.
 */
export async function sendExecute(service: Service, body: unknown, headers: Record<string, string> = {}): Promise<RawExecuteReply> {
  const response = await fetch(`${service.url}/api/v1/code/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()), headers: response.headers };
}

export function parseExecuteReply(raw: RawExecuteReply): ExecuteReply {
  const text = raw.bytes.toString('utf8');
  return { status: raw.status, body: text ? JSON.parse(text) : {}, headers: raw.headers };
}

/** POSTs a body to the execute endpoint; a string body is sent byte for byte. */
export async function execute(service: Service, body: unknown, headers: Record<string, string> = {}): Promise<ExecuteReply> {
  return parseExecuteReply(await sendExecute(service, body, headers));
}

/** Containers of this service's instance still present on the engine. */
export async function leftoverContainers(service: Service): Promise<number> {
  return (await labelledContainers(service.config.SANDBOX_INSTANCE, service.config.DOCKER_SOCKET)).length;
}
