import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

export interface Call {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  key?: string;
  cookie?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function call(
  app: FastifyInstance,
  { method = 'GET', url, key, cookie, body, headers = {} }: Call,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: {
      ...(key !== undefined ? { 'x-api-key': key } : {}),
      ...(cookie ? { cookie, origin: 'http://localhost' } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
}

/** Asserts the status and the error body shape of the API, and returns the body. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
): { error: string; issues?: Array<{ path: string[]; message: string }> } {
  expect(response.statusCode, response.body).toBe(status);
  const body = response.json();
  expect(typeof body.error).toBe('string');
  if (status === 400) expect(Array.isArray(body.issues)).toBe(true);
  return body;
}

export function expectRateLimitHeaders(response: LightMyRequestResponse): void {
  expect(Number(response.headers['x-ratelimit-limit'])).toBeGreaterThan(0);
  expect(response.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  const reset = Number(response.headers['x-ratelimit-reset']);
  const now = Date.now() / 1000;
  // An absolute Unix time in seconds, not a number of seconds from now.
  expect(reset).toBeGreaterThanOrEqual(Math.floor(now));
  expect(reset).toBeLessThanOrEqual(Math.ceil(now) + 3600);
}

/** The `session=...` pair of a login response's Set-Cookie, ready for a Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie']].flat().find((value) => value?.startsWith('session='));
  expect(header).toBeDefined();
  return header!.split(';')[0];
}
