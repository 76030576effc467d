import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { principalOf, type Db } from '../../platform/index.js';
import { NotFoundError } from '../../web/errors.js';
import { idParams } from '../../web/pagination.js';
import { defineRoute } from '../../web/route.js';
import { accountQuery } from '../shared/crud-routes.js';
import { timestampField } from '../shared/fields.js';
import { resumeStatus } from './shapes.js';
import { participants } from './table.js';

const resumeAnswer = z.object({
  data: z.object({
    url: z.string().nullable(),
    status: resumeStatus.nullable().describe('null while the participant has no resume_url'),
    error: z.string().nullable().describe('why the fetch failed, when status is failed'),
    text: z.string().nullable().describe('the extracted text, at most 200 000 characters, when status is extracted'),
    fetched_at: timestampField.nullable().describe('when the last fetch ended, extracted or failed'),
  }),
});

/** A participant's résumé as fetched in the background: its status and, once extracted, its text. */
export function resumeRoutes(app: FastifyInstance, db: Db): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/participants/:id/resume',
      tags: ['participants'],
      summary: "A participant's résumé: fetch status and extracted text",
      description: 'The text is extracted in the background after resume_url is set (docs/resumes.md); status is pending until then.',
      access: { auth: 'key-or-cookie', scope: 'participants:read' },
      params: idParams,
      query: accountQuery,
      response: resumeAnswer,
    },
    async ({ request, params }) => {
      const [row] = await db
        .select({
          url: participants.resume_url,
          status: participants.resume_status,
          error: participants.resume_error,
          text: participants.resume_text,
          fetched_at: participants.resume_fetched_at,
        })
        .from(participants)
        .where(and(eq(participants.workspace_id, principalOf(request).workspaceId), eq(participants.id, params.id)));
      if (!row) throw new NotFoundError(`participant ${params.id} not found`);
      return { data: { ...row, fetched_at: row.fetched_at?.toISOString() ?? null } };
    },
  );
}
