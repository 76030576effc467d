import { timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from '../../platform/db/schema.js';

/**
 * The columns every resource table starts with. TypeScript keys are the API's field names, so a
 * row reads as its answer. Referenced tables also declare (workspace_id, id) unique, so that foreign
 * keys can name both and an id of another workspace can never be stored.
 */
export const ownedColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  workspace_id: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
});

const stamp = (name: string) => timestamp(name, { withTimezone: true, precision: 3 }).notNull().defaultNow();

export const snakeTimestamps = () => ({ created_at: stamp('created_at'), updated_at: stamp('updated_at') });
export const camelTimestamps = () => ({ createdAt: stamp('created_at'), updatedAt: stamp('updated_at') });
