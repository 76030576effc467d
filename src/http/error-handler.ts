import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { BusyError, InvalidRequestError, SandboxError, ShuttingDownError, UnsupportedLanguageError, type Issue } from '../core/errors.js';
import { HttpError } from './http-error.js';

interface Mapped { status: number; body: { error: string; issues?: Issue[] }; headers?: Record<string, string> }

export function issuesFromZod(error: ZodError): Issue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
}

/** The one place where typed errors become HTTP statuses. */
export function mapError(error: unknown): Mapped {
  if (error instanceof HttpError) {
    return { status: error.status, body: { error: error.message, ...(error.extra.issues ? { issues: error.extra.issues } : {}) }, headers: error.extra.headers };
  }
  if (error instanceof InvalidRequestError) return { status: 400, body: { error: error.message, issues: error.issues } };
  if (error instanceof ZodError) return { status: 400, body: { error: 'validation failed', issues: issuesFromZod(error) } };
  if (error instanceof UnsupportedLanguageError) return { status: 422, body: { error: error.message } };
  if (error instanceof BusyError) return { status: 503, body: { error: error.message }, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  if (error instanceof ShuttingDownError) return { status: 503, body: { error: error.message }, headers: { 'retry-after': '5' } };
  if (error instanceof SandboxError) return { status: 502, body: { error: `code runner failed at ${error.message}` } };
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: { error: 'request body too large' } };
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, body: { error: 'Content-Type must be application/json' } };
  if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (fastifyError.statusCode === 400 && error instanceof SyntaxError)) {
    return { status: 400, body: { error: `malformed JSON body: ${fastifyError.message ?? ''}`.trim(), issues: [{ path: [], message: fastifyError.message ?? 'malformed JSON' }] } };
  }
  if (fastifyError.validation) {
    return { status: 400, body: { error: 'validation failed', issues: fastifyError.validation.map((v) => ({ path: (v.instancePath ?? '').split('/').filter(Boolean), message: v.message ?? 'invalid' })) } };
  }
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const issues = fastifyError.statusCode === 400 ? [{ path: [], message: fastifyError.message ?? 'bad request' }] : undefined;
    return { status: fastifyError.statusCode, body: { error: fastifyError.message ?? 'bad request', ...(issues ? { issues } : {}) } };
  }
  return { status: 500, body: { error: 'internal error' } };
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const mapped = mapError(error);
  if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
  reply.code(mapped.status).headers(mapped.headers ?? {}).send(mapped.body);
}
