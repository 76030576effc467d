import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { NotFoundError } from '../../web/errors.js';
import { idParams, listEnvelope, listSchema, paginationQuery } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery, readRoutes } from '../shared/crud-routes.js';
import { deliveryItem, deliveryListQuery, webhookCreate, webhookCreated, webhookItem } from './shapes.js';
import { webhookStore } from './store.js';

/** The contract names one webhook scope: it covers reading endpoints and deliveries too. */
const ACCESS = { auth: 'key-or-cookie', scope: 'webhooks:write' } as const;
const TAGS = ['webhooks'];

/** Webhook endpoints and their deliveries (docs/webhooks.md). */
export function webhookRoutes(app: FastifyInstance, db: Db): void {
  const store = webhookStore(db);
  const missing = (id: string) => new NotFoundError(`webhook endpoint ${id} not found`);

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/webhooks',
      tags: TAGS,
      summary: 'Create a webhook endpoint',
      description: 'The answer carries the signing secret; no other answer shows it again.',
      access: ACCESS,
      status: 201,
      query: accountQuery,
      body: webhookCreate,
      response: z.object({ data: webhookCreated }),
    },
    async ({ request, body }) => ({ data: await store.create(principalOf(request).workspaceId, body) }),
  );

  readRoutes(app, {
    noun: 'webhook endpoint',
    path: '/api/v1/webhooks',
    tags: TAGS,
    access: ACCESS,
    list: paginationQuery,
    item: webhookItem,
    store,
  });

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/api/v1/webhooks/:id',
      tags: TAGS,
      summary: 'Delete a webhook endpoint',
      description: 'Its undelivered events end as failed deliveries; nothing more is sent to it.',
      access: ACCESS,
      status: 204,
      params: idParams,
      query: accountQuery,
    },
    async ({ request, params }) => {
      if (!(await store.remove(principalOf(request).workspaceId, params.id))) throw missing(params.id);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/webhooks/:id/deliveries',
      tags: TAGS,
      summary: "A webhook endpoint's deliveries, newest first, with every attempt",
      access: ACCESS,
      params: idParams,
      query: deliveryListQuery.extend(accountQuery.shape),
      response: listSchema(deliveryItem),
    },
    async ({ request, params, query }) => {
      const page = await store.deliveries(principalOf(request).workspaceId, params.id, query);
      if (!page) throw missing(params.id);
      return listEnvelope(page.items, page.total, query);
    },
  );
}
