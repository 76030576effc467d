import type { ZodError } from 'zod';

/**
 * The application's typed failures. Domain code (runner core, platform, features) throws these and
 * knows nothing of HTTP; src/web/error-map.ts is the one table that turns each into an HTTP status
 * and, where a JSON-RPC caller should read it as such, a JSON-RPC error code.
 */
export interface Issue {
  path: string[];
  message: string;
}

/** Zod's issues as the API reports them; an unknown field is named in its own issue's path, not only in the message. */
export function issuesFromZod(error: ZodError): Issue[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key], message: 'unknown field' }));
    return [{ path, message: issue.message }];
  });
}

/** The caller's input is invalid; `issues` names each offending field (400). */
export class ValidationError extends Error {
  constructor(
    message: string,
    readonly issues: Issue[],
  ) {
    super(message);
  }

  static fromIssues(issues: Issue[]): ValidationError {
    return new ValidationError(`validation failed: ${issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ')}`, issues);
  }

  /** One field is wrong. */
  static field(path: string[], message: string): ValidationError {
    return new ValidationError(`${path.join('.') || 'body'}: ${message}`, [{ path, message }]);
  }
}

/** The language is not one the runner supports (422). */
export class UnsupportedLanguageError extends Error {}

/** No credentials, or credentials that are malformed, unknown, revoked or expired (401). */
export class UnauthenticatedError extends Error {}

/** The credentials are valid but do not allow this (403). */
export class ForbiddenError extends Error {}

/** The caller's plan does not include this, or its credits are spent (402). */
export class PaymentRequiredError extends Error {}

/** A monthly allowance of the caller's plan is used up (402). */
export class QuotaExceededError extends Error {}

/** The thing named does not exist for this caller (404). */
export class NotFoundError extends Error {}

/** The request clashes with the current state, such as a duplicate (409). */
export class ConflictError extends Error {}

/** Too many requests in the window (429); `retryAfterSeconds` says when to come back. */
export class RateLimitedError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The queue is full (503 with Retry-After). */
export class BusyError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The runner is shutting down and takes no new work (503). */
export class ShuttingDownError extends Error {}

/** The sandbox stage that failed, so that a 502 explains itself. */
export type SandboxStage = 'engine' | 'image' | 'create' | 'attach' | 'start' | 'write' | 'read' | 'wait' | 'remove' | 'pool' | 'runner';

/** The sandbox failed for a reason that is not the user's code (502). */
export class SandboxError extends Error {
  constructor(
    readonly stage: SandboxStage,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${stage}: ${message}`, options);
  }
}

/**
 * A failure of the HTTP exchange itself (unknown route, a header the endpoint cannot honour, an
 * unreadable body): raised only by code that handles HTTP, never by domain code.
 */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}
