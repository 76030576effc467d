import { and, count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import type { Pagination } from '../../web/pagination.js';
import { participants } from '../participants/table.js';
import type { CrudStore } from '../shared/crud-routes.js';
import { dependantsConflict } from '../shared/dependants.js';
import { announceCreated } from '../shared/events.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import type { programCreate, programListQuery, programUpdate } from './shapes.js';
import { programs } from './table.js';

type Create = z.output<typeof programCreate>;
type Update = z.output<typeof programUpdate>;
type Query = z.output<typeof programListQuery> & Pagination;
type Item = ReturnType<typeof present<typeof programs.$inferSelect>>;

export function programStore(db: Db): CrudStore<Item, Create, Update, Query> {
  const owned = ownedRows(db, programs, 'updated_at');

  return {
    create: (workspaceId, body) =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(programs)
          .values({ ...body, workspace_id: workspaceId })
          .returning();
        return announceCreated(tx, 'program.created', row);
      }),
    async list(workspaceId, query) {
      const where = and(eq(programs.workspace_id, workspaceId), query.status ? eq(programs.status, query.status) : undefined);
      const { rows, total } = await pageOf(db, programs, where, [desc(programs.created_at), desc(programs.id)], query);
      return { items: rows.map(present), total };
    },
    get: owned.get,
    update: owned.update,
    async remove(workspaceId, id) {
      return dependantsConflict(owned.deletion(workspaceId, id), `program ${id}`, async () => [
        ['participant', (await db.select({ n: count() }).from(participants).where(eq(participants.pipeline_id, id)))[0].n],
      ]);
    },
  };
}
