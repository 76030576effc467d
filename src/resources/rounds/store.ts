import { and, asc, eq, max } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/index.js';
import { ValidationError } from '../../web/errors.js';
import type { Pagination } from '../../web/pagination.js';
import { roles } from '../roles/table.js';
import type { CrudStore } from '../shared/crud-routes.js';
import { announceCreated } from '../shared/events.js';
import { ownedRows } from '../shared/owned-rows.js';
import { pageOf } from '../shared/paging.js';
import { present } from '../shared/present.js';
import { writing, type Constraints } from '../shared/write-errors.js';
import type { roundCreate, roundListQuery, roundUpdate } from './shapes.js';
import { rounds } from './table.js';

type Create = z.output<typeof roundCreate>;
type Update = z.output<typeof roundUpdate>;
type Query = z.output<typeof roundListQuery> & Pagination;
type Item = ReturnType<typeof present<typeof rounds.$inferSelect>>;

const CONSTRAINTS: Constraints = {
  references: {
    rounds_role_fk: { field: 'role_id', noun: 'role' },
    rounds_interviewer_fk: { field: 'interviewer_id', noun: 'interviewer' },
  },
};

/** The role's defaults for a new round: its session length, and the place after its last round. */
async function defaultsFor(db: Db, workspaceId: string, roleId: string) {
  const [role] = await db
    .select({ duration: roles.default_duration_minutes })
    .from(roles)
    .where(and(eq(roles.workspace_id, workspaceId), eq(roles.id, roleId)));
  if (!role) throw ValidationError.field(['role_id'], 'no role with this id in the workspace');
  const [{ last }] = await db
    .select({ last: max(rounds.stage_order) })
    .from(rounds)
    .where(eq(rounds.role_id, roleId));
  return { duration_minutes: role.duration, stage_order: last === null ? 1 : last + 1 };
}

export function roundStore(db: Db): CrudStore<Item, Create, Update, Query> {
  const owned = ownedRows(db, rounds, 'updated_at', CONSTRAINTS);

  return {
    create: (workspaceId, body) =>
      db.transaction(async (tx) => {
        const defaults = await defaultsFor(tx, workspaceId, body.role_id);
        const [row] = await writing(
          tx
            .insert(rounds)
            .values({
              ...body,
              duration_minutes: body.duration_minutes ?? defaults.duration_minutes,
              stage_order: body.stage_order ?? defaults.stage_order,
              workspace_id: workspaceId,
            })
            .returning(),
          CONSTRAINTS,
        );
        return announceCreated(tx, 'round.created', row);
      }),
    async list(workspaceId, query) {
      const where = and(
        eq(rounds.workspace_id, workspaceId),
        query.roleId ? eq(rounds.role_id, query.roleId) : undefined,
        query.status ? eq(rounds.status, query.status) : undefined,
      );
      const { rows, total } = await pageOf(db, rounds, where, [asc(rounds.stage_order), asc(rounds.created_at), asc(rounds.id)], query);
      return { items: rows.map(present), total };
    },
    get: owned.get,
    update: owned.update,
    remove: owned.remove,
  };
}
