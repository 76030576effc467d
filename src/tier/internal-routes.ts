import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { executionJson } from '../core/execute/response-json.js';
import type { Execution, Runner } from '../core/runner.js';
import { httpAnswer } from '../web/error-map.js';
import { BusyError, SandboxError, ShuttingDownError, UnauthenticatedError } from '../web/errors.js';
import { defineRoute } from '../web/route.js';
import { INTERNAL_PATHS, TIER_HEADERS, type executionMeta, type runnerErrorBody } from './protocol.js';
import { bearerCheck } from './token.js';

export interface InternalRoutesOptions {
  runner: Runner;
  /** RUNNER_TOKEN: every api node sends it as a bearer token. */
  token: string;
  /** The runner node's own metrics (src/code/metrics.ts). */
  metrics: { recordExecution(execution: Execution): void; recordFailure(body: unknown, error: unknown): void };
}

/** The api node closed the connection (its caller's key was revoked, or its own backstop ran out). */
class CallerGoneError extends Error {}

const INTERNAL = { auth: 'none' } as const;

/** A failure as the runner node sends it: the public answer, plus what the api node needs to give exactly the same one. */
function wireAnswer(error: unknown): { status: number; body: z.input<typeof runnerErrorBody>; headers: Record<string, string> } {
  const { status, body, headers = {} } = httpAnswer(error);
  if (error instanceof SandboxError) {
    // SandboxError's message is "<stage>: <detail>"
    return { status, headers, body: { ...body, stage: error.stage, detail: error.message.slice(error.stage.length + 2) } };
  }
  if (error instanceof BusyError) return { status, body, headers: { ...headers, [TIER_HEADERS.refused]: 'busy' } };
  if (error instanceof ShuttingDownError) return { status, body, headers: { ...headers, [TIER_HEADERS.refused]: 'shutting-down' } };
  return { status, body, headers };
}

/**
 * A runner node's only routes besides operations: POST /internal/v1/execute and GET
 * /internal/v1/languages, for api nodes that present RUNNER_TOKEN. No platform runs on a runner node,
 * so the token check is this module's own, before the body is read.
 */
export function internalRoutes(app: FastifyInstance, { runner, token, metrics }: InternalRoutesOptions): void {
  const authorized = bearerCheck(token);
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/internal/') && !authorized(request.headers.authorization)) {
      throw new UnauthenticatedError('the internal endpoint needs the runner token (Authorization: Bearer RUNNER_TOKEN)');
    }
  });

  defineRoute(
    app,
    {
      method: 'POST',
      url: INTERNAL_PATHS.execute,
      summary: 'Run an execution for an api node',
      access: INTERNAL,
      undocumented: true,
      bodyFormat: 'exact',
      body: runner.requestSchema,
    },
    async ({ request, reply, body }) => {
      const receivedAt = Date.now();
      const budgetMs = Number(request.headers[TIER_HEADERS.budget]);
      const caller = request.headers[TIER_HEADERS.caller];
      // The api node closes the connection when its caller may no longer run the job: the sandbox is killed at once.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort(new CallerGoneError('the api node closed the connection'));
      });
      try {
        const execution = await runner.run(body, {
          signal: gone.signal,
          caller: typeof caller === 'string' && caller ? caller : 'anonymous',
          deadline: Number.isFinite(budgetMs) && budgetMs > 0 ? receivedAt + budgetMs : undefined,
        });
        metrics.recordExecution(execution);
        const payload = await executionJson(execution.results);
        const meta: z.input<typeof executionMeta> = {
          status: execution.status,
          language: execution.language,
          timings: execution.timings,
          elapsedMs: Date.now() - receivedAt,
        };
        return reply.code(200).header(TIER_HEADERS.execution, JSON.stringify(meta)).type('application/json; charset=utf-8').send(payload);
      } catch (error) {
        if (gone.signal.aborted) {
          request.log.info({ totalMs: Date.now() - receivedAt }, 'execution abandoned by the api node; its sandbox was killed');
          // nobody reads this answer: the connection is gone
          return reply.code(499).send();
        }
        metrics.recordFailure(request.body, error);
        const answer = wireAnswer(error);
        if (answer.status >= 500 && !(error instanceof SandboxError || error instanceof BusyError || error instanceof ShuttingDownError)) {
          request.log.error({ err: error }, 'internal execution failed');
        }
        return reply.code(answer.status).headers(answer.headers).send(answer.body);
      }
    },
  );

  defineRoute(
    app,
    { method: 'GET', url: INTERNAL_PATHS.languages, summary: 'Languages, for api nodes', access: INTERNAL, undocumented: true },
    async () => ({ data: await runner.languages(), sandbox: runner.sandbox }),
  );
}
