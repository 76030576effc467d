import { and, eq, sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { bigint, integer, pgSchema, pgTable, serial, text, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** One session of either driver, without the application's schema: migrations need none. */
export type Connection = PgDatabase<PgQueryResultHKT>;

/** Where the migrations were recorded before drizzle-kit generated them; version 1 made what the first generated one makes. */
const legacyMigrations = pgTable('schema_migrations', { version: integer('version').primaryKey() });
const LEGACY_SCHEMA_VERSION = 1;

/** Drizzle's migrator's own record, under its default names. */
const DRIZZLE_SCHEMA = 'drizzle';
const DRIZZLE_TABLE = '__drizzle_migrations';
const drizzleMigrations = pgSchema(DRIZZLE_SCHEMA).table(DRIZZLE_TABLE, {
  id: serial('id').primaryKey(),
  hash: text('hash').notNull(),
  createdAt: bigint('created_at', { mode: 'number' }),
});

const catalogTables = pgSchema('information_schema').table('tables', {
  schema: text('table_schema').notNull(),
  name: text('table_name').notNull(),
});

async function tableExists(db: Connection, schema: string, name: string): Promise<boolean> {
  const found = await db
    .select({ name: catalogTables.name })
    .from(catalogTables)
    .where(and(eq(catalogTables.schema, schema), eq(catalogTables.name, name)));
  return found.length > 0;
}

async function hasDrizzleRecord(db: Connection): Promise<boolean> {
  return (await tableExists(db, DRIZZLE_SCHEMA, DRIZZLE_TABLE)) && (await db.$count(drizzleMigrations)) > 0;
}

async function hasLegacySchema(db: Connection): Promise<boolean> {
  if (!(await tableExists(db, 'public', 'schema_migrations'))) return false;
  const applied = await db.select().from(legacyMigrations).where(eq(legacyMigrations.version, LEGACY_SCHEMA_VERSION));
  return applied.length > 0;
}

/**
 * A database made by the hand-written migrations already has the tables of the first generated
 * migration, which would fail on them; it is recorded as applied, with the hash and time Drizzle's
 * migrator itself writes, so the migrator goes on with the ones after it.
 */
export async function baselineLegacyDatabase(db: Connection, migrationsFolder: string): Promise<void> {
  if ((await hasDrizzleRecord(db)) || !(await hasLegacySchema(db))) return;
  const [first] = readMigrationFiles({ migrationsFolder });
  await db.transaction(async (tx) => {
    // Drizzle's migrator creates its schema and table only where missing: this must be its very definition.
    await tx.execute(sql`CREATE SCHEMA IF NOT EXISTS ${sql.identifier(DRIZZLE_SCHEMA)}`);
    await tx.execute(sql`CREATE TABLE IF NOT EXISTS ${sql.identifier(DRIZZLE_SCHEMA)}.${sql.identifier(DRIZZLE_TABLE)} (
      id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`);
    await tx.insert(drizzleMigrations).values({ hash: first.hash, createdAt: first.folderMillis });
  });
}
