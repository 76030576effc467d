import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, createKey, createWorkspace, removeDir, tempDir } from './support/app.js';
import { pgliteDriver, postgresDriver } from './support/drivers.js';
import { call, sessionCookie } from './support/http.js';

describe.each([pgliteDriver(), postgresDriver()])('restart on $name', (driver) => {
  const dataDir = tempDir();
  afterAll(async () => {
    removeDir(dataDir);
    await driver.stop();
  });

  it('keeps workspaces, keys, revocations, users and sessions across a restart', async () => {
    const env = await driver.env();
    const first = await buildTestApp(env, dataDir);
    await createWorkspace(first.platform, 'acme', 'pro');
    const kept = await createKey(first.platform, 'acme', 'candidates.read');
    const revoked = await createKey(first.platform, 'acme', 'candidates.read');
    const revokedId = (await first.platform.admin({ command: 'key.list', workspace: 'acme' }))
      .split('\n')
      .find((line) => line.includes(revoked.slice(-4)))!
      .split('\t')[0];
    await first.platform.admin({ command: 'key.revoke', id: revokedId });
    await first.platform.admin({ command: 'user.create', email: 'ada@example.com', password: 'correct horse' });
    await first.platform.admin({ command: 'member.add', workspace: 'acme', email: 'ada@example.com' });
    const cookie = sessionCookie(
      await call(first.app, { method: 'POST', url: '/api/v1/auth/login', body: { email: 'ada@example.com', password: 'correct horse' } }),
    );
    await first.close();

    const second = await buildTestApp(env, dataDir);
    try {
      expect((await call(second.app, { url: '/api/v1/test/things', key: kept })).statusCode).toBe(200);
      expect((await call(second.app, { url: '/api/v1/test/things', key: revoked })).statusCode).toBe(401);
      // The generated session secret is kept in the data folder, so signed cookies stay valid.
      expect((await call(second.app, { url: '/api/v1/test/things?accountSlug=acme', cookie })).statusCode).toBe(200);
      expect(statSync(path.join(dataDir, 'session-secret')).mode & 0o777).toBe(0o600);
    } finally {
      await second.close();
    }
  });
});
