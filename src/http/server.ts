import Fastify, { type FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Runner } from '../core/runner.js';
import { errorHandler } from './error-handler.js';
import { HttpError } from './http-error.js';
import { RunnerMetrics } from './metrics.js';
import { executeRoute } from './routes/execute.js';
import { operationsRoutes } from './routes/operations.js';

export interface ServerOptions {
  runner: Runner;
  logger: FastifyBaseLogger;
  bodyLimit: number;
  timeoutMs: number;
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    // Shutdown waits for in-flight executions, which are bounded by the execution timeout.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((request) => { throw new HttpError(404, `no route for ${request.method} ${request.url.split('?')[0]}`); });
  const metrics = new RunnerMetrics(options.runner);
  await app.register(operationsRoutes, { runner: options.runner, metrics });
  await app.register(executeRoute, { runner: options.runner, metrics, bodyLimit: options.bodyLimit, timeoutMs: options.timeoutMs });
  return app;
}
