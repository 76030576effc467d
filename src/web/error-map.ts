import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import {
  BusyError,
  ConflictError,
  ForbiddenError,
  issuesFromZod,
  NotFoundError,
  PaymentRequiredError,
  ProtocolError,
  QuotaExceededError,
  RateLimitedError,
  SandboxError,
  ShuttingDownError,
  UnauthenticatedError,
  UnsupportedLanguageError,
  ValidationError,
  type Issue,
} from './errors.js';

interface ErrorBody {
  error: string;
  issues?: Issue[];
}

export interface HttpAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

/** JSON-RPC 2.0 error codes this service answers with. */
export const RpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

type ErrorClass = abstract new (...args: never[]) => Error;

interface Row {
  status: number;
  /** Set where a JSON-RPC caller reads the failure as an error object; unset, it ends the HTTP exchange with `status`. */
  rpc?: number;
  headers?: (error: Error) => Record<string, string>;
  message?: (error: Error) => string;
}

/** The one table from typed failures to HTTP statuses and JSON-RPC codes. */
const TABLE: ReadonlyArray<readonly [ErrorClass, Row]> = [
  [ValidationError, { status: 400, rpc: RpcCode.InvalidParams }],
  [UnauthenticatedError, { status: 401 }],
  [PaymentRequiredError, { status: 402 }],
  [QuotaExceededError, { status: 402 }],
  [ForbiddenError, { status: 403 }],
  [NotFoundError, { status: 404, rpc: RpcCode.InvalidParams }],
  [ConflictError, { status: 409, rpc: RpcCode.InvalidParams }],
  [UnsupportedLanguageError, { status: 422, rpc: RpcCode.InvalidParams }],
  [RateLimitedError, { status: 429, headers: (e) => ({ 'retry-after': String((e as RateLimitedError).retryAfterSeconds) }) }],
  [SandboxError, { status: 502, message: (e) => `code runner failed at ${e.message}` }],
  [BusyError, { status: 503, headers: (e) => ({ 'retry-after': String((e as BusyError).retryAfterSeconds) }) }],
  [ShuttingDownError, { status: 503, headers: () => ({ 'retry-after': '5' }) }],
];

const rowOf = (error: unknown): Row | undefined => TABLE.find(([type]) => error instanceof type)?.[1];

function issuesOf(error: Error): Issue[] | undefined {
  if (error instanceof ValidationError) return error.issues;
  if (error instanceof ProtocolError) return error.issues;
  return undefined;
}

/** What fastify itself raises before a handler runs (body limits, media types, unparsable JSON). */
function fromFastify(error: Partial<FastifyError>): HttpAnswer | undefined {
  const message = error.message ?? 'bad request';
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, body: { error: 'request body too large' } };
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, body: { error: 'Content-Type must be application/json' } };
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error.statusCode === 400 && error instanceof SyntaxError)) {
    return { status: 400, body: { error: `malformed JSON body: ${message}`, issues: [{ path: [], message }] } };
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { error: message, ...(error.statusCode === 400 ? { issues: [{ path: [], message }] } : {}) } };
  }
  return undefined;
}

/** The HTTP answer for any error: typed failures by the table, everything unknown as 500. */
export function httpAnswer(error: unknown): HttpAnswer {
  if (error instanceof ZodError) return httpAnswer(ValidationError.fromIssues(issuesFromZod(error)));
  if (error instanceof ProtocolError)
    return { status: error.status, body: { error: error.message, ...(error.issues ? { issues: error.issues } : {}) } };
  const row = rowOf(error);
  if (row && error instanceof Error) {
    const issues = issuesOf(error);
    return {
      status: row.status,
      body: { error: row.message?.(error) ?? error.message, ...(issues ? { issues } : {}) },
      headers: row.headers?.(error),
    };
  }
  return fromFastify(error as Partial<FastifyError>) ?? { status: 500, body: { error: 'internal error' } };
}

/**
 * How a failure inside a JSON-RPC method reaches the caller: an error object with a code, or (for
 * failures of the exchange itself, such as auth, plan or a busy runner) the HTTP answer; undefined
 * for anything unknown, which the caller reports as an internal error.
 */
export function rpcAnswer(error: unknown): { code: number; message: string; data?: unknown } | 'http' | undefined {
  const row = rowOf(error);
  if (!row || !(error instanceof Error)) return error instanceof ProtocolError ? 'http' : undefined;
  if (row.rpc === undefined) return 'http';
  const issues = issuesOf(error);
  return { code: row.rpc, message: error.message, ...(issues ? { data: { issues } } : {}) };
}

export function errorHandler(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const answer = httpAnswer(error);
  if (answer.status >= 500) request.log.error({ err: error }, 'request failed');
  reply
    .code(answer.status)
    .headers(answer.headers ?? {})
    .send(answer.body);
}
