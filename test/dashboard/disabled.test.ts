import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { startTestService } from '../support/service.js';

/** A runner-only deployment: DASHBOARD_ENABLED=false serves no dashboard route (and builds no bundle). */

let service: Service;

beforeAll(async () => {
  service = await startTestService({ DASHBOARD_ENABLED: 'false' });
}, 120_000);

afterAll(async () => {
  await service?.close();
});

it('answers 404 under /dashboard while the API works', async () => {
  for (const route of ['/dashboard', '/dashboard/', '/dashboard/assets/main.js']) {
    const answer = await fetch(`${service.url}${route}`);
    expect(answer.status, route).toBe(404);
  }
  expect(service.app.printRoutes().includes('dashboard')).toBe(false);
  expect((await fetch(`${service.url}/api/v1/code/languages`)).status).toBe(200);
});
