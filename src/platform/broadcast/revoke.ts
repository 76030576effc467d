import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { apiKeys } from '../db/schema.js';
import { revokeApiKey, type ApiKeyRow } from '../store/api-keys.js';

/** The PostgreSQL channel every node listens on; the payload is the revoked key's id. */
export const REVOCATION_CHANNEL = 'api_key_revoked';

/**
 * Revokes a key (of one workspace when given) and tells every node on this database, so that each
 * ends its own in-flight requests with the key. The notice is sent in the revoke's transaction:
 * PostgreSQL delivers it only when the revocation commits. Revoking an already revoked key announces
 * it again, which a node that missed the first notice may need.
 */
export async function revokeAndAnnounce(db: Db, id: string, workspaceId?: string): Promise<ApiKeyRow | undefined> {
  return db.transaction(async (tx) => {
    const row = await revokeApiKey(tx, id, workspaceId);
    if (row) await tx.execute(sql`SELECT pg_notify(${REVOCATION_CHANNEL}, ${row.id})`);
    return row;
  });
}

/** Which of these keys are revoked: a node that was not listening for a while checks the keys it is serving. */
export async function revokedAmong(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inArray(apiKeys.id, ids), isNotNull(apiKeys.revokedAt)));
  return rows.map((row) => row.id);
}
