import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/index.js';
import { limitOffset, type Pagination } from '../../web/pagination.js';

/** One page of a table and the total behind it, in the given order (which must end in a unique column). */
export async function pageOf<T extends PgTable>(
  db: Db,
  table: T,
  where: SQL | undefined,
  order: Array<SQL | PgColumn>,
  pagination: Pagination,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const { limit, offset } = limitOffset(pagination);
  const rows = (await db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...order)
    .limit(limit)
    .offset(offset)) as T['$inferSelect'][];
  const [{ total }] = await db
    .select({ total: count() })
    .from(table as PgTable)
    .where(where);
  return { rows, total };
}
