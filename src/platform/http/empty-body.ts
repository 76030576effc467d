import type { FastifyInstance } from 'fastify';

/**
 * POST endpoints without a body must accept an empty one even when it is labelled JSON; fastify's
 * JSON parser refuses that, so an empty body becomes `undefined` and anything else goes to the default
 * parser (which keeps its prototype-poisoning protection).
 */
export function tolerateEmptyJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
