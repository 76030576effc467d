import { z } from 'zod';
import { hashPassword } from '../crypto.js';
import type { Db } from '../db/database.js';
import { OUTBOX_KINDS } from '../outbox/enqueue.js';
import { listOutbox, OUTBOX_STATUSES, showOutbox } from '../outbox/inspect.js';
import { PLANS, startingCreditsOf, type PlanSettings } from '../plans.js';
import { resolveScopes, UnknownScopeError } from '../scopes.js';
import { revokeAndAnnounce } from '../broadcast/revoke.js';
import { createApiKey, listApiKeys } from '../store/api-keys.js';
import { isUniqueViolation } from '../store/errors.js';
import { addMember, createUser, findUser } from '../store/users.js';
import { createWorkspace, findWorkspace, setPlan } from '../store/workspaces.js';

const slug = z
  .string()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'a slug is lower-case letters, digits and inner hyphens (at most 63)');
const plan = z.enum(PLANS);

/** What the admin CLI can do; the same objects travel to a running service's admin endpoint. */
const adminCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('workspace.create'), slug, plan }),
  z.object({ command: z.literal('user.create'), email: z.email(), password: z.string().min(8, 'a password has at least 8 characters') }),
  z.object({ command: z.literal('member.add'), workspace: slug, email: z.email() }),
  z.object({
    command: z.literal('key.create'),
    workspace: slug,
    scopes: z.string().min(1),
    name: z.string().min(1).max(100).default('cli'),
  }),
  z.object({ command: z.literal('key.list'), workspace: slug }),
  z.object({ command: z.literal('key.revoke'), id: z.guid('a key id is a UUID') }),
  z.object({ command: z.literal('plan.set'), workspace: slug, plan, credits: z.coerce.number().int().min(0).optional() }),
  z.object({
    command: z.literal('outbox.list'),
    kind: z.enum(OUTBOX_KINDS).optional(),
    status: z.enum(OUTBOX_STATUSES).optional(),
    workspace: slug.optional(),
  }),
  z.object({ command: z.literal('outbox.show'), id: z.guid('an outbox message id is a UUID') }),
]);
export type AdminCommand = z.input<typeof adminCommandSchema>;

/** A refusal the operator can act on (unknown workspace, duplicate slug...); printed as is. */
export class AdminError extends Error {}

async function workspaceOf(db: Db, slugValue: string) {
  const workspace = await findWorkspace(db, slugValue);
  if (!workspace) throw new AdminError(`no workspace ${slugValue}`);
  return workspace;
}

async function unique<T>(write: Promise<T>, message: string): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AdminError(message);
    throw error;
  }
}

/**
 * Runs one command against the database and returns the text to print; `onRevoked` hears of each
 * revoked key at once (other nodes on the same PostgreSQL hear of it through its notice).
 */
export async function runAdminCommand(
  db: Db,
  settings: PlanSettings,
  input: AdminCommand,
  onRevoked: (keyId: string) => void = () => undefined,
): Promise<string> {
  const parsed = adminCommandSchema.safeParse(input);
  if (!parsed.success) throw new AdminError(parsed.error.issues.map((i) => `${i.path.join('.') || 'command'}: ${i.message}`).join('\n'));
  const command = parsed.data;
  switch (command.command) {
    case 'workspace.create': {
      const row = await unique(
        createWorkspace(db, command.slug, command.plan, startingCreditsOf(settings, command.plan)),
        `workspace ${command.slug} already exists`,
      );
      return `workspace ${row.slug} created (id ${row.id}, plan ${row.plan}, ${row.credits} credits)`;
    }
    case 'user.create': {
      const row = await unique(createUser(db, command.email, await hashPassword(command.password)), `user ${command.email} already exists`);
      return `user ${row.email} created (id ${row.id})`;
    }
    case 'member.add': {
      const workspace = await workspaceOf(db, command.workspace);
      const user = await findUser(db, command.email);
      if (!user) throw new AdminError(`no user ${command.email}`);
      const added = await addMember(db, workspace.id, user.id);
      return added ? `${user.email} is now a member of ${workspace.slug}` : `${user.email} was already a member of ${workspace.slug}`;
    }
    case 'key.create': {
      const workspace = await workspaceOf(db, command.workspace);
      let scopes;
      try {
        scopes = resolveScopes(command.scopes.split(','));
      } catch (error) {
        if (error instanceof UnknownScopeError) throw new AdminError(error.message);
        throw error;
      }
      if (scopes.length === 0) throw new AdminError('give at least one scope, or all');
      const { row, secret } = await createApiKey(db, workspace.id, command.name, scopes);
      // The key alone on its own line, so that scripts can capture it.
      return `created key ${row.id} (${row.name}) for ${workspace.slug} with scopes ${scopes.join(',')}\n${secret}`;
    }
    case 'key.list': {
      const workspace = await workspaceOf(db, command.workspace);
      const { rows } = await listApiKeys(db, workspace.id);
      if (rows.length === 0) return `no keys in ${workspace.slug}`;
      return rows
        .map((row) =>
          [
            row.id,
            row.name,
            `svc_live_…${row.suffix}`,
            row.revokedAt ? `revoked ${row.revokedAt.toISOString()}` : 'active',
            `created ${row.createdAt.toISOString()}`,
            row.scopes.join(','),
          ].join('\t'),
        )
        .join('\n');
    }
    case 'key.revoke': {
      const row = await revokeAndAnnounce(db, command.id);
      if (!row) throw new AdminError(`no key ${command.id}`);
      onRevoked(row.id);
      return `key ${row.id} revoked`;
    }
    case 'plan.set': {
      const workspace = await workspaceOf(db, command.workspace);
      const row = await setPlan(db, workspace.id, command.plan, command.credits);
      return `workspace ${row.slug} is on plan ${row.plan} with ${row.credits} credits`;
    }
    case 'outbox.list': {
      const workspace = command.workspace === undefined ? undefined : await workspaceOf(db, command.workspace);
      return listOutbox(db, { kind: command.kind, status: command.status, workspaceId: workspace?.id });
    }
    case 'outbox.show': {
      const shown = await showOutbox(db, command.id);
      if (!shown) throw new AdminError(`no outbox message ${command.id}`);
      return shown;
    }
  }
}
