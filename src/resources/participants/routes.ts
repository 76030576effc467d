import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { issuesFromZod } from '../../web/errors.js';
import { defineRoute } from '../../web/route.js';
import { crudRoutes } from '../shared/crud-routes.js';
import { bulkResult, participantBulk, participantCreate, participantItem, participantListQuery, participantUpdate } from './shapes.js';
import { participantStore } from './store.js';

/** Participants: the generic routes and bulk import (a participant's sessions are the sessions module's). */
export function participantRoutes(app: FastifyInstance, db: Db): void {
  const store = participantStore(db);
  crudRoutes(app, {
    noun: 'participant',
    path: '/api/v1/participants',
    tag: 'participants',
    scopes: { read: 'participants:read', write: 'participants:write', delete: 'participants:delete' },
    shapes: { create: participantCreate, update: participantUpdate, list: participantListQuery, item: participantItem },
    store,
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
      const created = results.filter((r) => r.status === 'created').length;
      return { data: { created, rejected: results.length - created, results } };
    },
  );
}
