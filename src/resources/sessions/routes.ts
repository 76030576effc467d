import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { NotFoundError } from '../../web/errors.js';
import { idParams, listEnvelope, listSchema } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery, readRoutes } from '../shared/crud-routes.js';
import { READ, TAGS, WRITE } from './access.js';
import { createSession } from './create.js';
import { lifecycleRoutes } from './lifecycle-routes.js';
import { lockedIn, reschedule } from './lifecycle.js';
import { announce, contextOf, queueInvite } from './notify.js';
import { resultRoutes } from './result-routes.js';
import {
  participantSessionsQuery,
  sessionCreate,
  sessionCreated,
  sessionItem,
  sessionListQuery,
  sessionReschedule,
  success,
} from './shapes.js';
import { sessionStore } from './store.js';

export interface SessionSettings {
  /** The sender of invites (MAIL_FROM). */
  mailFrom: string;
}

/** Sessions (docs/sessions.md): scheduling, the lifecycle, invites and events through the outbox, and scorecards. */
export function sessionRoutes(app: FastifyInstance, db: Db, settings: SessionSettings): void {
  const store = sessionStore(db);

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/sessions',
      tags: TAGS,
      summary: 'Schedule a session and send its invite',
      description:
        'Spends one credit. A replayed idempotency_key answers 200 with the earlier session and `idempotent: true`, whatever the rest of the body says, and spends nothing. ' +
        'A second scheduled or in_progress session of the participant in the round is a 409 unless `force: true`. Cookie callers send accountSlug in the body.',
      access: { ...WRITE, paidPlan: true, meter: 'credits' },
      status: 201,
      body: sessionCreate,
      response: z.object({ data: sessionCreated }),
      responses: { 200: 'Replay: the session created earlier with this idempotency_key', 409: 'A duplicate open session' },
    },
    async ({ request, reply, body }) => {
      const { session, idempotent } = await createSession(db, principalOf(request).workspaceId, body, settings.mailFrom);
      const answer = { data: { ...session, idempotent } };
      return idempotent ? reply.code(200).send(answer) : answer;
    },
  );

  readRoutes(app, {
    noun: 'session',
    path: '/api/v1/sessions',
    tags: TAGS,
    access: READ,
    list: sessionListQuery,
    item: sessionItem,
    store,
  });

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/participants/:id/sessions',
      tags: ['participants', ...TAGS],
      summary: "A participant's sessions, newest first",
      access: READ,
      params: idParams,
      query: participantSessionsQuery.extend(accountQuery.shape),
      response: listSchema(sessionItem),
    },
    async ({ request, params, query }) => {
      const { workspaceId } = principalOf(request);
      if (!(await store.hasParticipant(workspaceId, params.id))) throw new NotFoundError(`participant ${params.id} not found`);
      const { items, total } = await store.list(workspaceId, { ...query, participantId: params.id });
      return listEnvelope(items, total, query);
    },
  );

  defineRoute(
    app,
    {
      method: 'PATCH',
      url: '/api/v1/sessions/:id',
      tags: TAGS,
      summary: 'Reschedule a session and send the updated invite',
      description: 'Only while the session is scheduled; otherwise 409 naming its status.',
      access: WRITE,
      params: idParams,
      query: accountQuery,
      body: sessionReschedule,
      response: success,
      responses: { 409: 'The session is no longer scheduled' },
    },
    async ({ request, params, body }) => {
      await db.transaction(async (tx) => {
        const row = await reschedule(tx, principalOf(request).workspaceId, params.id, body.scheduled_at);
        const context = await contextOf(tx, row);
        await queueInvite(tx, row, context, 'invite.update', settings.mailFrom);
        await announce(tx, 'session.rescheduled', row, context.participant.external_id);
      });
      return { success: true };
    },
  );

  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/sessions/:id/resend-invite',
      tags: TAGS,
      summary: 'Send the invite again',
      description: 'Only while the session is scheduled; otherwise 409 naming its status. Takes no body.',
      access: WRITE,
      params: idParams,
      query: accountQuery,
      response: success,
      responses: { 409: 'The session is no longer scheduled' },
    },
    async ({ request, params }) => {
      await db.transaction(async (tx) => {
        const row = await lockedIn(tx, principalOf(request).workspaceId, params.id, 'invited again', ['scheduled']);
        await queueInvite(tx, row, await contextOf(tx, row), 'invite.resend', settings.mailFrom);
      });
      return { success: true };
    },
  );

  lifecycleRoutes(app, db);
  resultRoutes(app, store);
}
