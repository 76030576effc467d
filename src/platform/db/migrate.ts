import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { baselineLegacyDatabase, type Connection } from './baseline.js';

/** Written by drizzle-kit beside this module (`npm run db:generate`); the build copies it beside the compiled one in dist/. */
const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

// Any constant shared by every process that migrates this database; it serialises concurrent starts.
const MIGRATION_LOCK = 727_101;

/** Drizzle's migrator of the driver that opened the connection. */
type Migrator = (config: { migrationsFolder: string }) => Promise<void>;

/**
 * Brings the database to the latest generated migration. The connection must be a single session:
 * the advisory lock is the session's, and Drizzle's migrator reads what was applied before its own
 * transaction, so two processes starting at once would otherwise both apply the same migration.
 */
export async function migrate(connection: Connection, migrator: Migrator): Promise<void> {
  await connection.execute(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
  try {
    await baselineLegacyDatabase(connection, MIGRATIONS_FOLDER);
    await migrator({ migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await connection.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`);
  }
}
