import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Db } from '../db/database.js';
import { outboxBacklogGauge } from './outbox-backlog.js';
import { countRateLimitRejections } from './rate-limit-rejections.js';

/**
 * Adds the platform's metrics (rate-limit rejections, outbox backlog) to the registry the service
 * serves at /metrics. Call on api and all nodes, before the app is ready; runner nodes have no platform.
 */
export function registerPlatformMetrics(app: FastifyInstance, registry: Registry, db: Db): void {
  countRateLimitRejections(app, registry);
  outboxBacklogGauge(db, registry);
}
