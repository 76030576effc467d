import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { executionJson } from '../core/execute/response-json.js';
import { executeResponseSchema } from '../core/result-schema.js';
import type { ExecutionRunner } from '../core/runner.js';
import type { Platform } from '../platform/index.js';
import { httpAnswer } from '../web/error-map.js';
import { defineRoute } from '../web/route.js';
import type { RunnerMetrics } from './metrics.js';

export interface ExecuteRouteOptions {
  runner: ExecutionRunner;
  metrics: RunnerMetrics;
  timeoutMs: number;
  /** Counts a keyed caller's executions per day (free of charge: the usage page's chart). */
  metering: Pick<Platform, 'meter'>;
}

/** Whose line in the runner's queue: the key, or the client IP for anonymous calls. */
function callerOf(request: FastifyRequest): string {
  return request.principal?.keyId ? `key:${request.principal.keyId}` : `ip:${request.ip}`;
}

/** POST /api/v1/code/execute: the REST face of the runner core. */
export function executeRoute(app: FastifyInstance, { runner, metrics, timeoutMs, metering }: ExecuteRouteOptions): void {
  defineRoute(
    app,
    {
      method: 'POST',
      url: '/api/v1/code/execute',
      tags: ['code'],
      access: { auth: 'optional-key' },
      summary: 'Run a function against test cases in a single-use sandbox',
      description:
        'Numbers keep their exact text (3.0 stays a float, big integers stay exact). A user-code fault is a failed case, not an error. Free of charge; anonymous callers are rate-limited per IP.',
      bodyFormat: 'exact',
      body: runner.requestSchema,
      response: executeResponseSchema,
      responses: {
        408: `The ${timeoutMs} ms limit passed; \`results\` holds the finished cases and "timed out" for the rest`,
        413: 'Body larger than the limit',
        415: 'Content-Type is not application/json',
        422: 'Unsupported language',
        502: 'The sandbox failed (the message names the stage: create, attach, start, wait, image, engine)',
        503: 'Queue full or shutting down; see Retry-After',
      },
    },
    async ({ request, reply, body }) => {
      const executionId = randomUUID();
      const started = Date.now();
      try {
        const execution = await runner.run(body, { signal: request.keyRevoked, caller: callerOf(request) });
        metrics.recordExecution(execution);
        // A count that cannot be written must not cost the caller the results it already has.
        await metering
          .meter(request, 'code_executions')
          .catch((error: unknown) => request.log.warn({ err: error }, 'execution not counted'));
        const timedOut = execution.status === 'timed-out';
        const passed = execution.results.filter((r) => r.passed).length;
        request.log.info(
          {
            executionId,
            language: execution.language,
            cases: execution.results.length,
            outcome: timedOut ? 'timeout' : `${passed}/${execution.results.length} passed`,
            ...execution.timings,
            totalMs: Date.now() - started,
          },
          'execution finished',
        );
        // built in slices of the event loop, large values copied as text (src/core/execute/response-json.ts)
        const payload = await executionJson(execution.results, timedOut ? `execution timed out after ${timeoutMs} ms` : undefined);
        return reply
          .code(timedOut ? 408 : 200)
          .header('x-execution-id', executionId)
          .type('application/json; charset=utf-8')
          .send(payload);
      } catch (error) {
        metrics.recordFailure(request.body, error);
        request.log.info({ executionId, status: httpAnswer(error).status, totalMs: Date.now() - started }, 'execution not run');
        throw error;
      }
    },
  );
}
