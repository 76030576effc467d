import { integer, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';

export const roles = pgTable(
  'roles',
  {
    ...ownedColumns(),
    template_name: text('template_name').notNull(),
    use_case: text('use_case').notNull(),
    description: text('description').notNull(),
    objective: text('objective').notNull(),
    success_outcome: text('success_outcome').notNull(),
    status: text('status').notNull().default('active'),
    domain: text('domain'),
    level: text('level'),
    requirements: text('requirements'),
    skills: text('skills').array().notNull().default([]),
    soft_skills: text('soft_skills').array().notNull().default([]),
    additional_notes: text('additional_notes'),
    default_duration_minutes: integer('default_duration_minutes').notNull().default(30),
    default_difficulty: text('default_difficulty').notNull().default('intermediate'),
    default_session_mode: text('default_session_mode').notNull().default('live_ai_interview'),
    visibility: text('visibility').notNull().default('team'),
    ...snakeTimestamps(),
  },
  (t) => [unique('roles_workspace_key').on(t.workspace_id, t.id)],
);
