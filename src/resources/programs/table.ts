import { pgTable, text, unique } from 'drizzle-orm/pg-core';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';

export const programs = pgTable(
  'programs',
  {
    ...ownedColumns(),
    name: text('name').notNull(),
    description: text('description'),
    status: text('status').notNull().default('active'),
    ...snakeTimestamps(),
  },
  (t) => [unique('programs_workspace_key').on(t.workspace_id, t.id)],
);
