import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from '../db/schema.js';

const moment = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * Messages to deliver after the transaction that wrote them commits: invites, webhook deliveries,
 * résumé fetches. A worker claims due rows (FOR UPDATE SKIP LOCKED, with a lease), so several
 * service processes on one database never deliver one message twice while they run.
 */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspace_id: uuid('workspace_id'),
    /** Which handler delivers it: `email`, `webhook`, `resume`. */
    kind: text('kind').notNull(),
    /** What it is about, for people and filters: `invite`, `session.created`... */
    topic: text('topic').notNull(),
    /** The thing it is delivered to or for (a webhook endpoint, a participant), when there is one. */
    target_id: uuid('target_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** `pending` until `delivered`, or `failed` after its last attempt. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    max_attempts: integer('max_attempts').notNull(),
    next_attempt_at: moment('next_attempt_at').notNull().defaultNow(),
    claimed_by: text('claimed_by'),
    claimed_until: moment('claimed_until'),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    created_at: moment('created_at').notNull().defaultNow(),
    delivered_at: moment('delivered_at'),
  },
  (t) => [
    foreignKey({ name: 'outbox_messages_workspace_fk', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete('cascade'),
    index('outbox_messages_due').on(t.status, t.next_attempt_at),
    index('outbox_messages_target').on(t.target_id, t.created_at),
  ],
);

/** Every attempt at a message, as the handler saw it. */
export const outboxAttempts = pgTable(
  'outbox_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    message_id: uuid('message_id').notNull(),
    attempt: integer('attempt').notNull(),
    started_at: moment('started_at').notNull(),
    duration_ms: integer('duration_ms').notNull(),
    /** `delivered`, `retry` (another attempt is scheduled) or `failed` (the last one). */
    outcome: text('outcome').notNull(),
    status_code: integer('status_code'),
    error: text('error'),
  },
  (t) => [
    foreignKey({ name: 'outbox_attempts_message_fk', columns: [t.message_id], foreignColumns: [outboxMessages.id] }).onDelete('cascade'),
    index('outbox_attempts_message').on(t.message_id, t.attempt),
  ],
);
