import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, removeDir, tempDir } from './support/app.js';
import { postgresDriver } from './support/drivers.js';
import { call } from './support/http.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as `npm run -s cli` does, in its own process. */
async function cli(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const keyOf = (result: CliResult) => result.stdout.trim().split('\n').at(-1)!;

describe('admin CLI', () => {
  const dataDir = tempDir();
  const env = { DATA_DIR: dataDir };
  const postgres = postgresDriver();
  afterAll(async () => {
    removeDir(dataDir);
    await postgres.stop();
  });

  it('prints help for every command', async () => {
    const general = await cli(env, '--help');
    expect(general.code).toBe(0);
    for (const command of ['workspace create', 'user create', 'member add', 'key create', 'key list', 'key revoke', 'plan set']) {
      const help = await cli(env, ...command.split(' '), '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`usage: npm run -s cli -- ${command}`);
    }
    const missing = await cli(env, 'key', 'create', '--workspace', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--scopes');
  }, 120_000);

  it('works with the service stopped', async () => {
    expect((await cli(env, 'workspace', 'create', 'acme', '--plan', 'starter')).code).toBe(0);
    expect((await cli(env, 'workspace', 'create', 'acme', '--plan', 'starter')).stderr).toMatch(/already exists/);
    expect((await cli(env, 'user', 'create', 'ada@example.com', '--password', 'correct horse')).code).toBe(0);
    expect((await cli(env, 'member', 'add', '--workspace', 'acme', '--email', 'ada@example.com')).stdout).toMatch(/member of acme/);
    const created = await cli(env, 'key', 'create', '--workspace', 'acme', '--scopes', 'candidates.read,role:read', '--name', 'ci');
    expect(keyOf(created)).toMatch(/^svc_live_[0-9A-Za-z]{32,}$/);
    const list = await cli(env, 'key', 'list', '--workspace', 'acme');
    expect(list.stdout).toContain('participants:read,roles:read');
    expect(list.stdout).not.toContain(keyOf(created));
    expect((await cli(env, 'plan', 'set', '--workspace', 'acme', '--plan', 'pro', '--credits', '7')).stdout).toMatch(
      /plan pro with 7 credits/,
    );
    expect((await cli(env, 'plan', 'set', '--workspace', 'acme', '--plan', 'gold')).code).toBe(1);
    expect((await cli(env, 'key', 'create', '--workspace', 'acme', '--scopes', 'nope:read')).stderr).toMatch(/unknown scope/);
  }, 180_000);

  it('goes through the running service, never opening its data folder', async () => {
    const service = await buildTestApp({ ADMIN_ENDPOINT: 'true' }, dataDir);
    try {
      const endpointFile = path.join(dataDir, 'admin-endpoint.json');
      expect(statSync(endpointFile).mode & 0o777).toBe(0o600);
      const created = await cli(env, 'key', 'create', '--workspace', 'acme', '--scopes', 'all');
      expect(created.code).toBe(0);
      const key = keyOf(created);
      expect((await call(service.app, { url: '/api/v1/test/things', key })).statusCode).toBe(200);
      const id = (await cli(env, 'key', 'list', '--workspace', 'acme')).stdout
        .split('\n')
        .find((line) => line.includes(key.slice(-4)))!
        .split('\t')[0];
      expect((await cli(env, 'key', 'revoke', id)).stdout).toMatch(/revoked/);
      expect((await call(service.app, { url: '/api/v1/test/things', key })).statusCode).toBe(401);
      expect((await cli(env, 'workspace', 'create', 'acme', '--plan', 'pro')).stderr).toMatch(/already exists/);
      expect((await call(service.app, { url: '/api/v1/test/things', key: `svc_live_${'x'.repeat(40)}` })).statusCode).toBe(401);
    } finally {
      await service.close();
    }
    expect(existsSync(path.join(dataDir, 'admin-endpoint.json'))).toBe(false);
    // Stopped again: the CLI opens the folder itself and sees what the running service wrote.
    expect((await cli(env, 'key', 'list', '--workspace', 'acme')).stdout).toMatch(/revoked/);
  }, 180_000);

  it('refuses to open a folder held by a service without an admin endpoint', async () => {
    const service = await buildTestApp({ ADMIN_ENDPOINT: 'false' }, dataDir);
    try {
      const refused = await cli(env, 'key', 'list', '--workspace', 'acme');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      await service.close();
    }
  }, 120_000);

  it('talks to PostgreSQL directly with DATABASE_URL', async () => {
    const pgEnv = { DATA_DIR: tempDir(), ...(await postgres.env()) };
    expect((await cli(pgEnv, 'workspace', 'create', 'pgco', '--plan', 'free')).code).toBe(0);
    expect(keyOf(await cli(pgEnv, 'key', 'create', '--workspace', 'pgco', '--scopes', 'all'))).toMatch(/^svc_live_/);
    expect((await cli(pgEnv, 'key', 'list', '--workspace', 'pgco')).stdout).toMatch(/active/);
    removeDir(pgEnv.DATA_DIR);
  }, 180_000);
});
