import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z, ZodType } from 'zod';
import type { BodyFormat } from './body-parser.js';
import { issuesFromZod, ValidationError, type Issue } from './errors.js';
import type { OpenApiOperation } from './openapi.js';

export interface RouteSpec<P extends ZodType, Q extends ZodType, B extends ZodType> extends OpenApiOperation {
  params?: P;
  query?: Q;
  /** Validates and documents the body; with `bodyFormat: 'text'` the handler parses it, and this only documents it. */
  body?: B;
  bodyFormat?: BodyFormat;
  /** A body that may be left out: a missing one is validated as `{}`. */
  bodyOptional?: boolean;
  /** Picks the schema that validates the body from the parsed query (a body whose shape depends on an `action`); `body` then documents the alternatives. */
  bodyFor?: (query: Parsed<Q>) => ZodType;
  /** Largest body this route reads; the service's MAX_BODY_BYTES otherwise. */
  bodyLimit?: number;
  /** Left out of the OpenAPI document (operational endpoints outside /api). */
  undocumented?: boolean;
}

type Parsed<S extends ZodType> = ZodType extends S ? undefined : z.output<S>;

export interface RouteContext<P extends ZodType, Q extends ZodType, B extends ZodType> {
  request: FastifyRequest;
  reply: FastifyReply;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

function parse(schema: ZodType | undefined, value: unknown, issues: Issue[]): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  issues.push(...issuesFromZod(result.error));
  return undefined;
}

/**
 * The one way to declare a route: its zod schemas validate params, query and body (400 naming each
 * field) and document it in OpenAPI, its access goes to the platform's gate, and the handler's
 * return value is the response body, sent with `status` (204 sends nothing). A handler that needs
 * another status or its own serialisation sends through `reply` itself.
 */
export function defineRoute<P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType>(
  app: FastifyInstance,
  spec: RouteSpec<P, Q, B>,
  handler: (context: RouteContext<P, Q, B>) => Promise<unknown>,
): void {
  if (!spec.undocumented) app.openApi.add(spec);
  const status = spec.status ?? 200;
  app.route({
    method: spec.method,
    url: spec.url,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    config: { access: spec.access, bodyFormat: spec.bodyFormat },
    handler: async (request, reply) => {
      const issues: Issue[] = [];
      const params = parse(spec.params, request.params, issues);
      const query = parse(spec.query, request.query, issues);
      if (issues.length > 0) throw ValidationError.fromIssues(issues);
      const bodySchema = spec.bodyFormat === 'text' ? undefined : (spec.bodyFor?.(query as Parsed<Q>) ?? spec.body);
      const sent = request.body === undefined && spec.bodyOptional ? {} : request.body;
      if (bodySchema && sent === undefined) throw ValidationError.field([], 'request body is empty; send a JSON object');
      const body = bodySchema ? parse(bodySchema, sent, issues) : sent;
      if (issues.length > 0) throw ValidationError.fromIssues(issues);
      const result = await handler({ request, reply, params, query, body } as RouteContext<P, Q, B>);
      if (reply.sent) return reply;
      if (status === 204) return reply.code(204).send();
      return reply.code(status).send(result);
    },
  });
}
