import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { LANGUAGES } from '../core/languages.js';
import type { Runner } from '../core/runner.js';
import { defineRoute } from '../web/route.js';
import type { RunnerMetrics } from './metrics.js';

const languagesResponse = z.object({
  data: z.array(
    z.object({ language: z.enum(LANGUAGES), aliases: z.array(z.string()), runtime: z.string(), version: z.string().nullable() }),
  ),
  sandbox: z.object({
    driver: z.enum(['docker', 'oci']).describe('docker: containers through the Docker engine; oci: the OCI runtime binary run directly'),
    ociRuntime: z.string().describe('runc, crun or runsc'),
  }),
});

const PUBLIC = { auth: 'none' } as const;

/** Liveness, readiness, metrics (outside /api, undocumented) and the language list. */
export function operationsRoutes(app: FastifyInstance, { runner, metrics }: { runner: Runner; metrics: RunnerMetrics }): void {
  defineRoute(app, { method: 'GET', url: '/healthz', summary: 'Liveness', access: PUBLIC, undocumented: true }, async () => ({
    status: 'ok',
  }));
  defineRoute(app, { method: 'GET', url: '/readyz', summary: 'Readiness', access: PUBLIC, undocumented: true }, async ({ reply }) => {
    const readiness = await runner.readiness();
    return reply.code(readiness.ready ? 200 : 503).send({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks });
  });
  defineRoute(
    app,
    { method: 'GET', url: '/metrics', summary: 'Prometheus metrics', access: PUBLIC, undocumented: true },
    async ({ reply }) => reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/code/languages',
      tags: ['code'],
      access: { auth: 'optional-key' },
      summary: 'Languages the runner accepts, with their aliases and interpreter versions',
      response: languagesResponse,
    },
    async () => ({ data: await runner.languages(), sandbox: runner.sandbox }),
  );
}
