import { and, between, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.js';
import { usageCounters } from '../db/schema.js';
import { MONTHLY_COUNTERS, type DailyCounter, type MonthlyCounter } from '../plans.js';

/** Counts one more in each of the periods (a month and a day), in one statement. */
export async function incrementUsage(db: Db, workspaceId: string, periods: string[], counter: DailyCounter): Promise<void> {
  await db
    .insert(usageCounters)
    .values(periods.map((period) => ({ workspaceId, period, counter, count: 1 })))
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

/** The per-day rows between two days (inclusive); month rows (`YYYY-MM`) sort between them too, so only day-long periods are read. */
export async function dailyUsage(
  db: Db,
  workspaceId: string,
  from: string,
  to: string,
): Promise<{ period: string; counter: string; count: number }[]> {
  return db
    .select({ period: usageCounters.period, counter: usageCounters.counter, count: usageCounters.count })
    .from(usageCounters)
    .where(
      and(eq(usageCounters.workspaceId, workspaceId), between(usageCounters.period, from, to), sql`length(${usageCounters.period}) = 10`),
    );
}
