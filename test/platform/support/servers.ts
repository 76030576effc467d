import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/** A free loopback port (another process may take it before it is used: rare, and the start then fails saying so). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function postgresBin(name: string): string {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0)
    throw new Error('PostgreSQL server binaries not found; install the Debian postgresql package or set TEST_DATABASE_URL');
  return path.join('/usr/lib/postgresql', versions[0], 'bin', name);
}

export interface PostgresServer {
  url(database: string): string;
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster (initdb in a temp folder, run as the postgres user when we are
 * root, since the server refuses root), or the server named by TEST_DATABASE_URL.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const external = process.env.TEST_DATABASE_URL;
  let base: URL;
  let stop = async () => {};
  if (external) {
    base = new URL(external);
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'platform-pg-'));
    const asPostgres = process.getuid?.() === 0;
    if (asPostgres)
      chownSync(
        dir,
        Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
        Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
      );
    const exec = (bin: string, args: string[]) =>
      asPostgres ? run('runuser', ['-u', 'postgres', '--', postgresBin(bin), ...args]) : run(postgresBin(bin), args);
    const port = await freePort();
    const data = path.join(dir, 'data');
    await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    await exec('pg_ctl', [
      '-D',
      data,
      '-w',
      '-l',
      path.join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
    base = new URL(`postgres://postgres@127.0.0.1:${port}/postgres`);
    stop = async () => {
      await exec('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    };
  }
  const url = (database: string) => Object.assign(new URL(base.href), { pathname: `/${database}` }).href;
  return {
    url,
    createDatabase: async () => {
      const name = `platform_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      const client = new pg.Client({ connectionString: base.href });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
  };
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** A throwaway redis-server without persistence, or the one named by TEST_REDIS_URL. */
export async function startRedis(): Promise<RedisServer> {
  if (process.env.TEST_REDIS_URL) return { url: process.env.TEST_REDIS_URL, stop: async () => {} };
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused connections are expected until the server listens; connect() reports them.
    client.on('error', () => {});
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      break;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server did not start: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}
