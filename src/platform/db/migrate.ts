import { eq, sql } from 'drizzle-orm';
import type { Db } from './database.js';
import { MIGRATIONS, type Migration } from './migrations.js';
import { schemaMigrations } from './schema.js';

// Any constant shared by every process that migrates this database; it serialises concurrent starts.
const MIGRATION_LOCK = 727_101;

/** Applies the migrations this database has not seen yet, each in its own transaction. */
export async function migrate(db: Db, migrations: Migration[] = MIGRATIONS): Promise<number[]> {
  await db.execute(sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const applied: number[] = [];
  for (const migration of migrations) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`);
      const seen = await tx.select().from(schemaMigrations).where(eq(schemaMigrations.version, migration.version));
      if (seen.length > 0) return;
      for (const statement of migration.statements) await tx.execute(sql.raw(statement));
      await tx.insert(schemaMigrations).values({ version: migration.version, name: migration.name });
      applied.push(migration.version);
    });
  }
  return applied;
}
