import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z, ZodType } from 'zod';
import type { Issue } from '../../core/errors.js';
import { HttpError } from '../../http/http-error.js';
import type { Access, Principal } from '../access.js';
import type { Method, OpenApiOperation } from '../openapi/registry.js';

export interface RouteSpec<A extends Access, P extends ZodType, Q extends ZodType, B extends ZodType> extends Omit<OpenApiOperation, 'access' | 'params' | 'query' | 'body'> {
  method: Method;
  access: A;
  params?: P;
  query?: Q;
  body?: B;
}

type Parsed<S extends ZodType> = ZodType extends S ? undefined : z.output<S>;

export interface RouteContext<A extends Access, P extends ZodType, Q extends ZodType, B extends ZodType> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /** Always present unless the route admits anonymous callers. */
  principal: A['auth'] extends 'optional-key' | 'none' ? Principal | undefined : Principal;
}

function parse(schema: ZodType | undefined, value: unknown, issues: Issue[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...result.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })));
  return undefined;
}

/**
 * Declares a route from zod schemas: its access (auth, scope, plan, meter) goes to the platform's
 * hook, its schemas validate params, query and body (400 with issues) and document it in OpenAPI.
 * The handler's return value is the response body, sent with `status` (204 sends nothing).
 */
export function defineRoute<const A extends Access, P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType>(
  app: FastifyInstance,
  spec: RouteSpec<A, P, Q, B>,
  handler: (context: RouteContext<A, P, Q, B>) => Promise<unknown>,
): void {
  app.openApiRegistry.add(spec);
  const status = spec.status ?? 200;
  app.route({
    method: spec.method,
    url: spec.url,
    config: { access: spec.access },
    handler: async (request, reply) => {
      const issues: Issue[] = [];
      const params = parse(spec.params, request.params, issues);
      const query = parse(spec.query, request.query, issues);
      const body = parse(spec.body, request.body, issues);
      if (issues.length > 0) throw new HttpError(400, `validation failed: ${issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`, { issues });
      const result = await handler({ request, reply, params, query, body, principal: request.principal } as RouteContext<A, P, Q, B>);
      if (status === 204) return reply.code(204).send();
      return reply.code(status).send(result);
    },
  });
}
