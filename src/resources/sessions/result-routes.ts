import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf } from '../../platform/index.js';
import { idParams } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery } from '../shared/crud-routes.js';
import { READ, TAGS } from './access.js';
import { recordingItem, scorecardItem, transcriptItem } from './shapes.js';
import type { sessionStore } from './store.js';

/** What a completed session left: its scorecard, transcript and recording, each 404 until there is one. */
export function resultRoutes(app: FastifyInstance, store: ReturnType<typeof sessionStore>): void {
  const common = { method: 'GET', tags: TAGS, access: READ, params: idParams, query: accountQuery } as const;

  defineRoute(
    app,
    {
      ...common,
      url: '/api/v1/sessions/:id/scorecard',
      summary: "A completed session's scorecard: per-dimension scores, weighted score, pass decision, recommendation",
      response: z.object({ data: scorecardItem }),
      responses: { 404: 'No such session, or no scorecard yet' },
    },
    async ({ request, params }) => ({ data: await store.scorecard(principalOf(request).workspaceId, params.id) }),
  );

  defineRoute(
    app,
    {
      ...common,
      url: '/api/v1/sessions/:id/transcript',
      summary: "A completed session's transcript",
      response: z.object({ data: transcriptItem }),
      responses: { 404: 'No such session, or no transcript' },
    },
    async ({ request, params }) => ({ data: await store.transcript(principalOf(request).workspaceId, params.id) }),
  );

  defineRoute(
    app,
    {
      ...common,
      url: '/api/v1/sessions/:id/recording',
      summary: "A completed session's recording URL",
      response: z.object({ data: recordingItem }),
      responses: { 404: 'No such session, or no recording' },
    },
    async ({ request, params }) => ({ data: await store.recording(principalOf(request).workspaceId, params.id) }),
  );
}
