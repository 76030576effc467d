import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { eq, sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import drizzleConfig from '../../drizzle.config.js';
import type { Database, Db } from '../../src/platform/db/database.js';
import { openDatabase, type OpenOptions } from '../../src/platform/db/open.js';
import { apiKeys, workspaces } from '../../src/platform/db/schema.js';
import { buildServiceOnce } from '../support/build-once.js';
import { removeDir, tempDir } from './support/app.js';
import { pgliteDriver, postgresDriver, type Driver } from './support/drivers.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MIGRATIONS = path.join(ROOT, 'src/platform/db/migrations');
const HAND_WRITTEN_SQL = readFileSync(new URL('./fixtures/hand-written-migrations.sql', import.meta.url), 'utf8');
const SAMPLE_ROWS = `
  INSERT INTO workspaces (slug, plan, credits) VALUES ('acme', 'pro', 5000);
  INSERT INTO api_keys (workspace_id, name, key_hash, suffix, scopes)
    SELECT id, 'ci', 'digest-of-the-key', 'abcd', ARRAY['participants:read'] FROM workspaces WHERE slug = 'acme';`;

interface JournalEntry {
  tag: string;
  when: number;
}

/** What Drizzle's migrator records for each generated migration, computed here from the files alone. */
function expectedRecords(): { hash: string; created_at: string }[] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries.map((entry) => ({
    hash: createHash('sha256')
      .update(readFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`)))
      .digest('hex'),
    created_at: String(entry.when),
  }));
}

async function rows<Row>(db: Db, query: SQL): Promise<Row[]> {
  // Both drivers answer a raw query with { rows }; Drizzle leaves the type to the driver.
  return ((await db.execute(query)) as { rows: Row[] }).rows;
}

const drizzleRecords = (db: Db) =>
  rows<{ hash: string; created_at: string }>(
    db,
    sql`SELECT hash, created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY id`,
  );

/** Every column, constraint and index of the application's tables, as PostgreSQL describes them. */
async function catalog(db: Db): Promise<string[]> {
  const lines = await rows<{ line: string }>(
    db,
    sql`SELECT c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
          || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
          || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
        FROM pg_attribute a
        JOIN pg_class c ON c.oid = a.attrelid
        LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped
          AND c.relname <> 'schema_migrations'
      UNION ALL
      SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> 'schema_migrations'
      UNION ALL
      SELECT pg_get_indexdef(indexrelid)
        FROM pg_index
        WHERE indrelid::regclass::text <> 'schema_migrations'
          AND (SELECT relnamespace FROM pg_class WHERE oid = indrelid) = 'public'::regnamespace
      ORDER BY line`,
  );
  return lines.map(({ line }) => line);
}

async function withDatabase<T>(options: OpenOptions, use: (database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(options);
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

/** Runs SQL on the database without the service's code, as the hand-written migrations did. */
async function runSql(options: OpenOptions, text: string): Promise<void> {
  if (options.databaseUrl) {
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
    return;
  }
  const dbDir = path.join(options.dataDir, 'db');
  // The service's own creation script: PGlite's initdb is best kept out of the test process.
  await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/platform/db/create-pglite.ts'), dbDir]);
  const client = await PGlite.create(dbDir);
  try {
    await client.exec(text);
  } finally {
    await client.close();
  }
}

const postgres = postgresDriver();
const tempDirs: string[] = [];
afterAll(async () => {
  tempDirs.forEach(removeDir);
  await postgres.stop();
});

function databases(driver: Driver) {
  let handWrittenTemplate: string | undefined;
  const empty = async (): Promise<OpenOptions> => {
    const dataDir = tempDir();
    tempDirs.push(dataDir);
    return { dataDir, databaseUrl: (await driver.env()).DATABASE_URL };
  };
  return {
    empty,
    /** A database made by the hand-written migrations, holding a workspace and its key. */
    handWritten: async (): Promise<OpenOptions> => {
      const options = await empty();
      if (options.databaseUrl) {
        await runSql(options, HAND_WRITTEN_SQL + SAMPLE_ROWS);
        return options;
      }
      // Creating an embedded database takes seconds; each test gets a copy of one.
      if (!handWrittenTemplate) {
        handWrittenTemplate = (await empty()).dataDir;
        await runSql({ dataDir: handWrittenTemplate }, HAND_WRITTEN_SQL + SAMPLE_ROWS);
      }
      cpSync(handWrittenTemplate, options.dataDir, { recursive: true });
      return options;
    },
  };
}

describe.each([pgliteDriver(), postgres])('migrations on $name', (driver) => {
  const { empty, handWritten } = databases(driver);

  it('upgrades a database made by the hand-written migrations in place, once', async () => {
    const options = await handWritten();
    await withDatabase(options, async ({ db }) => {
      const keys = await db
        .select({
          workspace: workspaces.slug,
          plan: workspaces.plan,
          credits: workspaces.credits,
          suffix: apiKeys.suffix,
          scopes: apiKeys.scopes,
        })
        .from(apiKeys)
        .innerJoin(workspaces, eq(apiKeys.workspaceId, workspaces.id));
      expect(keys).toEqual([{ workspace: 'acme', plan: 'pro', credits: 5000, suffix: 'abcd', scopes: ['participants:read'] }]);
      expect(await drizzleRecords(db)).toEqual(expectedRecords());
    });
    expect(await withDatabase(options, ({ db }) => drizzleRecords(db))).toEqual(expectedRecords());
  });

  it('creates a new database with the generated migrations, the same as an upgraded one', async () => {
    const fresh = await withDatabase(await empty(), async ({ db }) => {
      expect(await drizzleRecords(db)).toEqual(expectedRecords());
      expect(await rows(db, sql`SELECT 1 FROM pg_class WHERE relname = 'schema_migrations'`)).toEqual([]);
      return catalog(db);
    });
    expect(fresh.length).toBeGreaterThan(40);
    expect(await withDatabase(await handWritten(), ({ db }) => catalog(db))).toEqual(fresh);
  });
});

describe('concurrent starts on postgres', () => {
  const { empty, handWritten } = databases(postgres);

  it.each([
    ['a new database', empty],
    ['a hand-written one', handWritten],
  ])('four starts opening %s at once all succeed, and it is migrated once', async (_, make) => {
    const options = await make();
    const opened = await Promise.all(Array.from({ length: 4 }, () => openDatabase(options)));
    try {
      expect(await drizzleRecords(opened[0].db)).toEqual(expectedRecords());
    } finally {
      await Promise.all(opened.map((database) => database.close()));
    }
  });
});

describe('generated migrations', () => {
  it('match the schema: drizzle-kit finds nothing to generate', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'drizzle-check-'));
    tempDirs.push(dir);
    cpSync(MIGRATIONS, path.join(dir, 'migrations'), { recursive: true });
    // The project's config, writing to the copy. drizzle-kit 0.31 mangles an absolute `out`, so it runs in the copy's folder.
    const schema = [drizzleConfig.schema ?? []].flat().map((file) => path.resolve(ROOT, file));
    writeFileSync(path.join(dir, 'drizzle.config.json'), JSON.stringify({ ...drizzleConfig, schema, out: 'migrations' }));
    const { stdout } = await run(path.join(ROOT, 'node_modules/.bin/drizzle-kit'), ['generate', '--config', 'drizzle.config.json'], {
      cwd: dir,
    });
    expect(stdout).toContain('No schema changes');
    expect(readdirSync(path.join(dir, 'migrations'), { recursive: true }).sort()).toEqual(
      readdirSync(MIGRATIONS, { recursive: true }).sort(),
    );
  });

  it('ship with the built service', async () => {
    await buildServiceOnce();
    const built = path.join(ROOT, 'dist/platform/db/migrations');
    for (const file of readdirSync(MIGRATIONS, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())) {
      const relative = path.relative(MIGRATIONS, path.join(file.parentPath, file.name));
      expect(readFileSync(path.join(built, relative), 'utf8'), relative).toBe(readFileSync(path.join(MIGRATIONS, relative), 'utf8'));
    }
  });
});
