import { and, count, desc, eq, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import type { Pagination } from '../../web/pagination.js';
import { rounds } from '../rounds/table.js';
import type { CrudStore } from '../shared/crud-routes.js';
import { dependantsConflict } from '../shared/dependants.js';
import { announceCreated } from '../shared/events.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import type { interviewerCreate, interviewerListQuery, interviewerUpdate } from './shapes.js';
import { interviewers } from './table.js';

type Create = z.output<typeof interviewerCreate>;
type Update = z.output<typeof interviewerUpdate>;
type Query = z.output<typeof interviewerListQuery> & Pagination;
type Item = ReturnType<typeof present<typeof interviewers.$inferSelect>>;

/** What a caller may read: its own interviewers, and public ones of every workspace. */
const visible = (workspaceId: string, id: string) =>
  and(eq(interviewers.id, id), or(eq(interviewers.workspace_id, workspaceId), eq(interviewers.isPublic, true)));

export interface InterviewerStore extends CrudStore<Item, Create, Update, Query> {
  /** Copies an interviewer the caller can read into its workspace; undefined when there is none. */
  fork(workspaceId: string, sourceId: string): Promise<Item | undefined>;
}

export function interviewerStore(db: Db): InterviewerStore {
  // Only reads see public interviewers of other workspaces; updates and deletes stay within the caller's own.
  const owned = ownedRows(db, interviewers, 'updatedAt');

  return {
    create: (workspaceId, body) =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(interviewers)
          .values({ ...body, workspace_id: workspaceId })
          .returning();
        return announceCreated(tx, 'interviewer.created', row);
      }),
    fork: (workspaceId, sourceId) =>
      db.transaction(async (tx) => {
        const [source] = await tx.select().from(interviewers).where(visible(workspaceId, sourceId));
        if (!source) return undefined;
        const { id: _id, workspace_id: _owner, createdAt: _created, updatedAt: _updated, ...copy } = source;
        const [row] = await tx
          .insert(interviewers)
          .values({ ...copy, workspace_id: workspaceId, isPublic: false, forkedFrom: source.id })
          .returning();
        return announceCreated(tx, 'interviewer.created', row);
      }),
    async list(workspaceId, query) {
      const where = and(
        query.scope === 'public' ? eq(interviewers.isPublic, true) : eq(interviewers.workspace_id, workspaceId),
        query.useCase ? eq(interviewers.useCase, query.useCase) : undefined,
      );
      const { rows, total } = await pageOf(db, interviewers, where, [desc(interviewers.createdAt), desc(interviewers.id)], query);
      return { items: rows.map(present), total };
    },
    get: (workspaceId, id) => owned.find(visible(workspaceId, id)),
    update: owned.update,
    async remove(workspaceId, id) {
      return dependantsConflict(owned.deletion(workspaceId, id), `interviewer ${id}`, async () => [
        ['round', (await db.select({ n: count() }).from(rounds).where(eq(rounds.interviewer_id, id)))[0].n],
      ]);
    },
  };
}
