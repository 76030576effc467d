import { and, count, desc, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import type { Pagination } from '../../web/pagination.js';
import { participants } from '../participants/table.js';
import { rounds } from '../rounds/table.js';
import type { CrudStore } from '../shared/crud-routes.js';
import { dependantsConflict } from '../shared/dependants.js';
import { announceCreated } from '../shared/events.js';
import { likePattern } from '../shared/like.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import { OUTCOME_OF_USE_CASE, type roleCreate, type roleListQuery, type roleUpdate } from './shapes.js';
import { roles } from './table.js';

type Create = z.output<typeof roleCreate>;
type Update = z.output<typeof roleUpdate>;
type Query = z.output<typeof roleListQuery> & Pagination;
type Item = ReturnType<typeof present<typeof roles.$inferSelect>>;

export function roleStore(db: Db): CrudStore<Item, Create, Update, Query> {
  const owned = ownedRows(db, roles, 'updated_at');

  return {
    create: (workspaceId, body) =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(roles)
          .values({ ...body, success_outcome: body.success_outcome ?? OUTCOME_OF_USE_CASE[body.use_case], workspace_id: workspaceId })
          .returning();
        return announceCreated(tx, 'role.created', row);
      }),
    async list(workspaceId, query) {
      const where = and(
        eq(roles.workspace_id, workspaceId),
        query.status ? eq(roles.status, query.status) : undefined,
        query.useCase ? eq(roles.use_case, query.useCase) : undefined,
        query.search ? ilike(roles.template_name, likePattern(query.search)) : undefined,
      );
      const { rows, total } = await pageOf(db, roles, where, [desc(roles.created_at), desc(roles.id)], query);
      return { items: rows.map(present), total };
    },
    get: owned.get,
    update: owned.update,
    async remove(workspaceId, id) {
      return dependantsConflict(owned.deletion(workspaceId, id), `role ${id}`, async () => [
        ['round', (await db.select({ n: count() }).from(rounds).where(eq(rounds.role_id, id)))[0].n],
        ['participant', (await db.select({ n: count() }).from(participants).where(eq(participants.role_id, id)))[0].n],
      ]);
    },
  };
}
