import { z, type ZodType } from 'zod';

const MAX_PAGE_SIZE = 100;

/** `page` (1-based, default 1) and `pageSize` (default 20, at most 100); extend it with a route's filters. */
export const paginationQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('1-based page number'),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(20).describe(`items per page, at most ${MAX_PAGE_SIZE}`),
});
export type Pagination = z.output<typeof paginationQuery>;

export const limitOffset = ({ page, pageSize }: Pagination) => ({ limit: pageSize, offset: (page - 1) * pageSize });

export interface ListEnvelope<T> {
  data: T[];
  meta: { page: number; pageSize: number; total: number; totalPages: number };
}

export function listEnvelope<T>(data: T[], total: number, { page, pageSize }: Pagination): ListEnvelope<T> {
  return { data, meta: { page, pageSize, total, totalPages: Math.ceil(total / pageSize) } };
}

/** The response schema of a list of `item`, for the OpenAPI document. */
export function listSchema(item: ZodType) {
  return z.object({
    data: z.array(item),
    meta: z.object({ page: z.number().int(), pageSize: z.number().int(), total: z.number().int(), totalPages: z.number().int() }),
  });
}

/** `{id}` path parameters are UUIDs; anything else is a 400 naming `id`, never a 404. */
export const idParams = z.object({ id: z.guid('must be a UUID') });
