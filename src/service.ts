import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { executeRoute } from './code/execute-route.js';
import { RunnerMetrics } from './code/metrics.js';
import { languagesRoute, operationsRoutes } from './code/operations-routes.js';
import { loadConfig, type Config } from './config.js';
import { applyServiceNice } from './cpu-priority.js';
import { Runner, type ExecutionRunner, type RunnerSettings } from './core/runner.js';
import { connectDocker } from './core/sandbox/engine.js';
import { mcpRoutes } from './mcp/routes.js';
import { accessDocumentation, registerPlatform, type Platform } from './platform/index.js';
import { registerPlatformMetrics } from './platform/metrics/index.js';
import { countSandboxFailures } from './code/sandbox-failures.js';
import { registerDashboard } from './dashboard/index.js';
import { registerResources, resourceOutboxHandlers } from './resources/index.js';
import { internalRoutes } from './tier/internal-routes.js';
import { RemoteRunner } from './tier/remote-runner.js';
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
    sweepIntervalMs: config.SANDBOX_SWEEP_INTERVAL_MS,
  };
}

interface NodeParts {
  app: FastifyInstance;
  config: Config;
  logger: Logger;
  url: string;
  /** Stops taking requests, lets those in flight finish (bounded by the execution timeout), then releases the runner. */
  close(): Promise<void>;
}

/** SERVICE_ROLE=all: the whole API and the sandboxes in one process. */
export interface Service extends NodeParts {
  role: 'all';
  platform: Platform;
  runner: Runner;
}

/** SERVICE_ROLE=api: the whole API, no Docker; every execution goes to RUNNER_URL. */
export interface ApiNode extends NodeParts {
  role: 'api';
  platform: Platform;
  runner: RemoteRunner;
}

/** SERVICE_ROLE=runner: executions only, on the internal endpoint; no database, Redis or key store. */
export interface RunnerNode extends NodeParts {
  role: 'runner';
  runner: Runner;
}

/** Registers the platform first (its gate checks each /api route as it is added), then every feature's routes. */
async function registerAll(app: FastifyInstance, config: Config, runner: ExecutionRunner): Promise<Platform> {
  const platform = await registerPlatform(app, { config });
  const metrics = new RunnerMetrics(runner);
  registerPlatformMetrics(app, metrics.registry, platform.database.db);
  countSandboxFailures(app, metrics.registry);
  operationsRoutes(app, { runner, metrics });
  languagesRoute(app, { runner });
  executeRoute(app, { runner, metrics, timeoutMs: config.EXECUTION_TIMEOUT_MS, metering: platform });
  mcpRoutes(app, { runner, timeoutMs: config.EXECUTION_TIMEOUT_MS, metering: platform });
  registerResources(app, { db: platform.database.db, mailFrom: config.MAIL_FROM });
  if (config.DASHBOARD_ENABLED) await registerDashboard(app);
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

/**
 * Registers the routes and listens; on a start-up failure, whatever start-up created goes again (the
 * platform's database, lock and admin endpoint close with the app, then the runner and its containers).
 */
async function listen<T>(
  config: Config,
  logger: Logger,
  runner: ExecutionRunner,
  register: (app: FastifyInstance) => Promise<T>,
): Promise<{ registered: T } & NodeParts> {
  const app = createApp({ logger, bodyLimit: config.MAX_BODY_BYTES, accessDocumentation, trustProxy: config.TRUST_PROXY });
  let registered: T;
  let address: string;
  try {
    registered = await register(app);
    address = await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await app.close().catch(() => undefined);
    await runner.close();
    throw startFailure(error, config);
  }
  let closing: Promise<void> | undefined;
  // fastify's close answers new requests 503 (readiness included) and waits for those in flight; then the runner goes.
  const close = () => (closing ??= app.close().then(() => runner.close()));
  return { registered, app, config, logger, url: address.replace('0.0.0.0', '127.0.0.1'), close };
}

/** Where sandboxes run (roles all and runner), the service first takes its CPU precedence over them. */
function dockerRunner(config: Config, logger: Logger): Promise<Runner> {
  applyServiceNice(config.SERVICE_NICE, logger);
  return Runner.create(connectDocker(config.DOCKER_SOCKET), runnerSettings(config), (error) =>
    logger.warn({ err: error }, 'sandbox container could not be started or removed'),
  );
}

/** SERVICE_ROLE=all, whatever the environment says: the single node, as the tests start it. */
export async function startService(env: NodeJS.ProcessEnv = process.env): Promise<Service> {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  const runner = await dockerRunner(config, logger);
  const { registered: platform, ...parts } = await listen(config, logger, runner, (app) => registerAll(app, config, runner));
  return { ...parts, role: 'all', platform, runner };
}

/** SERVICE_ROLE=api: never connects to Docker; the RemoteRunner serves the execute route, languages, readiness and MCP execute_code. */
export async function startApiNode(env: NodeJS.ProcessEnv = process.env): Promise<ApiNode> {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  if (!config.RUNNER_URL || !config.RUNNER_TOKEN) throw new Error('SERVICE_ROLE=api needs RUNNER_URL and RUNNER_TOKEN');
  const runner = new RemoteRunner({
    url: config.RUNNER_URL,
    token: config.RUNNER_TOKEN,
    request: runnerSettings(config).request,
    timeoutMs: config.EXECUTION_TIMEOUT_MS,
  });
  const { registered: platform, ...parts } = await listen(config, logger, runner, (app) => registerAll(app, config, runner));
  return { ...parts, role: 'api', platform, runner };
}

/** SERVICE_ROLE=runner: operations routes and the internal endpoint only; no platform, so no database, DATA_DIR or key store. */
export async function startRunnerNode(env: NodeJS.ProcessEnv = process.env): Promise<RunnerNode> {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  if (!config.RUNNER_TOKEN) throw new Error('SERVICE_ROLE=runner needs RUNNER_TOKEN');
  const token = config.RUNNER_TOKEN;
  const runner = await dockerRunner(config, logger);
  const parts = await listen(config, logger, runner, async (app) => {
    const metrics = new RunnerMetrics(runner);
    operationsRoutes(app, { runner, metrics });
    internalRoutes(app, { runner, metrics, token });
  });
  return { ...parts, role: 'runner', runner };
}

/** The node SERVICE_ROLE asks for. */
export function startNode(env: NodeJS.ProcessEnv = process.env): Promise<Service | ApiNode | RunnerNode> {
  const role = loadConfig(env).SERVICE_ROLE;
  if (role === 'api') return startApiNode(env);
  if (role === 'runner') return startRunnerNode(env);
  return startService(env);
}
