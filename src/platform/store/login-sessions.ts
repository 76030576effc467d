import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { loginSessions, users } from '../db/schema.js';
import { digest, randomToken } from '../crypto.js';
import type { UserRow } from './users.js';

/** Starts a dashboard session; the token goes into the cookie, its digest into the database. */
export async function createLoginSession(db: Db, userId: string, ttlMs: number): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  // Expired sessions are swept here rather than by a timer: logins are rare and this keeps the table small.
  await db.delete(loginSessions).where(lte(loginSessions.expiresAt, new Date(now)));
  await db.insert(loginSessions).values({ userId, tokenHash: digest(token), expiresAt: new Date(now + ttlMs) });
  return token;
}

export async function findLoginSession(db: Db, token: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(loginSessions)
    .innerJoin(users, eq(users.id, loginSessions.userId))
    .where(and(eq(loginSessions.tokenHash, digest(token)), gt(loginSessions.expiresAt, new Date())));
  return row?.user;
}

export async function deleteLoginSession(db: Db, token: string): Promise<void> {
  await db.delete(loginSessions).where(eq(loginSessions.tokenHash, digest(token)));
}
