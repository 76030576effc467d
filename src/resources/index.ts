import type { FastifyInstance } from 'fastify';
import type { Db, OutboxHandler } from '../platform/index.js';
import type { ResourcesConfig } from './config.js';
import { interviewerRoutes } from './interviewers/routes.js';
import { resumeHandler } from './participants/resume.js';
import { resumeRoutes } from './participants/resume-routes.js';
import { participantRoutes } from './participants/routes.js';
import { programRoutes } from './programs/routes.js';
import { roleRoutes } from './roles/routes.js';
import { roundRoutes } from './rounds/routes.js';
import { sessionRoutes } from './sessions/routes.js';
import { webhookHandler } from './webhooks/handler.js';
import { webhookRoutes } from './webhooks/routes.js';

/** The interview resources (docs/resources.md): participants, roles, rounds, interviewers, programs, sessions and webhooks. */
export function registerResources(app: FastifyInstance, options: { db: Db; mailFrom: string }): void {
  for (const routes of [participantRoutes, resumeRoutes, roleRoutes, roundRoutes, interviewerRoutes, programRoutes, webhookRoutes])
    routes(app, options.db);
  sessionRoutes(app, options.db, { mailFrom: options.mailFrom });
}

/** What the resources deliver from the outbox, for `platform.startOutbox`. */
export function resourceOutboxHandlers(db: Db, config: ResourcesConfig): Record<'webhook' | 'resume', OutboxHandler> {
  return { webhook: webhookHandler(db, config), resume: resumeHandler(db, config) };
}
