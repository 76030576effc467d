import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { defineRoute } from '../../web/route.js';
import { principalOf } from '../access.js';
import type { Metering } from '../metering.js';
import { MONTHLY_COUNTERS, PLANS } from '../plans.js';

const counter = z.object({ used: z.number().int(), allowance: z.number().int() });

export function usageRoutes(app: FastifyInstance, metering: Metering): void {
  defineRoute(
    app,
    {
      method: 'GET',
      url: '/api/v1/usage',
      tags: ['usage'],
      summary: "The workspace's plan, credits and this month's metered counters",
      access: { auth: 'key-or-cookie', scope: 'usage:read' },
      query: z.object({ accountSlug: z.string().optional().describe('with session authentication: the workspace') }),
      response: z.object({
        data: z.object({
          workspace: z.string(),
          plan: z.enum(PLANS),
          credits: z.number().int(),
          period: z.string().describe('calendar month, UTC'),
          counters: z.object(Object.fromEntries(MONTHLY_COUNTERS.map((name) => [name, counter]))),
        }),
      }),
    },
    async ({ request }) => ({ data: await metering.report(principalOf(request)) }),
  );
}
