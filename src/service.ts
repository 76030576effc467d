import type { FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { loadConfig, type Config } from './config.js';
import { Runner, type RunnerSettings } from './core/runner.js';
import { connectDocker } from './core/sandbox/engine.js';
import { buildServer } from './http/server.js';
import type { Platform } from './platform/index.js';

export function runnerSettings(config: Config): RunnerSettings {
  return {
    images: { python: config.PYTHON_IMAGE, node: config.NODE_IMAGE },
    runtime: config.SANDBOX_RUNTIME,
    instance: config.SANDBOX_INSTANCE,
    limits: { memoryMb: config.SANDBOX_MEMORY_MB, cpus: config.SANDBOX_CPUS, pids: config.SANDBOX_PIDS, tmpfsMb: config.SANDBOX_TMPFS_MB, nofile: config.SANDBOX_NOFILE, fsizeMb: config.SANDBOX_FSIZE_MB },
    request: { maxCodeBytes: config.MAX_CODE_BYTES, maxTestCases: config.MAX_TEST_CASES, maxDepth: config.MAX_JSON_DEPTH, maxCaseTimeoutMs: config.EXECUTION_TIMEOUT_MS },
    timeoutMs: config.EXECUTION_TIMEOUT_MS,
    stdoutCapBytes: config.STDOUT_CAP_BYTES,
    concurrency: config.CONCURRENCY,
    queueLimit: config.QUEUE_LIMIT,
    pool: {
      enabled: config.POOL_ENABLED,
      minIdle: { python: config.POOL_MIN_PYTHON, node: config.POOL_MIN_NODE },
      maxPerRuntime: config.POOL_MAX_PER_LANGUAGE,
      refillConcurrency: config.POOL_REFILL_CONCURRENCY,
      maxAgeMs: config.POOL_MAX_AGE_MS,
      idleShrinkMs: config.POOL_IDLE_SHRINK_MS,
    },
    maxContainers: Math.max(1, Math.min(config.SANDBOX_MAX_CONTAINERS, Math.floor(config.SANDBOX_MEMORY_BUDGET_MB / config.SANDBOX_MEMORY_MB))),
  };
}

export interface Service { app: FastifyInstance; platform: Platform; runner: Runner; config: Config; logger: Logger; url: string; close(): Promise<void> }

/** Wires config, the Docker engine, the runner core and the HTTP server, and starts listening. */
export async function startService(env: NodeJS.ProcessEnv = process.env): Promise<Service> {
  const config = loadConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  const docker = connectDocker(config.DOCKER_SOCKET);
  const runner = await Runner.create(docker, runnerSettings(config), (error) => logger.warn({ err: error }, 'sandbox pool could not start a container'));
  let built: Awaited<ReturnType<typeof buildServer>>;
  try {
    built = await buildServer({ runner, logger, bodyLimit: config.MAX_BODY_BYTES, timeoutMs: config.EXECUTION_TIMEOUT_MS, platform: config });
  } catch (error) {
    await runner.close();
    throw error;
  }
  const { app, platform } = built;
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  let closing: Promise<void> | undefined;
  const close = () => {
    // Stop accepting, let in-flight executions finish (bounded by the timeout), then remove every container.
    closing ??= app.close().then(() => runner.close());
    return closing;
  };
  return { app, platform, runner, config, logger, url: address.replace('0.0.0.0', '127.0.0.1'), close };
}
