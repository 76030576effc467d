import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { apiKeys, workspaces } from '../db/schema.js';
import { digest, generateApiKey } from '../crypto.js';
import type { Scope } from '../scopes.js';
import type { WorkspaceRow } from './workspaces.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

const SUFFIX_LENGTH = 4;

/** Creates a key; the full secret exists only in the return value, the database keeps its digest. */
export async function createApiKey(
  db: Db,
  workspaceId: string,
  name: string,
  scopes: readonly Scope[],
): Promise<{ row: ApiKeyRow; secret: string }> {
  const secret = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({ workspaceId, name, scopes: [...scopes], keyHash: digest(secret), suffix: secret.slice(-SUFFIX_LENGTH) })
    .returning();
  return { row, secret };
}

export async function listApiKeys(
  db: Db,
  workspaceId: string,
  page?: { limit: number; offset: number },
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const where = eq(apiKeys.workspaceId, workspaceId);
  const query = db.select().from(apiKeys).where(where).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  const [{ total }] = await db.select({ total: count() }).from(apiKeys).where(where);
  return { rows, total };
}

/** Revokes a key (of one workspace when given); undefined when there is no such key. Revoking twice is harmless. */
export async function revokeApiKey(db: Db, id: string, workspaceId?: string): Promise<ApiKeyRow | undefined> {
  const now = new Date();
  const match = workspaceId ? and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId)) : eq(apiKeys.id, id);
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now, updatedAt: now })
    .where(and(match, isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) return revoked;
  const [existing] = await db.select().from(apiKeys).where(match);
  return existing;
}

/** The key with this secret and its workspace; read on every request, so revocation applies at once. */
export async function findApiKey(db: Db, secret: string): Promise<{ key: ApiKeyRow; workspace: WorkspaceRow } | undefined> {
  const [row] = await db
    .select({ key: apiKeys, workspace: workspaces })
    .from(apiKeys)
    .innerJoin(workspaces, eq(workspaces.id, apiKeys.workspaceId))
    .where(eq(apiKeys.keyHash, digest(secret)));
  return row;
}

/** Records that a key was just used. */
export async function touchApiKey(db: Db, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, id));
}
