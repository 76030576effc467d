import { beforeAll, expect, it } from 'vitest';
import { buildServiceOnce } from '../support/build-once.js';
import { ServiceProcess, watchServiceProcesses } from '../support/service-process.js';

/** The built service (`npm start`, the image) bundles the client from dist/dashboard/client, which `npm run build` copies. */

beforeAll(buildServiceOnce, 300_000);
watchServiceProcesses();

it('serves the dashboard from the built service', async () => {
  const service = await ServiceProcess.start('dashboard-built', {}, 120_000);
  const shell = await fetch(`${service.url}/dashboard`);
  expect(shell.status, service.output()).toBe(200);
  const assets = [...(await shell.text()).matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((match) => match[1]);
  expect(assets).toHaveLength(2);
  for (const asset of assets) {
    const answer = await fetch(`${service.url}${asset}`);
    expect(answer.status, asset).toBe(200);
    expect((await answer.text()).length, asset).toBeGreaterThan(1000);
  }
});
