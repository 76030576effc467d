import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { accessDocumentation, loadPlatformConfig, registerPlatform, type Plan, type Platform } from '../../../src/platform/index.js';
import { resourcesConfigSchema } from '../../../src/resources/config.js';
import { registerResources, resourceOutboxHandlers } from '../../../src/resources/index.js';
import { createApp } from '../../../src/web/app.js';
import { createKey, removeDir, tempDir } from '../../platform/support/app.js';
import { Api } from './client.js';

export { createKey };

export interface ResourcesApp {
  app: FastifyInstance;
  platform: Platform;
  dataDir: string;
  /** Base URL of the listening server, e.g. http://127.0.0.1:41234 */
  url: string;
  /** Error-level log lines of the server (the 500s' causes), quoted by failing assertions. */
  serverErrors: string[];
  /** A client of this server with this key. */
  api(key?: string): Api;
  close(): Promise<void>;
}

/**
 * The app as the service builds it: the web kit, the platform, then the resources module, listening
 * on a free loopback port so tests speak real HTTP, with the outbox worker delivering (unless `outbox: false`). `env` adds
 * DATABASE_URL for PostgreSQL and any platform or resources setting (OUTBOX_*, OUTBOUND_ALLOWED_NETWORKS...).
 */
export async function startResourcesApp(
  env: Record<string, string> = {},
  dataDir = tempDir(),
  { outbox = true }: { outbox?: boolean } = {},
): Promise<ResourcesApp> {
  const serverErrors: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void serverErrors.push(line) });
  const app = createApp({ logger, bodyLimit: 1024 * 1024, accessDocumentation });
  const platform = await registerPlatform(app, { config: loadPlatformConfig({ DATA_DIR: dataDir, ADMIN_ENDPOINT: 'false', ...env }) });
  registerResources(app, { db: platform.database.db, mailFrom: 'Interviews <interviews@example.test>' });
  // Off for a test that runs the handlers itself, attempt by attempt.
  if (outbox) platform.startOutbox(resourceOutboxHandlers(platform.database.db, resourcesConfigSchema.parse(env)));
  await app.ready();
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    app,
    platform,
    dataDir,
    url,
    serverErrors,
    api: (key?: string) => new Api(url, key, serverErrors),
    close: async () => {
      await app.close();
      removeDir(dataDir);
    },
  };
}

/** Creates a workspace and returns its id (read from the admin command's answer). */
export async function createWorkspace(platform: Platform, slug: string, plan: Plan = 'enterprise'): Promise<string> {
  const output = await platform.admin({ command: 'workspace.create', slug, plan });
  const id = /\(id ([0-9a-f-]{36})/.exec(output)?.[1];
  if (!id) throw new Error(`no workspace id in: ${output}`);
  return id;
}
