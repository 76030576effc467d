import type { FastifyInstance } from 'fastify';
import { z, type ZodObject, type ZodType } from 'zod';
import { principalOf, type Scope } from '../../platform/index.js';
import { NotFoundError } from '../../web/errors.js';
import { idParams, listEnvelope, listSchema, type Pagination } from '../../web/pagination.js';
import type { RouteAccess } from '../../web/access.js';
import { defineRoute } from '../../web/route.js';

/** Cookie callers name the workspace; key callers may leave it out. */
export const accountQuery = z.object({ accountSlug: z.string().optional().describe('with session authentication: the workspace') });

export interface CrudStore<Item, Create, Update, Query> {
  /** Writes the resource and publishes its `<noun>.created` event in the same transaction. */
  create(workspaceId: string, body: Create): Promise<Item>;
  list(workspaceId: string, query: Query): Promise<{ items: Item[]; total: number }>;
  get(workspaceId: string, id: string): Promise<Item | undefined>;
  update(workspaceId: string, id: string, body: Update): Promise<Item | undefined>;
  /** False when there is no such resource in the workspace. */
  remove(workspaceId: string, id: string): Promise<boolean>;
}

export interface CrudSpec<C extends ZodType, U extends ZodType, Q extends ZodObject> {
  /** Singular, for summaries and 404s: "participant". */
  noun: string;
  path: string;
  tag: string;
  scopes: { read: Scope; write: Scope; delete: Scope };
  shapes: { create: C; update: U; list: Q; item: ZodType };
  store: CrudStore<unknown, z.output<C>, z.output<U>, z.output<Q> & Pagination>;
  /** Leave out the create route when the resource declares its own (interviewers fork through it). */
  ownCreate?: boolean;
}

export interface ReadSpec<Q extends ZodObject> {
  /** Singular, for summaries and 404s: "participant". */
  noun: string;
  path: string;
  tags: string[];
  access: RouteAccess;
  list: Q;
  item: ZodType;
  store: {
    list(workspaceId: string, query: z.output<Q> & Pagination): Promise<{ items: unknown[]; total: number }>;
    /** Undefined when there is no such resource in the workspace. */
    get(workspaceId: string, id: string): Promise<unknown>;
  };
}

/** The list (paged, with the resource's filters) and the get by id that every resource has. */
export function readRoutes<Q extends ZodObject>(app: FastifyInstance, spec: ReadSpec<Q>): void {
  const { noun, path, tags, access, store } = spec;
  defineRoute(
    app,
    {
      method: 'GET',
      url: path,
      tags,
      summary: `List ${noun}s`,
      access,
      query: spec.list.extend(accountQuery.shape),
      response: listSchema(spec.item),
    },
    async ({ request, query }) => {
      const { items, total } = await store.list(principalOf(request).workspaceId, query as z.output<Q> & Pagination);
      return listEnvelope(items, total, query as Pagination);
    },
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: `${path}/:id`,
      tags,
      summary: `Get a ${noun}`,
      access,
      params: idParams,
      query: accountQuery,
      response: z.object({ data: spec.item }),
    },
    async ({ request, params }) => {
      const item = await store.get(principalOf(request).workspaceId, params.id);
      if (item === undefined) throw new NotFoundError(`${noun} ${params.id} not found`);
      return { data: item };
    },
  );
}

/** The five routes every resource has, declared the one way: create, list, get, update, delete. */
export function crudRoutes<C extends ZodType, U extends ZodType, Q extends ZodObject>(app: FastifyInstance, spec: CrudSpec<C, U, Q>): void {
  const { noun, path, tag, scopes, shapes, store } = spec;
  const one = z.object({ data: shapes.item });
  const missing = (id: string) => new NotFoundError(`${noun} ${id} not found`);

  if (!spec.ownCreate) {
    defineRoute(
      app,
      {
        method: 'POST',
        url: path,
        tags: [tag],
        summary: `Create a ${noun}`,
        access: { auth: 'key-or-cookie', scope: scopes.write },
        status: 201,
        query: accountQuery,
        body: shapes.create,
        response: one,
      },
      async ({ request, body }) => ({ data: await store.create(principalOf(request).workspaceId, body as z.output<C>) }),
    );
  }

  readRoutes(app, {
    noun,
    path,
    tags: [tag],
    access: { auth: 'key-or-cookie', scope: scopes.read },
    list: shapes.list,
    item: shapes.item,
    store,
  });

  defineRoute(
    app,
    {
      method: 'PATCH',
      url: `${path}/:id`,
      tags: [tag],
      summary: `Update a ${noun}`,
      access: { auth: 'key-or-cookie', scope: scopes.write },
      params: idParams,
      query: accountQuery,
      body: shapes.update,
      response: one,
    },
    async ({ request, params, body }) => ({
      data: (await store.update(principalOf(request).workspaceId, params.id, body as z.output<U>)) ?? throwing(missing(params.id)),
    }),
  );

  defineRoute(
    app,
    {
      method: 'DELETE',
      url: `${path}/:id`,
      tags: [tag],
      summary: `Delete a ${noun}`,
      description: 'Refused with 409, naming them, while other resources point to it.',
      access: { auth: 'key-or-cookie', scope: scopes.delete },
      status: 204,
      params: idParams,
      query: accountQuery,
      responses: { 409: 'Other resources still point to it' },
    },
    async ({ request, params }) => {
      if (!(await store.remove(principalOf(request).workspaceId, params.id))) throw missing(params.id);
    },
  );
}

function throwing(error: Error): never {
  throw error;
}
