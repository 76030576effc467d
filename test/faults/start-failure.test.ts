import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { labelledContainers } from '../support/containers.js';
import { isolatedEnv, startTestService } from '../support/service.js';

let taken: Server;
let port: number;

beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

it('a start on a taken port says so and leaves no container, lock or admin endpoint behind', async () => {
  const env: Record<string, string> = { ...isolatedEnv(), PORT: String(port), ADMIN_ENDPOINT: 'true' };
  await expect(startTestService(env)).rejects.toThrow(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken by another process`));
  const left = await labelledContainers(env.SANDBOX_INSTANCE);
  expect(left.map((c) => `${c.Id.slice(0, 12)} ${c.State}`)).toEqual([]);
  // The data folder's lock and the database were released: the same folder starts at once on a free port.
  const service = await startTestService({ ...env, PORT: '0' });
  await service.close();
});
