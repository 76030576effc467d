import { sql } from 'drizzle-orm';
import { foreignKey, index, jsonb, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { programs } from '../programs/table.js';
import { roles } from '../roles/table.js';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';
import type { Background, Profile } from './shapes.js';

export const participants = pgTable(
  'participants',
  {
    ...ownedColumns(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role_id: uuid('role_id'),
    external_id: text('external_id'),
    phone: text('phone'),
    tags: text('tags').array().notNull().default([]),
    profile: jsonb('profile').$type<Profile>(),
    background: jsonb('background').$type<Background>(),
    resume_url: text('resume_url'),
    pipeline_id: uuid('pipeline_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    status: text('status').notNull().default('active'),
    // The résumé behind resume_url, fetched and extracted in the background (docs/resumes.md).
    resume_status: text('resume_status'),
    resume_error: text('resume_error'),
    resume_text: text('resume_text'),
    resume_fetched_at: timestamp('resume_fetched_at', { withTimezone: true, precision: 3 }),
    ...snakeTimestamps(),
  },
  (t) => [
    unique('participants_workspace_key').on(t.workspace_id, t.id),
    // Decides duplicates: two creates of one address at once cannot both pass a read-then-write.
    uniqueIndex('participants_email_key').on(t.workspace_id, sql`lower(${t.email})`),
    foreignKey({ name: 'participants_role_fk', columns: [t.workspace_id, t.role_id], foreignColumns: [roles.workspace_id, roles.id] }),
    foreignKey({
      name: 'participants_program_fk',
      columns: [t.workspace_id, t.pipeline_id],
      foreignColumns: [programs.workspace_id, programs.id],
    }),
    index('participants_workspace_created').on(t.workspace_id, t.created_at, t.id),
  ],
);
