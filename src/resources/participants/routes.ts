import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { issuesFromZod, NotFoundError } from '../../web/errors.js';
import { idParams, listEnvelope, listSchema, paginationQuery } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery, crudRoutes } from '../shared/crud-routes.js';
import type { EventSink } from '../shared/events.js';
import { bulkResult, participantBulk, participantCreate, participantItem, participantListQuery, participantUpdate } from './shapes.js';
import { participantStore } from './store.js';

const SESSION_STATUS = z.enum(['scheduled', 'in_progress', 'completed', 'failed', 'cancelled']);

/** Participants: the generic routes, bulk import, and a participant's sessions. */
export function participantRoutes(app: FastifyInstance, db: Db, emit: EventSink): void {
  const store = participantStore(db);
  crudRoutes(app, {
    noun: 'participant',
    path: '/api/v1/participants',
    tag: 'participants',
    scopes: { read: 'participants:read', write: 'participants:write', delete: 'participants:delete' },
    shapes: { create: participantCreate, update: participantUpdate, list: participantListQuery, item: participantItem },
    store,
    onCreated: (workspaceId, data) => emit({ type: 'participant.created', workspaceId, data }),
  });

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/participants/bulk',
      tags: ['participants'],
      summary: 'Import up to 500 participants; each item is reported by its index, created or rejected',
      access: { auth: 'key-or-cookie', scope: 'participants:write' },
      body: participantBulk,
      response: bulkResult,
    },
    async ({ request, body }) => {
      const { workspaceId } = principalOf(request);
      const results: Array<z.infer<typeof bulkResult>['data']['results'][number]> = [];
      const valid: Array<{ index: number; body: z.output<typeof participantCreate> }> = [];
      body.participants.forEach((item, index) => {
        const parsed = participantCreate.safeParse(item);
        if (parsed.success) valid.push({ index, body: parsed.data });
        else results.push({ index, status: 'rejected', error: 'invalid participant', issues: issuesFromZod(parsed.error) });
      });
      const outcomes = await store.createMany(workspaceId, valid);
      for (const [index, outcome] of outcomes) {
        results.push('id' in outcome ? { index, status: 'created', id: outcome.id } : { index, status: 'rejected', ...outcome });
      }
      results.sort((a, b) => a.index - b.index);
      const created = results.filter((r) => r.status === 'created');
      for (const { id } of created as Array<{ id: string }>)
        emit({ type: 'participant.created', workspaceId, data: await store.get(workspaceId, id) });
      return { data: { created: created.length, rejected: results.length - created.length, results } };
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/participants/:id/sessions',
      tags: ['participants'],
      summary: "A participant's sessions",
      description: 'Paged like every list; empty until sessions are scheduled.',
      access: { auth: 'key-or-cookie', scope: 'sessions:read' },
      params: idParams,
      query: paginationQuery.extend({ status: SESSION_STATUS.optional() }).extend(accountQuery.shape),
      response: listSchema(z.object({ id: z.guid(), status: SESSION_STATUS })),
    },
    async ({ request, params, query }) => {
      if (!(await store.get(principalOf(request).workspaceId, params.id))) throw new NotFoundError(`participant ${params.id} not found`);
      return listEnvelope([], 0, query);
    },
  );
}
