import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../web/route.js';

export const DOCS_PREFIX = '/api/v1/docs';
const INFO = { title: 'Interview Evaluation Service API', version: 'v1' };

/** GET /api/v1/openapi.json and a browsable page at /api/v1/docs, both from the route registry. */
export async function openApiRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(
    app,
    { method: 'GET', url: '/api/v1/openapi.json', summary: 'This document', access: { auth: 'none' }, undocumented: true },
    async () => app.openApi.document(INFO),
  );
  // The UI plugin reads its document from @fastify/swagger, which is told to serve the registry's instead of its own.
  await app.register(swagger, { openapi: { info: INFO }, transformObject: () => app.openApi.document(INFO) });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { deepLinking: true } });
}
