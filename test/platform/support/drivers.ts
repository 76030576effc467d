import { startPostgres, type PostgresServer } from './servers.js';

/** The two storage drivers every storage-touching suite runs against. */
export interface Driver {
  name: 'pglite' | 'postgres';
  /** Environment for the app: nothing for PGlite (it lives in DATA_DIR), DATABASE_URL for PostgreSQL. */
  env(): Promise<Record<string, string>>;
  stop(): Promise<void>;
}

export function pgliteDriver(): Driver {
  return { name: 'pglite', env: async () => ({}), stop: async () => {} };
}

export function postgresDriver(): Driver {
  let server: Promise<PostgresServer> | undefined;
  return {
    name: 'postgres',
    env: async () => {
      server ??= startPostgres();
      return { DATABASE_URL: await (await server).createDatabase() };
    },
    stop: async () => {
      if (server) await (await server).stop();
    },
  };
}
