import { boolean, jsonb, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { ownedColumns, camelTimestamps } from '../shared/columns.js';
import type { Context, Dimension, Interaction, Output, Scoring } from './shapes.js';

export const interviewers = pgTable(
  'interviewers',
  {
    ...ownedColumns(),
    name: text('name').notNull(),
    persona: text('persona').notNull(),
    useCase: text('use_case').notNull(),
    evaluationDimensions: jsonb('evaluation_dimensions').$type<Dimension[]>().notNull(),
    context: jsonb('context').$type<Context>(),
    interaction: jsonb('interaction').$type<Interaction>(),
    scoring: jsonb('scoring').$type<Scoring>(),
    output: jsonb('output').$type<Output>().notNull(),
    additionalInstructions: text('additional_instructions'),
    isPublic: boolean('is_public').notNull().default(false),
    // Not a foreign key: the source may be deleted, or live in another workspace, without touching its forks.
    forkedFrom: uuid('forked_from'),
    ...camelTimestamps(),
  },
  (t) => [unique('interviewers_workspace_key').on(t.workspace_id, t.id)],
);
