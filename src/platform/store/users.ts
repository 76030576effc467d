import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { memberships, users, workspaces } from '../db/schema.js';
import type { WorkspaceRow } from './workspaces.js';

export type UserRow = typeof users.$inferSelect;

/** Emails are compared case-insensitively by storing them lower-cased. */
const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function createUser(db: Db, email: string, passwordHash: string): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ email: normaliseEmail(email), passwordHash })
    .returning();
  return row;
}

export async function findUser(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.email, normaliseEmail(email)));
  return row;
}

export async function addMember(db: Db, workspaceId: string, userId: string): Promise<boolean> {
  const rows = await db.insert(memberships).values({ workspaceId, userId }).onConflictDoNothing().returning();
  return rows.length > 0;
}

/** The workspace with this slug, only if the user is one of its members. */
export async function memberWorkspace(db: Db, userId: string, slug: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db
    .select({ workspace: workspaces })
    .from(workspaces)
    .innerJoin(memberships, and(eq(memberships.workspaceId, workspaces.id), eq(memberships.userId, userId)))
    .where(eq(workspaces.slug, slug));
  return row?.workspace;
}

export async function userWorkspaces(db: Db, userId: string): Promise<WorkspaceRow[]> {
  const rows = await db
    .select({ workspace: workspaces })
    .from(workspaces)
    .innerJoin(memberships, eq(memberships.workspaceId, workspaces.id))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.slug));
  return rows.map((row) => row.workspace);
}
