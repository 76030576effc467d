import type { FastifyInstance } from 'fastify';
import type { ExecutionRunner } from '../core/runner.js';
import { languagesAnswer } from '../tier/protocol.js';
import { defineRoute } from '../web/route.js';
import type { RunnerMetrics } from './metrics.js';

const PUBLIC = { auth: 'none' } as const;

/** Liveness, readiness and metrics (outside /api, undocumented): every node has them, a runner node too. */
export function operationsRoutes(app: FastifyInstance, { runner, metrics }: { runner: ExecutionRunner; metrics: RunnerMetrics }): void {
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
}

/** GET /api/v1/code/languages: the languages the runner accepts (on an api node, as its runner nodes report them). */
export function languagesRoute(app: FastifyInstance, { runner }: { runner: ExecutionRunner }): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/code/languages',
      tags: ['code'],
      access: { auth: 'optional-key' },
      summary: 'Languages the runner accepts, with their aliases and interpreter versions',
      response: languagesAnswer,
    },
    // languages() first: on an api node it is the call that brings the runner nodes' sandbox description
    async () => ({ data: await runner.languages(), sandbox: runner.sandbox }),
  );
}
