import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate as drizzleMigrate } from 'drizzle-orm/pglite/migrator';
import type { Database, Db } from './database.js';
import { acquireLock } from './lock.js';
import { migrate } from './migrate.js';
import { PGLITE_SETTINGS, useBaselineWasmCompiler } from './pglite-settings.js';
import { schema } from './schema.js';

const execFileAsync = promisify(execFile);
/** This module's own extension: .js in the built service (dist/), .ts when run from source. */
const EXTENSION = path.extname(fileURLToPath(import.meta.url));
const CREATE_SCRIPT = fileURLToPath(new URL(`./create-pglite${EXTENSION}`, import.meta.url));
const CREATE_ARGS = EXTENSION === '.ts' ? ['--import', 'tsx', CREATE_SCRIPT] : [CREATE_SCRIPT];

/** A new embedded database is created by a child process (see create-pglite.ts). */
async function createPgliteOnce(dbDir: string): Promise<void> {
  if (existsSync(path.join(dbDir, 'PG_VERSION'))) return;
  await execFileAsync(process.execPath, [...CREATE_ARGS, dbDir]);
}

export async function openPglite(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireLock(dataDir);
  try {
    const dbDir = path.join(dataDir, 'db');
    await createPgliteOnce(dbDir);
    useBaselineWasmCompiler();
    const client = await PGlite.create(dbDir, { postgresqlconf: PGLITE_SETTINGS });
    try {
      const connection = drizzle({ client });
      await migrate(connection, (config) => drizzleMigrate(connection, config));
    } catch (error) {
      await client.close();
      throw error;
    }
    const db: Db = drizzle({ client, schema });
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
