import { sql } from 'drizzle-orm';
import { check, foreignKey, index, integer, pgTable, primaryKey, text, timestamp, uuid, type PgColumn } from 'drizzle-orm/pg-core';
import { PLANS } from '../plans.js';

/*
 * The one source of truth for tables and constraints: `npm run db:generate` writes the migrations from it.
 * Constraints carry the names PostgreSQL gave them in databases made by the hand-written migrations
 * that came before (table_column_key, _fkey, _check, table_pkey), so a database from those days and a
 * new one are the same, and a later migration that changes a constraint by name works on both.
 */

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

function cascadingReference(table: string, column: PgColumn, target: PgColumn) {
  return foreignKey({ name: `${table}_${column.name}_fkey`, columns: [column], foreignColumns: [target] }).onDelete('cascade');
}

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique('workspaces_slug_key'),
    plan: text('plan').notNull(),
    credits: integer('credits').notNull(),
    ...timestamps,
  },
  (table) => [
    check('workspaces_plan_check', sql`${table.plan} IN (${sql.raw(PLANS.map((plan) => `'${plan}'`).join(', '))})`),
    check('workspaces_credits_check', sql`${table.credits} >= 0`),
  ],
);

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique('users_email_key'),
  passwordHash: text('password_hash').notNull(),
  ...timestamps,
});

export const memberships = pgTable(
  'memberships',
  {
    workspaceId: uuid('workspace_id').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [
    primaryKey({ name: 'memberships_pkey', columns: [table.workspaceId, table.userId] }),
    cascadingReference('memberships', table.workspaceId, workspaces.id),
    cascadingReference('memberships', table.userId, users.id),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id').notNull(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull().unique('api_keys_key_hash_key'),
    suffix: text('suffix').notNull(),
    scopes: text('scopes').array().notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    // Written at most once a minute per key (src/platform/auth/authenticate.ts): shown in the dashboard's key list.
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    cascadingReference('api_keys', table.workspaceId, workspaces.id),
    // A workspace's keys are listed in creation order.
    index('api_keys_workspace').on(table.workspaceId, table.createdAt),
  ],
);

export const loginSessions = pgTable(
  'login_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique('login_sessions_token_hash_key'),
    userId: uuid('user_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamps.createdAt,
  },
  (table) => [cascadingReference('login_sessions', table.userId, users.id)],
);

export const usageCounters = pgTable(
  'usage_counters',
  {
    workspaceId: uuid('workspace_id').notNull(),
    period: text('period').notNull(),
    counter: text('counter').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [
    primaryKey({ name: 'usage_counters_pkey', columns: [table.workspaceId, table.period, table.counter] }),
    cascadingReference('usage_counters', table.workspaceId, workspaces.id),
  ],
);

export const schema = { workspaces, users, memberships, apiKeys, loginSessions, usageCounters };
