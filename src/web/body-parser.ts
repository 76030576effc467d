import type { FastifyInstance } from 'fastify';
import { ProtocolError } from './errors.js';
import { parseExactJson } from './json.js';

/**
 * How a route reads its JSON body: `json` as plain values (fastify's parser, with its
 * prototype-poisoning protection), `exact` keeping every number's text (code execution, so that
 * 3.0 and big integers reach the user's code as written), `text` unparsed (JSON-RPC answers a
 * parse error itself, with HTTP 200).
 */
export type BodyFormat = 'json' | 'exact' | 'text';

declare module 'fastify' {
  interface FastifyContextConfig {
    bodyFormat?: BodyFormat;
  }
}

/** The service's one application/json parser; an empty body reads as `undefined` in every format but `text`. */
export function installBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const format = request.routeOptions.config.bodyFormat ?? 'json';
    if (format === 'text') return done(null, text);
    if (text.trim() === '') return done(null, undefined);
    if (format === 'json') return parseJson(request, text, done);
    try {
      done(null, parseExactJson(text));
    } catch (error) {
      const message = (error as Error).message;
      done(new ProtocolError(400, `malformed JSON body: ${message}`, [{ path: [], message }]), undefined);
    }
  });
}
