import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { usageCounters } from '../db/schema.js';
import { MONTHLY_COUNTERS, type MonthlyCounter } from '../plans.js';

export async function incrementUsage(db: Db, workspaceId: string, period: string, counter: MonthlyCounter): Promise<void> {
  await db
    .insert(usageCounters)
    .values({ workspaceId, period, counter, count: 1 })
    .onConflictDoUpdate({
      target: [usageCounters.workspaceId, usageCounters.period, usageCounters.counter],
      set: { count: sql`${usageCounters.count} + 1` },
    });
}

export async function usageOf(db: Db, workspaceId: string, period: string): Promise<Record<MonthlyCounter, number>> {
  const rows = await db
    .select()
    .from(usageCounters)
    .where(and(eq(usageCounters.workspaceId, workspaceId), eq(usageCounters.period, period)));
  const counts = Object.fromEntries(MONTHLY_COUNTERS.map((counter) => [counter, 0])) as Record<MonthlyCounter, number>;
  for (const row of rows) {
    if ((MONTHLY_COUNTERS as readonly string[]).includes(row.counter)) counts[row.counter as MonthlyCounter] = row.count;
  }
  return counts;
}
