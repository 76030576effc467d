import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/index.js';
import { present, type Presented } from './present.js';
import { writing, type Constraints } from './write-errors.js';

/** A resource table: rows carry their own id and the workspace that owns them (shared/columns.ts). */
type OwnedTable = PgTable & { id: PgColumn; workspace_id: PgColumn; $inferSelect: { workspace_id: string } };

/** The keys of a table's timestamp columns, so that only one of them can be named as the updated one. */
type TimestampKey<T extends OwnedTable> = {
  [K in keyof T['$inferSelect']]: T['$inferSelect'][K] extends Date ? K : never;
}[keyof T['$inferSelect']];

/**
 * The reads and writes of one row by id that every resource does the same way, each limited to the
 * caller's workspace so that another workspace's id behaves as a missing one.
 */
export function ownedRows<T extends OwnedTable>(db: Db, table: T, updatedKey: TimestampKey<T>, constraints: Constraints = {}) {
  type Row = T['$inferSelect'];
  const mine = (workspaceId: string, id: string) => and(eq(table.workspace_id, workspaceId), eq(table.id, id));

  /** The one row matching `where`, as the API answers it. */
  const find = async (where: SQL | undefined): Promise<Presented<Row> | undefined> => {
    // Drizzle's select cannot follow a generic table (paging.ts does the same); the row is the table's all the same.
    const [row] = (await db
      .select()
      .from(table as PgTable)
      .where(where)) as Row[];
    return row && present(row);
  };

  const update = async (workspaceId: string, id: string, body: PgUpdateSetSource<T>): Promise<Presented<Row> | undefined> => {
    // With no constraints named, writing() rethrows every refusal as it came.
    const [row] = (await writing(
      db
        .update(table)
        .set({ ...body, [updatedKey]: new Date() })
        .where(mine(workspaceId, id))
        .returning(),
      constraints,
    )) as Row[];
    return row && present(row);
  };

  /** The delete statement alone, for a store that explains a refusal by its dependants (shared/dependants.ts). */
  const deletion = (workspaceId: string, id: string) => db.delete(table).where(mine(workspaceId, id)).returning({ id: table.id });

  return {
    find,
    get: (workspaceId: string, id: string) => find(mine(workspaceId, id)),
    update,
    deletion,
    /** False when there is no such row in the workspace. */
    remove: async (workspaceId: string, id: string) => (await deletion(workspaceId, id)).length > 0,
  };
}
