import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { idParams } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery } from '../shared/crud-routes.js';
import { TAGS, WRITE } from './access.js';
import { completeSession } from './complete.js';
import { transition, type Transition } from './lifecycle.js';
import { announce, contextOf } from './notify.js';
import { presentSession } from './present.js';
import { scorecardBody } from './scorecard.js';
import { cancelBody, failBody, scorecardItem, sessionItem } from './shapes.js';

const EVENTS = { start: 'session.started', fail: 'session.failed', cancel: 'session.cancelled' } as const;

/** The lifecycle: scheduled → in_progress → completed | failed, and scheduled | in_progress → cancelled. */
export function lifecycleRoutes(app: FastifyInstance, db: Db): void {
  const move = (workspaceId: string, id: string, step: Exclude<Transition, 'complete'>, reason?: string) =>
    db.transaction(async (tx) => {
      const row = await transition(tx, workspaceId, id, step, reason);
      await announce(tx, EVENTS[step], row, (await contextOf(tx, row)).participant.external_id);
      return { data: presentSession(row) };
    });

  const common = { tags: TAGS, access: WRITE, params: idParams, query: accountQuery, response: z.object({ data: sessionItem }) } as const;

  defineRoute(
    app,
    {
      ...common,
      method: 'POST',
      url: '/api/v1/sessions/:id/start',
      summary: 'Start a scheduled session (in_progress)',
      description: 'Takes no body. 409 naming the status unless the session is scheduled.',
      responses: { 409: 'The session is not scheduled' },
    },
    async ({ request, params }) => move(principalOf(request).workspaceId, params.id, 'start'),
  );

  defineRoute(
    app,
    {
      ...common,
      method: 'POST',
      url: '/api/v1/sessions/:id/fail',
      summary: 'Mark an in_progress session failed, with the reason',
      description: '409 naming the status unless the session is in_progress.',
      body: failBody,
      responses: { 409: 'The session is not in_progress' },
    },
    async ({ request, params, body }) => move(principalOf(request).workspaceId, params.id, 'fail', body.reason),
  );

  defineRoute(
    app,
    {
      ...common,
      method: 'POST',
      url: '/api/v1/sessions/:id/cancel',
      summary: 'Cancel a scheduled or in_progress session',
      description:
        'An optional reason is kept in status_history. 409 naming the status once the session is completed, failed or cancelled.',
      body: cancelBody,
      bodyOptional: true,
      responses: { 409: 'The session is already completed, failed or cancelled' },
    },
    async ({ request, params, body }) => move(principalOf(request).workspaceId, params.id, 'cancel', body.reason),
  );

  defineRoute(
    app,
    {
      ...common,
      method: 'POST',
      url: '/api/v1/sessions/:id/scorecard',
      summary: 'Report the interview: scores, transcript, recording; computes the scorecard and completes the session',
      description:
        "Scores are by the names of the round's interviewer's dimensions, on its scoring.scale (0-10 unless set). 409 unless the session is in_progress, or when its round has no interviewer.",
      status: 201,
      body: scorecardBody,
      response: z.object({ data: scorecardItem }),
      responses: { 409: 'The session is not in_progress, or its round has no interviewer' },
    },
    async ({ request, params, body }) => ({ data: await completeSession(db, principalOf(request).workspaceId, params.id, body) }),
  );
}
