import { NotFoundError, PaymentRequiredError, QuotaExceededError, UnauthenticatedError } from '../web/errors.js';
import type { Principal } from './access.js';
import type { Db } from './db/database.js';
import {
  allowanceOf,
  DAILY_COUNTERS,
  dayOf,
  MONTHLY_COUNTERS,
  periodOf,
  rateLimitOf,
  type DailyCounter,
  type Meter,
  type MonthlyCounter,
  type Plan,
  type PlanSettings,
} from './plans.js';
import { dailyUsage, incrementUsage, usageOf } from './store/usage.js';
import { findWorkspaceById, spendCredit } from './store/workspaces.js';

export interface UsageReport {
  workspace: string;
  plan: Plan;
  credits: number;
  period: string;
  counters: Record<MonthlyCounter, { used: number; allowance: number }>;
  rate_limit: { requests: number; window_seconds: number };
}

export type DailyUsage = { date: string } & Record<DailyCounter, number>;

const DAY_MS = 86_400_000;

/** Credits and the monthly MCP allowances: checked before a metered operation, recorded after it succeeds. */
export class Metering {
  constructor(
    private readonly db: Db,
    private readonly settings: PlanSettings,
  ) {}

  async check(principal: Principal, meter: Meter): Promise<void> {
    if (meter === 'code_executions') return;
    const workspace = await findWorkspaceById(this.db, principal.workspaceId);
    if (!workspace) throw new UnauthenticatedError('the workspace of this API key no longer exists');
    const plan = workspace.plan as Plan;
    if (meter === 'credits') {
      if (workspace.credits < 1) throw new PaymentRequiredError(`workspace ${workspace.slug} is out of credits`);
      return;
    }
    const used = (await usageOf(this.db, workspace.id, periodOf(new Date())))[meter];
    const allowance = allowanceOf(this.settings, plan, meter);
    if (used >= allowance) throw new QuotaExceededError(`the ${plan} plan's monthly allowance of ${allowance} ${meter} is used up`);
  }

  /** Spending the last credit twice at once is refused by the database, so credits never go negative. */
  async record(principal: Principal, meter: Meter): Promise<void> {
    if (meter === 'credits') await spendCredit(this.db, principal.workspaceId);
    else {
      const now = new Date();
      await incrementUsage(this.db, principal.workspaceId, meter === 'code_executions' ? [dayOf(now)] : [periodOf(now), dayOf(now)], meter);
    }
  }

  async report(principal: Principal): Promise<UsageReport> {
    const workspace = await findWorkspaceById(this.db, principal.workspaceId);
    if (!workspace) throw new NotFoundError('workspace not found');
    const plan = workspace.plan as Plan;
    const period = periodOf(new Date());
    const used = await usageOf(this.db, workspace.id, period);
    const counters = Object.fromEntries(
      MONTHLY_COUNTERS.map((counter) => [counter, { used: used[counter], allowance: allowanceOf(this.settings, plan, counter) }]),
    ) as UsageReport['counters'];
    return {
      workspace: workspace.slug,
      plan,
      credits: workspace.credits,
      period,
      counters,
      rate_limit: { requests: rateLimitOf(this.settings, plan), window_seconds: this.settings.RATE_LIMIT_WINDOW_SECONDS },
    };
  }

  /** The metered counters of each of the last `days` days (UTC), oldest first, today last; days without use count 0. */
  async daily(principal: Principal, days: number): Promise<DailyUsage[]> {
    const today = Date.now();
    const dates = Array.from({ length: days }, (_, index) => dayOf(new Date(today - (days - 1 - index) * DAY_MS)));
    const rows = await dailyUsage(this.db, principal.workspaceId, dates[0], dates[dates.length - 1]);
    return dates.map((date) => {
      const day = Object.fromEntries(DAILY_COUNTERS.map((counter) => [counter, 0])) as Record<DailyCounter, number>;
      for (const row of rows) if (row.period === date && row.counter in day) day[row.counter as DailyCounter] = row.count;
      return { date, ...day };
    });
  }
}
