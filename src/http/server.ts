import Fastify, { type FastifyInstance } from 'fastify';
import type { FastifyBaseLogger } from 'fastify';
import type { Runner } from '../core/runner.js';
import { mcpRoutes } from '../mcp/routes.js';
import { registerPlatform, type Platform, type PlatformConfig } from '../platform/index.js';
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
  platform: PlatformConfig;
}

export async function buildServer(options: ServerOptions): Promise<{ app: FastifyInstance; platform: Platform }> {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    // Shutdown waits for in-flight executions, which are bounded by the execution timeout.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setErrorHandler(errorHandler);
  // While shutting down, answers close their keep-alive connection, so close() is not held open
  // by clients whose in-flight requests just finished.
  let closing = false;
  app.addHook('preClose', async () => { closing = true; });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.setNotFoundHandler((request) => { throw new HttpError(404, `no route for ${request.method} ${request.url.split('?')[0]}`); });
  // Before any /api route: the platform's gate checks each route's access declaration as it is added.
  const platform = await registerPlatform(app, { config: options.platform });
  const metrics = new RunnerMetrics(options.runner);
  const document = platform.registerOpenApiOperation;
  await app.register(operationsRoutes, { runner: options.runner, metrics, document });
  await app.register(executeRoute, { runner: options.runner, metrics, bodyLimit: options.bodyLimit, timeoutMs: options.timeoutMs, document });
  await app.register(mcpRoutes, {
    runner: options.runner, bodyLimit: options.bodyLimit, timeoutMs: options.timeoutMs, document,
    metering: { ensureAllowance: platform.checkMeter, record: platform.meter },
  });
  return { app, platform };
}
