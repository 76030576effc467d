import { z } from 'zod';
import type { JsonSchema } from './tool.js';

/**
 * JSON Schema for a tool's arguments or result, generated from the zod schema the code validates
 * with, so the two cannot drift. Custom checks (refinements, "must be an object" customs) have no
 * JSON Schema form and become unconstrained: the zod schema still enforces them.
 */
export function toolJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  // No "$schema": MCP defaults to 2020-12, and common validators (Ajv's draft-07 default) reject the URI.
  return rest;
}
