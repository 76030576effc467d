import { randomBytes } from 'node:crypto';
import { startService, type Service } from '../../src/service.js';

/** Starts the real service (real Docker engine) on a free loopback port, with its own container label. */
export async function startTestService(env: Record<string, string> = {}): Promise<Service> {
  return startService({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SANDBOX_INSTANCE: `test-${randomBytes(4).toString('hex')}`,
    POOL_MIN_PYTHON: '1',
    POOL_MIN_NODE: '1',
    ...env,
  });
}

export interface ExecuteReply { status: number; body: Record<string, unknown> & { results?: Array<Record<string, unknown>>; error?: string }; headers: Headers }

/** POSTs a body to the execute endpoint; a string body is sent byte for byte. */
export async function execute(service: Service, body: unknown, headers: Record<string, string> = {}): Promise<ExecuteReply> {
  const response = await fetch(`${service.url}/api/v1/code/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
}

/** Containers of this service's instance still present on the engine. */
export async function leftoverContainers(service: Service): Promise<number> {
  const { default: Docker } = await import('dockerode');
  const docker = new Docker({ socketPath: service.config.DOCKER_SOCKET });
  const list = await docker.listContainers({ all: true, filters: { label: [`code-runner.sandbox=${service.config.SANDBOX_INSTANCE}`] } });
  return list.length;
}
