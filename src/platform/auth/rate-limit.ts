import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimitedError } from '../../web/errors.js';

export interface Bucket {
  key: string;
  max: number;
}
export type Limiter = (request: FastifyRequest, reply: FastifyReply, bucket: Bucket) => Promise<void>;

/**
 * Fixed-window counters from @fastify/rate-limit (in memory, or in Redis when given), applied by
 * the platform's own hook once it knows the caller, so that every /api response carries the headers,
 * 401s included. X-RateLimit-Reset is the absolute Unix time in seconds, as the API promises.
 */
export async function createLimiter(app: FastifyInstance, windowSeconds: number, redis?: Redis): Promise<Limiter> {
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: 'platform-rl:' } : {}) });
  const buckets = new WeakMap<FastifyRequest, Bucket>();
  const check = app.createRateLimit({
    timeWindow: windowSeconds * 1000,
    keyGenerator: (request) => buckets.get(request)?.key ?? `ip:${request.ip}`,
    max: (request) => buckets.get(request)?.max ?? 1,
  });
  return async (request, reply, bucket) => {
    buckets.set(request, bucket);
    const outcome = await check(request);
    if (outcome.isAllowed) return;
    const resetAt = Math.ceil((Date.now() + outcome.ttl) / 1000);
    reply.header('x-ratelimit-limit', outcome.max);
    reply.header('x-ratelimit-remaining', outcome.remaining);
    reply.header('x-ratelimit-reset', resetAt);
    if (outcome.isExceeded) {
      const retryAfter = Math.max(1, outcome.ttlInSeconds);
      throw new RateLimitedError(
        `rate limit of ${outcome.max} requests per ${windowSeconds} s exceeded; retry in ${retryAfter} s`,
        retryAfter,
      );
    }
  };
}
