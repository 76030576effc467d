import type { ZodType } from 'zod';
import { jsonSchemaOf } from './json-schema.js';
import type { RouteAccess } from './access.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One operation of the OpenAPI document, described by the same zod schemas that validate it. */
export interface OpenApiOperation {
  method: Method;
  url: string;
  summary: string;
  description?: string;
  tags?: string[];
  access: RouteAccess;
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
  /** The body may be left out. */
  bodyOptional?: boolean;
  /** Success status; 200 unless given. */
  status?: number;
  response?: ZodType;
  /** Further documented outcomes, such as 408 or 422 of code execution. */
  responses?: Record<number, string>;
}

/** What an access rule means for the document: who may call, in words, and the refusals it can give. */
export interface AccessDocs {
  security: Array<Record<string, string[]>>;
  notes: string;
  responses: Record<number, string>;
  extensions?: Record<string, unknown>;
}

/** The platform's part of the document: how access rules read, and the credentials they name. */
export interface AccessDocumentation {
  describe(access: RouteAccess): AccessDocs;
  securitySchemes: Record<string, unknown>;
}

function parameters(schema: ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchemaOf(schema, 'input');
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const errorRef = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationObject(op: OpenApiOperation, access: AccessDocs) {
  const status = op.status ?? 200;
  const responses: Record<string, unknown> = {
    [status]:
      status === 204 || !op.response
        ? { description: status === 204 ? 'No Content' : 'Success' }
        : { description: 'Success', content: { 'application/json': { schema: jsonSchemaOf(op.response, 'output') } } },
  };
  if (op.params || op.query || op.body) responses[400] = errorRef('Validation failed; `issues` names the offending fields');
  for (const [code, description] of Object.entries({ ...access.responses, ...op.responses })) responses[code] = errorRef(description);
  responses[429] = errorRef('Rate limit exceeded; see Retry-After');
  const description = [op.description, access.notes].filter(Boolean).join('\n\n');
  return {
    summary: op.summary,
    ...(description ? { description } : {}),
    ...(op.tags ? { tags: op.tags } : {}),
    ...access.extensions,
    security: access.security,
    parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query')],
    ...(op.body
      ? { requestBody: { required: !op.bodyOptional, content: { 'application/json': { schema: jsonSchemaOf(op.body, 'input') } } } }
      : {}),
    responses,
  };
}

/** Collects operations as routes are declared and renders them as one OpenAPI 3.1 document. */
export class OpenApiRegistry {
  private readonly operations: OpenApiOperation[] = [];

  constructor(private readonly access: AccessDocumentation) {}

  add(operation: OpenApiOperation): void {
    this.operations.push(operation);
  }

  document(info: { title: string; version: string }) {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const op of this.operations) {
      const path = op.url.replace(/:(\w+)/g, '{$1}');
      paths[path] = { ...paths[path], [op.method.toLowerCase()]: operationObject(op, this.access.describe(op.access)) };
    }
    return {
      openapi: '3.1.0',
      info,
      paths,
      components: {
        securitySchemes: this.access.securitySchemes,
        schemas: {
          Error: {
            type: 'object',
            required: ['error'],
            properties: {
              error: { type: 'string' },
              issues: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['path', 'message'],
                  properties: { path: { type: 'array', items: { type: 'string' } }, message: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    openApi: OpenApiRegistry;
  }
}
