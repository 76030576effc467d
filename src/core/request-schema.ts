import { z } from 'zod';
import { isLosslessNumber } from 'lossless-json';
import { isJsonObject } from '../web/json.js';

/** Request limits; configurable, documented in the README. */
export interface RequestLimits {
  maxCodeBytes: number;
  maxTestCases: number;
  maxDepth: number;
  maxCaseTimeoutMs: number;
}

/**
 * Depth of a JSON value (numbers parsed losslessly count as leaves), or a depth over `limit` as soon
 * as one is seen. Leaves are skipped without a call: an argument of 300 000 numbers is one loop.
 */
function jsonDepth(value: unknown, limit: number, depth = 0): number {
  if (depth > limit) return depth;
  const items = Array.isArray(value) ? (value as unknown[]) : isJsonObject(value) ? Object.values(value) : undefined;
  if (items === undefined) return depth;
  let deepest = depth + 1;
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, jsonDepth(item, limit, depth + 1));
    if (deepest > limit) break;
  }
  return deepest;
}

/** A top-level numeric field arrives as a LosslessNumber when native JSON would change its text (`1e3`, `1000.0`). */
function plainNumber(value: unknown): unknown {
  if (!isLosslessNumber(value)) return value;
  try {
    return value.valueOf();
  } catch {
    return Number.NaN;
  }
}

const jsonObject = z.custom<Record<string, unknown>>(isJsonObject, { message: 'must be an object' });
const identifier = z.string().min(1).max(200);

export function executeRequestSchema(limits: RequestLimits) {
  const depthCheck = (label: string) => (value: unknown, ctx: z.RefinementCtx) => {
    if (jsonDepth(value, limits.maxDepth) > limits.maxDepth) {
      ctx.addIssue({ code: 'custom', message: `${label} is nested deeper than ${limits.maxDepth} levels` });
    }
  };
  const testCase = z
    .object({
      args: jsonObject.superRefine(depthCheck('args')).meta({ description: 'Arguments keyed by parameter name, in parameter order' }),
      expected: z
        .unknown()
        .superRefine(depthCheck('expected'))
        .meta({ description: 'Expected return value (any JSON value, null allowed)' }),
    })
    .superRefine((value, ctx) => {
      if (!('expected' in value)) ctx.addIssue({ code: 'custom', path: ['expected'], message: 'expected is required (it may be null)' });
    });

  return z.object({
    code: z
      .string()
      .min(1, 'code must not be empty')
      .refine((code) => Buffer.byteLength(code, 'utf8') <= limits.maxCodeBytes, {
        message: `code must be at most ${limits.maxCodeBytes} bytes (UTF-8)`,
      })
      .meta({ description: 'Full source to run' }),
    language: z.string().meta({ description: 'python, javascript or typescript (aliases py, js, ts; case-insensitive); others give 422' }),
    functionName: identifier.optional().meta({ description: 'Canonical snake_case name, used if extraction from the source fails' }),
    testCases: z
      .array(testCase)
      .min(1, 'at least one test case is required')
      .max(limits.maxTestCases, `at most ${limits.maxTestCases} test cases are allowed`),
    functionNames: z
      .object({ python: identifier.optional(), javascript: identifier.optional(), typescript: identifier.optional() })
      .optional()
      .meta({ description: 'Per-language function names; typescript falls back to javascript' }),
    pythonFunctionName: identifier.optional().meta({ description: 'Legacy fallback for python' }),
    jsFunctionName: identifier.optional().meta({ description: 'Legacy fallback for javascript and typescript' }),
    caseTimeoutMs: z
      .preprocess(plainNumber, z.number().int().min(1).max(limits.maxCaseTimeoutMs))
      .optional()
      .meta({ description: 'Optional per-case wall-clock limit; a case over it reports error "timed out" and the others still run' }),
  });
}

export type ExecuteRequest = z.infer<ReturnType<typeof executeRequestSchema>>;
export type TestCase = ExecuteRequest['testCases'][number];
