import { BusyError, SandboxError, ShuttingDownError } from '../../web/errors.js';

/** Text for the runner being unavailable, which the caller may retry; undefined for any other error. */
export function runnerUnavailableText(error: unknown): string | undefined {
  if (error instanceof BusyError) return `The code runner is busy; retry in ${error.retryAfterSeconds} s.`;
  if (error instanceof ShuttingDownError) return 'The code runner is shutting down; retry shortly.';
  if (error instanceof SandboxError) return `The code runner failed (${error.message}); retrying is safe.`;
  return undefined;
}
