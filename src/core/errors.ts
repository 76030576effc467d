/**
 * Typed failures of the runner core. The HTTP layer maps each kind to a status in one place
 * (src/http/error-handler.ts); the core itself knows nothing of HTTP.
 */
export interface Issue { path: string[]; message: string }

/** The caller's request is invalid (400). */
export class InvalidRequestError extends Error {
  constructor(message: string, readonly issues: Issue[]) { super(message); }
}

/** The language is not one the runner supports (422). */
export class UnsupportedLanguageError extends Error {}

/** The queue is full (503 with Retry-After). */
export class BusyError extends Error {
  constructor(message: string, readonly retryAfterSeconds: number) { super(message); }
}

/** The sandbox stage that failed, so that a 502 explains itself. */
export type SandboxStage = 'engine' | 'image' | 'create' | 'attach' | 'start' | 'write' | 'read' | 'wait' | 'remove' | 'pool';

/** The sandbox failed for a reason that is not the user's code (502). */
export class SandboxError extends Error {
  constructor(readonly stage: SandboxStage, message: string, options?: { cause?: unknown }) {
    super(`${stage}: ${message}`, options);
  }
}

/** The runner is shutting down and takes no new work (503). */
export class ShuttingDownError extends Error {}
