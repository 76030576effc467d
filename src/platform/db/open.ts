import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, Db } from './database.js';
import { acquireLock } from './lock.js';
import { migrate } from './migrate.js';
import { PGLITE_SETTINGS } from './pglite-settings.js';
import { schema } from './schema.js';

export interface OpenOptions { dataDir: string; databaseUrl?: string }

const execFileAsync = promisify(execFile);
const CREATE_SCRIPT = fileURLToPath(new URL('./create-pglite.ts', import.meta.url));

/** A new embedded database is created by a child process (see create-pglite.ts). */
async function createPgliteOnce(dbDir: string): Promise<void> {
  if (existsSync(path.join(dbDir, 'PG_VERSION'))) return;
  await execFileAsync(process.execPath, ['--import', 'tsx', CREATE_SCRIPT, dbDir]);
}

/** PostgreSQL when a URL is given, else the embedded PGlite in DATA_DIR/db; migrated to the latest version. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = options.databaseUrl ? openPostgres(options.databaseUrl) : await openPglite(options.dataDir);
  try {
    await migrate(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db: Db = drizzlePg({ client: pool, schema });
  return { db, driver: 'postgres', close: () => pool.end() };
}

async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireLock(dataDir);
  try {
    const dbDir = path.join(dataDir, 'db');
    await createPgliteOnce(dbDir);
    const client = await PGlite.create(dbDir, { postgresqlconf: PGLITE_SETTINGS });
    const db: Db = drizzlePglite({ client, schema });
    return {
      db,
      driver: 'pglite',
      close: async () => {
        try {
          await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
