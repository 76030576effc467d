import type { FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { jsonSchemaOf } from '../../http/json-schema.js';
import type { Access } from '../access.js';
import { SCOPE_ALIASES } from '../scopes.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of the OpenAPI document, described by the same zod schemas that validate it. */
export interface OpenApiOperation {
  method: Method;
  url: string;
  summary: string;
  description?: string;
  tags?: string[];
  access: Access;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** Success status; 200 unless given. */
  status?: number;
  response?: ZodType;
  /** Further documented outcomes, such as 408 or 422 of code execution. */
  responses?: Record<number, string>;
}

function parameters(schema: ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchemaOf(schema, 'input');
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name, in: location, required: location === 'path' || (object.required ?? []).includes(name), schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const SECURITY: Record<Access['auth'], Array<Record<string, string[]>>> = {
  key: [{ apiKey: [] }],
  'key-or-cookie': [{ apiKey: [] }, { session: [] }],
  cookie: [{ session: [] }],
  'optional-key': [{}, { apiKey: [] }],
  none: [],
};

const errorRef = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

function accessNotes(access: Access): string {
  const notes: string[] = [];
  if (access.scope) {
    const names = Object.entries(SCOPE_ALIASES).filter(([, scopes]) => scopes.includes(access.scope!)).map(([name]) => name);
    notes.push(`Scope: \`${access.scope}\` (granted by ${names.map((n) => `\`${n}\``).join(', ')}).`);
  }
  if (access.auth === 'optional-key') notes.push('Anonymous calls are allowed; a key that is sent must be valid.');
  if (access.paidPlan) notes.push('API-key callers need a paid plan (402 on free).');
  if (access.meter) notes.push(access.meter === 'credits' ? 'Costs 1 credit (402 when none are left).' : `Counts against the monthly \`${access.meter}\` allowance (402 past it).`);
  return notes.join(' ');
}

function operationObject(op: OpenApiOperation) {
  const status = op.status ?? 200;
  const responses: Record<string, unknown> = {
    [status]: status === 204 || !op.response
      ? { description: status === 204 ? 'No Content' : 'Success' }
      : { description: 'Success', content: { 'application/json': { schema: jsonSchemaOf(op.response, 'output') } } },
  };
  if (op.params || op.query || op.body) responses[400] = errorRef('Validation failed; `issues` names the offending fields');
  if (op.access.auth !== 'none') responses[401] = errorRef('Missing, malformed, invalid or revoked API key (or session)');
  if (op.access.paidPlan || op.access.meter) responses[402] = errorRef('No paid plan, out of credits or past the monthly allowance');
  if (op.access.scope) responses[403] = errorRef('The key lacks the required scope');
  if (op.access.auth === 'key-or-cookie' || op.access.auth === 'cookie') responses[404] ??= errorRef('Not found, or the signed-in user is not a member of accountSlug');
  for (const [code, description] of Object.entries(op.responses ?? {})) responses[code] = errorRef(description);
  responses[429] = errorRef('Rate limit exceeded; see Retry-After');
  const description = [op.description, accessNotes(op.access)].filter(Boolean).join('\n\n');
  return {
    summary: op.summary,
    ...(description ? { description } : {}),
    ...(op.tags ? { tags: op.tags } : {}),
    ...(op.access.scope ? { 'x-required-scope': op.access.scope } : {}),
    security: SECURITY[op.access.auth],
    parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query')],
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input') } } } } : {}),
    responses,
  };
}

/** Collects operations as routes are declared and renders them as one OpenAPI 3.1 document. */
export class OpenApiRegistry {
  private readonly operations: OpenApiOperation[] = [];

  add(operation: OpenApiOperation): void {
    this.operations.push(operation);
  }

  document(info: { title: string; version: string }) {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of this.operations) {
      const path = op.url.replace(/:(\w+)/g, '{$1}');
      paths[path] = { ...paths[path], [op.method.toLowerCase()]: operationObject(op) };
    }
    return {
      openapi: '3.1.0',
      info,
      paths,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
          session: { type: 'apiKey', in: 'cookie', name: 'session' },
        },
        schemas: {
          Error: {
            type: 'object', required: ['error'],
            properties: {
              error: { type: 'string' },
              issues: { type: 'array', items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } } } },
            },
          },
        },
      },
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    openApiRegistry: OpenApiRegistry;
  }
}

/** Documents an operation whose route validates by itself (code execution parses its body losslessly). */
export function registerOpenApiOperation(app: FastifyInstance, operation: OpenApiOperation): void {
  app.openApiRegistry.add(operation);
}
