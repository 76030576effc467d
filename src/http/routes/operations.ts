import type { FastifyInstance } from 'fastify';
import type { Runner } from '../../core/runner.js';
import type { RunnerMetrics } from '../metrics.js';

/** Liveness, readiness, metrics and the language list. */
export async function operationsRoutes(app: FastifyInstance, options: { runner: Runner; metrics: RunnerMetrics }): Promise<void> {
  const { runner, metrics } = options;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await runner.readiness();
    return reply.code(readiness.ready ? 200 : 503).send({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks });
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  app.get('/api/v1/code/languages', { config: { access: { auth: 'optional-key' } } }, async () => ({ data: await runner.languages() }));
}
