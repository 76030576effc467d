/** Plans in ascending order; everything but `free` is paid. */
export const PLANS = ['free', 'starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const MONTHLY_COUNTERS = ['mcp_code_executions', 'mcp_problem_generations'] as const;
export type MonthlyCounter = (typeof MONTHLY_COUNTERS)[number];
/** Counted per day for the dashboard's chart; REST code executions are free, so they have a day count and no allowance. */
export const DAILY_COUNTERS = [...MONTHLY_COUNTERS, 'code_executions'] as const;
export type DailyCounter = (typeof DAILY_COUNTERS)[number];
export type Meter = MonthlyCounter | 'credits' | 'code_executions';

export function isPaid(plan: Plan): boolean {
  return plan !== 'free';
}

export interface PlanSettings {
  RATE_LIMIT_WINDOW_SECONDS: number;
  [name: string]: unknown;
}

function setting(config: PlanSettings, prefix: string, plan: Plan): number {
  const value = config[`${prefix}_${plan.toUpperCase()}`];
  if (typeof value !== 'number') throw new Error(`missing setting ${prefix}_${plan.toUpperCase()}`);
  return value;
}

/** Requests per rate-limit window for a key of a workspace on this plan. */
export const rateLimitOf = (config: PlanSettings, plan: Plan) => setting(config, 'RATE_LIMIT', plan);

/** Calls of a metered MCP counter allowed per calendar month (UTC). */
export const allowanceOf = (config: PlanSettings, plan: Plan, counter: MonthlyCounter) => setting(config, counter.toUpperCase(), plan);

/** Credits a new workspace on this plan starts with. */
export const startingCreditsOf = (config: PlanSettings, plan: Plan) => setting(config, 'PLAN_CREDITS', plan);

/** The metering period a moment falls in, e.g. `2025-11`. */
export function periodOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The day (UTC) a moment falls in, e.g. `2025-11-03`: counters are kept per month for allowances and per day for the dashboard's chart. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
