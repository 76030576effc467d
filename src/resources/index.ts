import type { FastifyInstance } from 'fastify';
import type { Db } from '../platform/index.js';
import { interviewerRoutes } from './interviewers/routes.js';
import { participantRoutes } from './participants/routes.js';
import { programRoutes } from './programs/routes.js';
import { roleRoutes } from './roles/routes.js';
import { roundRoutes } from './rounds/routes.js';
import type { EventSink } from './shared/events.js';

/** The interview resources (docs/resources.md): participants, roles, rounds, interviewers and programs. */
export function registerResources(app: FastifyInstance, options: { db: Db; onEvent?: EventSink }): void {
  const emit = options.onEvent ?? (() => undefined);
  for (const routes of [participantRoutes, roleRoutes, roundRoutes, interviewerRoutes, programRoutes]) routes(app, options.db, emit);
}
