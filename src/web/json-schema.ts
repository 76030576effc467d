import { z } from 'zod';

export type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

/**
 * JSON Schema generated from the zod schema the code validates with, so the two cannot drift
 * (the OpenAPI document and the MCP tools' schemas both use it). Custom checks (refinements, "must
 * be an object" customs) have no JSON Schema form and become unconstrained: zod still enforces them.
 * No "$schema": OpenAPI 3.1 and MCP both default to 2020-12, and common validators (Ajv's draft-07
 * default) reject the URI.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
