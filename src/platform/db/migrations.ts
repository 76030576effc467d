/**
 * Versioned migrations, applied in order and recorded in schema_migrations. Never edit a released
 * one: add the next version. They must match schema.ts, which is what queries are typed against.
 */
export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'platform: workspaces, users, keys, sessions, usage',
    statements: [
      `CREATE TABLE workspaces (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL UNIQUE,
        plan text NOT NULL CHECK (plan IN ('free', 'starter', 'pro', 'enterprise')),
        credits integer NOT NULL CHECK (credits >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL UNIQUE,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE memberships (
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (workspace_id, user_id)
      )`,
      `CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        name text NOT NULL,
        key_hash text NOT NULL UNIQUE,
        suffix text NOT NULL,
        scopes text[] NOT NULL,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`,
      'CREATE INDEX api_keys_workspace ON api_keys (workspace_id, created_at)',
      `CREATE TABLE login_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        token_hash text NOT NULL UNIQUE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
      `CREATE TABLE usage_counters (
        workspace_id uuid NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        period text NOT NULL,
        counter text NOT NULL,
        count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (workspace_id, period, counter)
      )`,
    ],
  },
];
