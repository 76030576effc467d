import type { Issue } from '../core/errors.js';

/** An error raised by the HTTP layer itself (auth, plans, limits, routing): it already knows its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { issues?: Issue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
  }
}
