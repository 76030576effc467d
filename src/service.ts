import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { executeRoute } from './code/execute-route.js';
import { RunnerMetrics } from './code/metrics.js';
import { operationsRoutes } from './code/operations-routes.js';
import { loadConfig, type Config } from './config.js';
import { Runner, type RunnerSettings } from './core/runner.js';
import { connectDocker } from './core/sandbox/engine.js';
import { mcpRoutes } from './mcp/routes.js';
import { accessDocumentation, registerPlatform, type Platform } from './platform/index.js';
import { registerResources, resourceOutboxHandlers } from './resources/index.js';
import { createApp } from './web/app.js';

export function runnerSettings(config: Config): RunnerSettings {
  return {
    images: { python: config.PYTHON_IMAGE, node: config.NODE_IMAGE },
    ociRuntime: config.SANDBOX_RUNTIME,
    driver: config.SANDBOX_DRIVER,
    oci: { dataDir: config.DATA_DIR, rootfsDir: config.SANDBOX_ROOTFS_DIR },
    instance: config.SANDBOX_INSTANCE,
    limits: {
      memoryMb: config.SANDBOX_MEMORY_MB,
      cpus: config.SANDBOX_CPUS,
      pids: config.SANDBOX_PIDS,
      tmpfsMb: config.SANDBOX_TMPFS_MB,
      nofile: config.SANDBOX_NOFILE,
      fsizeMb: config.SANDBOX_FSIZE_MB,
    },
    request: {
      maxCodeBytes: config.MAX_CODE_BYTES,
      maxTestCases: config.MAX_TEST_CASES,
      maxDepth: config.MAX_JSON_DEPTH,
      maxCaseTimeoutMs: config.EXECUTION_TIMEOUT_MS,
    },
    timeoutMs: config.EXECUTION_TIMEOUT_MS,
    stdoutCapBytes: config.STDOUT_CAP_BYTES,
    resultBudgetBytes: config.RESULT_BUDGET_BYTES,
    concurrency: config.CONCURRENCY,
    queueLimit: config.QUEUE_LIMIT,
    queueWaitMs: config.QUEUE_WAIT_MS,
    pool: {
      enabled: config.POOL_ENABLED,
      minIdle: { python: config.POOL_MIN_PYTHON, node: config.POOL_MIN_NODE },
      maxPerInterpreter: config.POOL_MAX_PER_LANGUAGE,
      refillConcurrency: config.POOL_REFILL_CONCURRENCY,
      maxAgeMs: config.POOL_MAX_AGE_MS,
      idleShrinkMs: config.POOL_IDLE_SHRINK_MS,
    },
    maxContainers: Math.max(
      1,
      Math.min(config.SANDBOX_MAX_CONTAINERS, Math.floor(config.SANDBOX_MEMORY_BUDGET_MB / config.SANDBOX_MEMORY_MB)),
    ),
  };
}

export interface Service {
  app: FastifyInstance;
  platform: Platform;
  runner: Runner;
  config: Config;
  logger: Logger;
  url: string;
  close(): Promise<void>;
}

/** Registers the platform first (its gate checks each /api route as it is added), then every feature's routes. */
async function registerAll(app: FastifyInstance, config: Config, logger: Logger, runner: Runner): Promise<Platform> {
  const platform = await registerPlatform(app, { config });
  const metrics = new RunnerMetrics(runner);
  operationsRoutes(app, { runner, metrics });
  executeRoute(app, { runner, metrics, timeoutMs: config.EXECUTION_TIMEOUT_MS });
  mcpRoutes(app, { runner, timeoutMs: config.EXECUTION_TIMEOUT_MS, metering: platform });
  registerResources(app, { db: platform.database.db, mailFrom: config.MAIL_FROM });
  platform.startOutbox(resourceOutboxHandlers(platform.database.db, config));
  return platform;
}

/** A start-up failure in words an operator can act on. */
function startFailure(error: unknown, config: Config): Error {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return new Error(`port ${config.PORT} on ${config.HOST} is taken by another process; stop it or set PORT`, { cause: error });
  }
  return error instanceof Error ? error : new Error(String(error));
}

/** The one wiring place: config, the Docker engine, the runner core, the platform and the routes; then listens. */
export async function startService(env: NodeJS.ProcessEnv = process.env): Promise<Service> {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  const docker = connectDocker(config.DOCKER_SOCKET);
  const runner = await Runner.create(docker, runnerSettings(config), (error) =>
    logger.warn({ err: error }, 'sandbox pool could not start a container'),
  );
  const app = createApp({ logger, bodyLimit: config.MAX_BODY_BYTES, accessDocumentation, trustProxy: config.TRUST_PROXY });
  let platform: Platform;
  let address: string;
  try {
    platform = await registerAll(app, config, logger, runner);
    address = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    // Whatever start-up created goes again: the platform's database, lock and admin endpoint close with the app, then every container.
    await app.close().catch(() => undefined);
    await runner.close();
    throw startFailure(error, config);
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    // Stop accepting, let in-flight executions finish (bounded by the timeout), then remove every container.
    closing ??= app.close().then(() => runner.close());
    return closing;
  };
  return { app, platform, runner, config, logger, url: address.replace('0.0.0.0', '127.0.0.1'), close };
}
