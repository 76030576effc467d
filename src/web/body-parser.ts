import type { FastifyInstance } from 'fastify';
import { ProtocolError } from './errors.js';
import { exactJsonWire, fromExactJsonWire } from './exact-json-wire.js';
import { jsonThread, threadTask } from './json-thread.js';
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

/**
 * An `exact` body up to this size is parsed on the event loop (under a millisecond); a longer one
 * in the JSON thread (lossless-json takes about 100 ms per MiB), and rebuilt here in slices.
 */
const INLINE_EXACT_CHARS = 8 * 1024;

const exactJsonTask = threadTask(import.meta.url, './exact-json-wire', 'exactJsonWire', exactJsonWire);

/** `text` parsed keeping every number's text: in the JSON thread when it is long, so the event loop stays free. */
export async function parseExactText(text: string): Promise<unknown> {
  if (text.length <= INLINE_EXACT_CHARS) return parseExactJson(text);
  return fromExactJsonWire(await jsonThread.run(exactJsonTask, text));
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
    parseExactText(text).then(
      (value) => done(null, value),
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        done(new ProtocolError(400, `malformed JSON body: ${message}`, [{ path: [], message }]), undefined);
      },
    );
  });
}
