import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '../../web/route.js';
import { principalOf } from '../access.js';
import type { Metering } from '../metering.js';
import { DAILY_COUNTERS, MONTHLY_COUNTERS, PLANS } from '../plans.js';

const ACCESS = { auth: 'key-or-cookie', scope: 'usage:read' } as const;
const accountSlug = z.string().optional().describe('with session authentication: the workspace');
const counter = z.object({ used: z.number().int(), allowance: z.number().int() });

export function usageRoutes(app: FastifyInstance, metering: Metering): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/usage',
      tags: ['usage'],
      summary: "The workspace's plan, credits, this month's metered counters and the plan's rate limit",
      access: ACCESS,
      query: z.object({ accountSlug }),
      response: z.object({
        data: z.object({
          workspace: z.string(),
          plan: z.enum(PLANS),
          credits: z.number().int(),
          period: z.string().describe('calendar month, UTC'),
          counters: z.object(Object.fromEntries(MONTHLY_COUNTERS.map((name) => [name, counter]))),
          rate_limit: z
            .object({ requests: z.number().int(), window_seconds: z.number().int() })
            .describe("requests an API key of this plan may make per window (the X-RateLimit-Limit of the plan's keys)"),
        }),
      }),
    },
    async ({ request }) => ({ data: await metering.report(principalOf(request)) }),
  );

  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/usage/daily',
      tags: ['usage'],
      summary: "The workspace's counters per day (UTC), oldest first, today last",
      description: "The two MCP counters, and code_executions: POST /api/v1/code/execute runs made with one of the workspace's keys.",
      access: ACCESS,
      query: z.object({ days: z.coerce.number().int().min(1).max(90).default(30).describe('how many days, today included'), accountSlug }),
      response: z.object({
        data: z.array(
          z.object({
            date: z.string().describe('YYYY-MM-DD, UTC'),
            ...Object.fromEntries(DAILY_COUNTERS.map((name) => [name, z.number().int()])),
          }),
        ),
      }),
    },
    async ({ request, query }) => ({ data: await metering.daily(principalOf(request), query.days) }),
  );
}
