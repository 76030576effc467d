import type { FastifyInstance } from 'fastify';
import { Counter, type Registry } from 'prom-client';
import { SandboxError } from '../web/errors.js';

/**
 * Counts the executions whose sandbox failed (502), by the stage that failed: engine, image, create,
 * attach, start, write, read, wait, remove, pool. The error carries the stage; executions_total's
 * outcome only says sandbox_error. Wire it where sandboxes run (SERVICE_ROLE all or runner), so that
 * an api node passing a runner's 502 on does not count it twice. Call before the app is ready.
 */
export function countSandboxFailures(app: FastifyInstance, registry: Registry): void {
  const failures = new Counter({
    name: 'code_runner_sandbox_failures_total',
    help: 'Executions whose sandbox failed (502), by the stage that failed',
    labelNames: ['stage'],
    registers: [registry],
  });
  app.addHook('onError', async (_request, _reply, error) => {
    if (error instanceof SandboxError) failures.inc({ stage: error.stage });
  });
}
