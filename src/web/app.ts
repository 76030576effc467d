import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { installBodyParser } from './body-parser.js';
import { errorHandler } from './error-map.js';
import { ProtocolError } from './errors.js';
import { OpenApiRegistry, type AccessDocumentation } from './openapi.js';

export interface AppOptions {
  logger: FastifyBaseLogger;
  bodyLimit: number;
  accessDocumentation: AccessDocumentation;
  /** Addresses or CIDRs of the proxies whose X-Forwarded-For is believed; none: the socket's peer is the client. */
  trustProxy?: string[];
}

/** A fastify instance with the kit installed: the error table, the body parser, the OpenAPI registry, 404s and graceful close. */
export function createApp(options: AppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    bodyLimit: options.bodyLimit,
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    // Shutdown waits for in-flight executions, which are bounded by the execution timeout.
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  app.setErrorHandler(errorHandler);
  installBodyParser(app);
  app.decorate('openApi', new OpenApiRegistry(options.accessDocumentation));
  // While shutting down, answers close their keep-alive connection, so close() is not held open
  // by clients whose in-flight requests just finished.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (closing) reply.header('connection', 'close');
    return payload;
  });
  app.setNotFoundHandler((request) => {
    throw new ProtocolError(404, `no route for ${request.method} ${request.url.split('?')[0]}`);
  });
  return app;
}
