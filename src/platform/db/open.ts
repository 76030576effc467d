import type { Database } from './database.js';

export interface OpenOptions {
  dataDir: string;
  databaseUrl?: string;
}

/**
 * PostgreSQL when a URL is given, else the embedded PGlite in DATA_DIR/db; migrated to the latest
 * version. Each driver is imported only when chosen: a process never loads the other one
 * (node-postgres is about 17 MB of RSS, PGlite's WebAssembly far more).
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  return options.databaseUrl
    ? (await import('./open-postgres.js')).openPostgres(options.databaseUrl)
    : (await import('./open-pglite.js')).openPglite(options.dataDir);
}
