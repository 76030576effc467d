import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, Db } from './database.js';
import { schema } from './schema.js';

export function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db: Db = drizzle({ client: pool, schema });
  return { db, driver: 'postgres', close: () => pool.end() };
}
