import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { workspaces } from '../db/schema.js';
import type { Plan } from '../plans.js';

export type WorkspaceRow = typeof workspaces.$inferSelect;

export async function createWorkspace(db: Db, slug: string, plan: Plan, credits: number): Promise<WorkspaceRow> {
  const [row] = await db.insert(workspaces).values({ slug, plan, credits }).returning();
  return row;
}

export async function findWorkspace(db: Db, slug: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.slug, slug));
  return row;
}

export async function findWorkspaceById(db: Db, id: string): Promise<WorkspaceRow | undefined> {
  const [row] = await db.select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

export async function setPlan(db: Db, id: string, plan: Plan, credits?: number): Promise<WorkspaceRow> {
  const [row] = await db
    .update(workspaces)
    .set({ plan, ...(credits === undefined ? {} : { credits }), updatedAt: new Date() })
    .where(eq(workspaces.id, id))
    .returning();
  return row;
}

/** Takes one credit if any is left, in one statement so that concurrent calls cannot overdraw. */
export async function spendCredit(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(workspaces)
    .set({ credits: sql`${workspaces.credits} - 1`, updatedAt: new Date() })
    .where(and(eq(workspaces.id, id), gte(workspaces.credits, 1)))
    .returning({ id: workspaces.id });
  return rows.length > 0;
}
