import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { ValidationError } from '../../web/errors.js';
import { defineRoute } from '../../web/route.js';
import { crudRoutes } from '../shared/crud-routes.js';
import { createQuery, forkBody, interviewerCreate, interviewerItem, interviewerListQuery, interviewerUpdate } from './shapes.js';
import { interviewerStore } from './store.js';

const SCOPES = { read: 'interviewers:read', write: 'interviewers:write', delete: 'interviewers:delete' } as const;

/** Interviewers (AI personas): the generic routes, with a create that also forks a public interviewer. */
export function interviewerRoutes(app: FastifyInstance, db: Db): void {
  const store = interviewerStore(db);
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/interviewers',
      tags: ['interviewers'],
      summary: 'Create an interviewer, or fork a public one with ?action=fork and { sourceId }',
      access: { auth: 'key-or-cookie', scope: SCOPES.write },
      status: 201,
      query: createQuery,
      body: z.union([interviewerCreate, forkBody]),
      bodyFor: (query) => (query.action === 'fork' ? forkBody : interviewerCreate),
      response: z.object({ data: interviewerItem }),
    },
    async ({ request, query, body }) => {
      const { workspaceId } = principalOf(request);
      if (query.action !== 'fork') return { data: await store.create(workspaceId, body as z.output<typeof interviewerCreate>) };
      const { sourceId } = body as z.output<typeof forkBody>;
      const data = await store.fork(workspaceId, sourceId);
      if (!data) throw ValidationError.field(['sourceId'], 'no public interviewer, and none of this workspace, has this id');
      return { data };
    },
  );
  crudRoutes(app, {
    noun: 'interviewer',
    path: '/api/v1/interviewers',
    tag: 'interviewers',
    scopes: SCOPES,
    shapes: { create: interviewerCreate, update: interviewerUpdate, list: interviewerListQuery, item: interviewerItem },
    store,
    ownCreate: true,
  });
}
