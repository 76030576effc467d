import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { Principal } from './access.js';
import { runAdminCommand, type AdminCommand } from './admin/commands.js';
import { startAdminServer, type AdminServer } from './admin/server.js';
import { installGuard } from './auth/guard.js';
import { Revocations } from './auth/revocations.js';
import { createLimiter } from './auth/rate-limit.js';
import { listenForRevocations, type RevocationListener } from './broadcast/listener.js';
import { revokedAmong } from './broadcast/revoke.js';
import type { PlatformConfig } from './config.js';
import type { Database } from './db/database.js';
import { openDatabase } from './db/open.js';
import { Metering, type UsageReport } from './metering.js';
import { setDefaultMaxAttempts } from './outbox/enqueue.js';
import { startOutboxWorker, type FeatureHandlers, type RunningOutbox } from './outbox/start.js';
import type { Meter } from './plans.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { authRoutes } from './routes/auth.js';
import { DOCS_PREFIX, openApiRoutes } from './routes/openapi.js';
import { usageRoutes } from './routes/usage.js';
import { sessionSecret } from './secret.js';

export { principalOf } from './access.js';
export { accessDocumentation } from './access-docs.js';
export { loadPlatformConfig } from './config.js';
export type { MonthlyCounter, Plan } from './plans.js';
export { SCOPES, resolveScopes, type Scope } from './scopes.js';
export { databaseRefusal } from './store/errors.js';
export { spendCredit } from './store/workspaces.js';
export type { Db } from './db/database.js';
export { enqueue, type NewOutboxMessage } from './outbox/enqueue.js';
export { DeliveryFailure, type ClaimedMessage, type OutboxHandler } from './outbox/delivery.js';
export type { MailMessage } from './mail/message.js';
export { outboxMessages, outboxAttempts } from './outbox/table.js';
export { outboundRequest, OutboundRefused, type OutboundResponse } from './net/outbound-request.js';

export interface PlatformOptions {
  config: PlatformConfig;
}

export interface Platform {
  /** Call after a metered operation succeeded: spends a credit or counts an MCP call. No-op for anonymous callers. */
  meter(request: FastifyRequest, meter: Meter): Promise<void>;
  /** Throws a payment or quota error if the caller may not run one more of these (for routes whose meter depends on the call, like JSON-RPC tools). */
  checkMeter(request: FastifyRequest, meter: Meter): Promise<void>;
  usage(principal: Principal): Promise<UsageReport>;
  /** Runs an admin CLI command in this process (the admin endpoint does the same for the CLI). */
  admin(command: AdminCommand): Promise<string>;
  /**
   * Starts delivering the outbox in the background with the features' handlers (emails are the
   * platform's own, sent when SMTP_URL is set). Once per app; it stops, after the deliveries under
   * way, when the app closes.
   */
  startOutbox(handlers: FeatureHandlers): void;
  database: Database;
  adminUrl?: string;
}

/**
 * Adds the platform to an app made by the web kit (with `accessDocumentation`): storage, cookies,
 * rate limits, the /api gate (auth, scopes, plans, meters), its own routes (sign-in, API keys,
 * usage, OpenAPI) and the loopback admin endpoint. Call it before registering other /api routes:
 * they are checked for an access declaration as they are added.
 */
export async function registerPlatform(app: FastifyInstance, options: PlatformOptions): Promise<Platform> {
  const { config } = options;
  const database = await openDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL });
  let redis: Redis | undefined;
  let adminServer: AdminServer | undefined;
  let outbox: RunningOutbox | undefined;
  let listener: RevocationListener | undefined;
  setDefaultMaxAttempts(config.OUTBOX_MAX_ATTEMPTS);
  try {
    if (config.REDIS_URL) {
      // Imported only when configured: ioredis is about 29 MB of RSS that the memory store does without.
      const { Redis } = await import('ioredis');
      redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 });
      // Fail at start rather than on the first request when the address is wrong.
      await redis.ping();
    }
    const metering = new Metering(database.db, config);
    app.decorateRequest('principal', undefined);
    await app.register(cookie, { secret: sessionSecret(config.DATA_DIR, config.SESSION_SECRET) });
    const limiter = await createLimiter(app, config.RATE_LIMIT_WINDOW_SECONDS, redis);
    const revocations = new Revocations();
    // Several nodes share one PostgreSQL; the embedded database has one node only (its folder's lock), which revokes locally.
    if (config.DATABASE_URL)
      listener = await listenForRevocations({
        url: config.DATABASE_URL,
        onRevoked: (keyId) => revocations.revoked(keyId),
        onListening: async () => {
          for (const keyId of await revokedAmong(database.db, revocations.keysInFlight())) revocations.revoked(keyId);
        },
        log: app.log.child({ component: 'revocations' }),
      });
    const admin = (command: AdminCommand) => runAdminCommand(database.db, config, command, (keyId) => revocations.revoked(keyId));
    installGuard(app, { db: database.db, limiter, metering, revocations, settings: config, publicPrefixes: [DOCS_PREFIX] });
    authRoutes(app, { db: database.db, sessionTtlHours: config.SESSION_TTL_HOURS, secureCookie: config.COOKIE_SECURE });
    apiKeyRoutes(app, database.db, revocations);
    usageRoutes(app, metering);
    await openApiRoutes(app);
    if (config.ADMIN_ENDPOINT)
      adminServer = await startAdminServer(admin, config.DATA_DIR, config.ADMIN_PORT, app.log.child({ component: 'admin' }));
    app.addHook('onClose', async () => {
      // Before the database closes: deliveries under way record their outcome.
      await outbox?.stop();
      await adminServer?.close();
      await listener?.close();
      await redis?.quit();
      await database.close();
    });
    return {
      meter: async (request, meter) => {
        if (request.principal) await metering.record(request.principal, meter);
      },
      checkMeter: async (request, meter) => {
        if (request.principal) await metering.check(request.principal, meter);
      },
      usage: (principal) => metering.report(principal),
      admin,
      startOutbox: (handlers) => {
        if (outbox) throw new Error('the outbox is already started');
        outbox = startOutboxWorker(database.db, config, handlers, app.log.child({ component: 'outbox' }));
      },
      database,
      adminUrl: adminServer?.url,
    };
  } catch (error) {
    await adminServer?.close();
    await listener?.close();
    redis?.disconnect();
    await database.close();
    throw error;
  }
}
