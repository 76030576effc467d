import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LANGUAGES } from '../../core/languages.js';
import type { Runner } from '../../core/runner.js';
import type { OpenApiOperation } from '../../platform/index.js';
import type { RunnerMetrics } from '../metrics.js';

const languagesResponse = z.object({
  data: z.array(z.object({ language: z.enum(LANGUAGES), aliases: z.array(z.string()), runtime: z.string(), version: z.string().nullable() })),
});

export interface OperationsOptions { runner: Runner; metrics: RunnerMetrics; document: (operation: OpenApiOperation) => void }

/** Liveness, readiness, metrics and the language list. */
export async function operationsRoutes(app: FastifyInstance, options: OperationsOptions): Promise<void> {
  const { runner, metrics } = options;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const readiness = await runner.readiness();
    return reply.code(readiness.ready ? 200 : 503).send({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks });
  });
  app.get('/metrics', async (_request, reply) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
  options.document({
    method: 'GET', url: '/api/v1/code/languages', tags: ['code'], access: { auth: 'optional-key' },
    summary: 'Languages the runner accepts, with their aliases and runtime versions', response: languagesResponse,
  });
  app.get('/api/v1/code/languages', { config: { access: { auth: 'optional-key' } } }, async () => ({ data: await runner.languages() }));
}
