import type { ZodType, z } from 'zod';
import { executeResponseSchema } from '../core/result-schema.js';
import type { Execution } from '../core/runner.js';
import { BusyError, SandboxError, ShuttingDownError, UnsupportedLanguageError, ValidationError } from '../web/errors.js';
import { parseExactText } from '../web/body-parser.js';
import { executionMeta, runnerErrorBody, TIER_HEADERS } from './protocol.js';
import type { RunnerAnswer } from './runner-client.js';

const garbled = (what: string) => new SandboxError('runner', `garbled answer (${what})`);

/**
 * `text` parsed and checked against `schema` (which transforms nothing); a 502 naming what was wrong
 * otherwise. The parsed value itself is returned, not zod's copy, which could lose keys such as "__proto__".
 */
export function parsedAnswer<S extends ZodType>(schema: S, text: string, parse: (text: string) => unknown): z.output<S> {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    throw garbled((error as Error).message);
  }
  return checkedAnswer(schema, value);
}

function checkedAnswer<S extends ZodType>(schema: S, value: unknown): z.output<S> {
  const checked = schema.safeParse(value);
  if (!checked.success) throw garbled(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return value as z.output<S>;
}

/**
 * A 503 that says the runner node is shutting down (ours, or fastify's own while it closes): it
 * refused the job before starting it, so sending it again cannot run it twice.
 */
export function refusedForShutdown(answer: RunnerAnswer): boolean {
  return answer.status === 503 && answer.headers[TIER_HEADERS.refused] !== 'busy';
}

/** The typed error a runner node's failure answer stands for, so the api node answers exactly as a single node does. */
export function answerError(answer: RunnerAnswer): Error {
  const parsed = runnerErrorBody.safeParse(safeJson(answer.body));
  const body = parsed.success ? parsed.data : undefined;
  if (answer.status === 400 && body) return new ValidationError(body.error, body.issues ?? []);
  if (answer.status === 422 && body) return new UnsupportedLanguageError(body.error);
  if (answer.status === 502 && body?.stage && body.detail !== undefined) return new SandboxError(body.stage, body.detail);
  if (answer.status === 503 && answer.headers[TIER_HEADERS.refused] === 'busy' && body) {
    return new BusyError(body.error, Number(answer.headers['retry-after']) || 1);
  }
  if (answer.status === 503) return new ShuttingDownError('the runner is shutting down');
  if (answer.status === 401) return new SandboxError('runner', 'refused the runner token (401); check RUNNER_TOKEN on both tiers');
  return new SandboxError('runner', `answered ${answer.status}${body ? ` (${body.error})` : ''}`);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A runner node's answer as the Execution its Runner returned there; the results keep every number's
 * text. A long answer (up to the result budget, 4 MiB) is parsed in the JSON thread, so that one
 * caller's large results do not hold up the api node's other requests.
 */
export async function executionFrom(answer: RunnerAnswer, sentAt: number): Promise<Execution> {
  const hopMs = Math.max(0, Date.now() - sentAt);
  if (answer.status !== 200) throw answerError(answer);
  const { status, language, timings, elapsedMs } = parsedAnswer(
    executionMeta,
    String(answer.headers[TIER_HEADERS.execution] ?? ''),
    JSON.parse,
  );
  let value: unknown;
  try {
    value = await parseExactText(answer.body);
  } catch (error) {
    throw garbled((error as Error).message);
  }
  const { results } = checkedAnswer(executeResponseSchema, value);
  return { status, language, results, timings: { ...timings, hopMs: Math.max(0, hopMs - elapsedMs) } };
}
