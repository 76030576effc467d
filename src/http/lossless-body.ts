import type { FastifyInstance } from 'fastify';
import { parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { HttpError } from './http-error.js';

/**
 * Parses JSON bodies keeping every number's text (`3.0`, integers beyond 2^53), so that values
 * reach the user's code exactly as the caller wrote them. Registered inside the plugins that need it.
 */
export function useLosslessJson(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(new HttpError(400, 'request body is empty; send a JSON object', { issues: [{ path: [], message: 'body is empty' }] }), undefined);
      return;
    }
    try {
      done(null, parseLossless(text));
    } catch (error) {
      const message = (error as Error).message;
      done(new HttpError(400, `malformed JSON body: ${message}`, { issues: [{ path: [], message }] }), undefined);
    }
  });
}

/** Serialises with the original number texts (the counterpart of useLosslessJson). */
export function losslessJson(value: unknown): string {
  return stringifyLossless(value) ?? 'null';
}
