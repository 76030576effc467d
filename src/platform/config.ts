import { z } from 'zod';
import { envBool as bool, envInt as int, loadEnv } from '../web/env.js';
import { PLANS, type Plan } from './plans.js';

const perPlan = (prefix: string, defaults: Record<Plan, number>) =>
  Object.fromEntries(PLANS.map((plan) => [`${prefix}_${plan.toUpperCase()}`, int(defaults[plan])])) as Record<
    `${string}_${Uppercase<Plan>}`,
    ReturnType<typeof int>
  >;

/** The platform's environment variables; src/config.ts merges this shape into the service's. */
export const platformConfigSchema = z.object({
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  // Absent: a random secret is generated once and kept in DATA_DIR, so sessions survive restarts.
  SESSION_SECRET: z.string().min(32).optional(),
  SESSION_TTL_HOURS: int(24 * 7, 1),
  COOKIE_SECURE: bool.default(false),
  RATE_LIMIT_WINDOW_SECONDS: int(60, 1),
  // Per client IP. Anonymous execution usually comes from the interview platform itself, one IP for all its users.
  RATE_LIMIT_ANONYMOUS: int(1200, 1),
  RATE_LIMIT_SIGNED_IN: int(600, 1),
  ...perPlan('RATE_LIMIT', { free: 60, starter: 300, pro: 1200, enterprise: 6000 }),
  ...perPlan('MCP_CODE_EXECUTIONS', { free: 100, starter: 2000, pro: 20000, enterprise: 200000 }),
  ...perPlan('MCP_PROBLEM_GENERATIONS', { free: 20, starter: 200, pro: 2000, enterprise: 20000 }),
  ...perPlan('PLAN_CREDITS', { free: 0, starter: 500, pro: 5000, enterprise: 50000 }),
  // The outbox (docs/outbox.md): invites, webhook deliveries and résumé fetches, delivered after commit.
  OUTBOX_POLL_MS: int(500, 10),
  OUTBOX_LEASE_MS: int(60_000, 1000),
  OUTBOX_CONCURRENCY: int(4, 1),
  OUTBOX_MAX_ATTEMPTS: int(8, 1),
  OUTBOX_BACKOFF_BASE_MS: int(2000, 1),
  OUTBOX_BACKOFF_MAX_MS: int(10 * 60_000, 1),
  // Absent: emails stay in the outbox, readable with `npm run cli -- outbox list`.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Interviews <no-reply@localhost>'),
  ADMIN_ENDPOINT: bool.default(true),
  ADMIN_PORT: int(0, 0),
});

export type PlatformConfig = z.infer<typeof platformConfigSchema>;

export function loadPlatformConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  return loadEnv(platformConfigSchema, env);
}
