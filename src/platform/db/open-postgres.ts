import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate as drizzleMigrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Database, Db } from './database.js';
import { migrate } from './migrate.js';
import { schema } from './schema.js';

/** On a connection of its own: a pool may run each statement on another session than the one holding the lock. */
async function migratePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const db = drizzle({ client });
    await migrate(db, (config) => drizzleMigrate(db, config));
  } finally {
    await client.end();
  }
}

export async function openPostgres(url: string): Promise<Database> {
  await migratePostgres(url);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db: Db = drizzle({ client: pool, schema });
  return { db, driver: 'postgres', close: () => pool.end() };
}
