import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, type Registry } from 'prom-client';

/** Who was turned away, as far as the request tells before the guard knew the caller: a rejected request never gets a principal. */
function callerOf(request: FastifyRequest): 'key' | 'session' | 'anonymous' {
  if (request.headers['x-api-key'] !== undefined) return 'key';
  return request.headers.cookie ? 'session' : 'anonymous';
}

/**
 * Counts the /api requests the rate limiter refused. The limiter is the one source of 429 answers
 * (src/web/error-map.ts), so the answer's status is the event; counting it here leaves the limiter as it is.
 * Call before the app is ready: the hook must reach every route.
 */
export function countRateLimitRejections(app: FastifyInstance, registry: Registry): void {
  const rejections = new Counter({
    name: 'code_runner_rate_limit_rejections_total',
    help: 'Requests refused by the rate limiter (429), by kind of caller',
    labelNames: ['caller'],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 429) rejections.inc({ caller: callerOf(request) });
  });
}
