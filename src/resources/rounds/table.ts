import { doublePrecision, foreignKey, index, integer, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { interviewers } from '../interviewers/table.js';
import { roles } from '../roles/table.js';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';

export const rounds = pgTable(
  'rounds',
  {
    ...ownedColumns(),
    role_id: uuid('role_id').notNull(),
    stage_name: text('stage_name').notNull(),
    stage_type: text('stage_type'),
    duration_minutes: integer('duration_minutes').notNull(),
    interviewer_id: uuid('interviewer_id'),
    stage_order: integer('stage_order').notNull(),
    difficulty: text('difficulty'),
    pass_threshold: doublePrecision('pass_threshold'),
    automation_rule: text('automation_rule'),
    status: text('status').notNull().default('active'),
    ...snakeTimestamps(),
  },
  (t) => [
    unique('rounds_workspace_key').on(t.workspace_id, t.id),
    foreignKey({ name: 'rounds_role_fk', columns: [t.workspace_id, t.role_id], foreignColumns: [roles.workspace_id, roles.id] }),
    foreignKey({
      name: 'rounds_interviewer_fk',
      columns: [t.workspace_id, t.interviewer_id],
      foreignColumns: [interviewers.workspace_id, interviewers.id],
    }),
    index('rounds_role_order').on(t.role_id, t.stage_order),
  ],
);
