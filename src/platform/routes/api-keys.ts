import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { NotFoundError, ValidationError } from '../../web/errors.js';
import type { Revocations } from '../auth/revocations.js';
import { revokeAndAnnounce } from '../broadcast/revoke.js';
import type { Db } from '../db/database.js';
import { defineRoute } from '../../web/route.js';
import { principalOf } from '../access.js';
import { idParams, limitOffset, listEnvelope, listSchema, paginationQuery } from '../../web/pagination.js';
import { resolveScopes, UnknownScopeError } from '../scopes.js';
import { createApiKey, listApiKeys } from '../store/api-keys.js';
import { apiKeyJson, apiKeySchema } from './serialize.js';

const accountSlug = z.object({ accountSlug: z.string().min(1).describe('slug of the workspace to act on') });

/** Key management for signed-in members; keys cannot manage keys. */
export function apiKeyRoutes(app: FastifyInstance, db: Db, revocations: Revocations): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/api-keys',
      tags: ['api keys'],
      summary: "List the workspace's API keys (no secrets)",
      access: { auth: 'cookie' },
      query: paginationQuery.extend(accountSlug.shape),
      response: listSchema(apiKeySchema),
    },
    async ({ query, request }) => {
      const { rows, total } = await listApiKeys(db, principalOf(request).workspaceId, limitOffset(query));
      return listEnvelope(rows.map(apiKeyJson), total, query);
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/api-keys',
      tags: ['api keys'],
      summary: 'Create an API key; the full key is returned only here',
      access: { auth: 'cookie' },
      status: 201,
      query: accountSlug.partial(),
      body: z.object({
        name: z.string().min(1).max(100).default('api key'),
        scopes: z.union([z.array(z.string()).min(1), z.literal('all')]).describe('scope names in any of the three forms, or "all"'),
        accountSlug: z.string().optional(),
      }),
      response: z.object({ data: apiKeySchema.extend({ key: z.string() }) }),
    },
    async ({ body, request }) => {
      let scopes;
      try {
        scopes = resolveScopes(body.scopes === 'all' ? ['all'] : body.scopes);
      } catch (error) {
        if (error instanceof UnknownScopeError) throw ValidationError.field(['scopes'], error.message);
        throw error;
      }
      const { row, secret } = await createApiKey(db, principalOf(request).workspaceId, body.name, scopes);
      return { data: { ...apiKeyJson(row), key: secret } };
    },
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: '/api/v1/api-keys/:id',
      tags: ['api keys'],
      summary: 'Revoke an API key; its requests under way end with 401, on every node',
      access: { auth: 'cookie' },
      status: 204,
      params: idParams,
      query: accountSlug,
    },
    async ({ params, request }) => {
      const row = await revokeAndAnnounce(db, params.id, principalOf(request).workspaceId);
      if (!row) throw new NotFoundError(`API key ${params.id} not found`);
      revocations.revoked(row.id);
    },
  );
}
