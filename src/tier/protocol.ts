import { z } from 'zod';
import { LANGUAGES } from '../core/languages.js';
import type { SandboxStage } from '../web/errors.js';

/**
 * The internal endpoint between an api node and the runner nodes (docs/runner-tier.md): its paths,
 * headers and the shapes that travel in them. Not under /api and not in the public OpenAPI document.
 */
export const INTERNAL_PATHS = { execute: '/internal/v1/execute', languages: '/internal/v1/languages' } as const;

export const TIER_HEADERS = {
  /** Whose line the execution waits in on the runner node: the api node's caller (key or client IP). */
  caller: 'x-runner-caller',
  /** Milliseconds from the runner node's receipt by which it must answer: the api node's remaining budget, less the hop's margin. */
  budget: 'x-runner-budget-ms',
  /** A 200's execution summary (executionMeta): status, language, timings. */
  execution: 'x-runner-execution',
  /** Why a 503 refused the job before it started: busy (not retried) or shutting-down (retried once). */
  refused: 'x-runner-refused',
} as const;

/** The summary of a finished execution; its results are the body, exactly as the public endpoint writes them. */
export const executionMeta = z.object({
  status: z.enum(['completed', 'timed-out']),
  language: z.enum(LANGUAGES),
  timings: z.object({ queueMs: z.number(), acquireMs: z.number(), runMs: z.number() }),
  /** From the request's receipt to the answer being ready on the runner node: the api node subtracts it to measure the hop. */
  elapsedMs: z.number(),
});

const SANDBOX_STAGES = [
  'engine',
  'image',
  'create',
  'attach',
  'start',
  'write',
  'read',
  'wait',
  'remove',
  'pool',
  'runner',
] as const satisfies readonly SandboxStage[];

/** A runner node's error body: the public one, plus the failed stage and its own message for a 502, so the api node can answer the same text. */
export const runnerErrorBody = z.object({
  error: z.string(),
  issues: z.array(z.object({ path: z.array(z.string()), message: z.string() })).optional(),
  stage: z.enum(SANDBOX_STAGES).optional(),
  detail: z.string().optional(),
});

/** GET /api/v1/code/languages's answer, which a runner node's internal languages route gives too. */
export const languagesAnswer = z.object({
  data: z.array(
    z.object({ language: z.enum(LANGUAGES), aliases: z.array(z.string()), runtime: z.string(), version: z.string().nullable() }),
  ),
  sandbox: z.object({
    driver: z.enum(['docker', 'oci']).describe('docker: containers through the Docker engine; oci: the OCI runtime binary run directly'),
    ociRuntime: z.string().describe('runc, crun or runsc'),
  }),
});
