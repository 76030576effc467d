import { pgTable, text } from 'drizzle-orm/pg-core';
import { ownedColumns, snakeTimestamps } from '../shared/columns.js';

/** Where a workspace wants its events: deliveries are outbox messages that name the endpoint (platform/outbox). */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  ...ownedColumns(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  description: text('description'),
  // Kept as is: every delivery is signed with it (HMAC needs the secret itself, not a hash of it).
  secret: text('secret').notNull(),
  ...snakeTimestamps(),
});
