// Leaving containers behind through the service's own life cycle: a burst of executions grows the
// warm pool, and the service is closed while the pool is still starting containers. When close()
// resolves the process may exit at once (src/main.ts does), so nothing may still be pending.
import { describe, expect, it } from 'vitest';
import { execute, leftoverContainers, startTestService } from '../support/service.js';
import { BUDGET_MS, RUNTIMES } from './support.js';
import { eventually } from '../support/eventually.js';

describe.each(RUNTIMES)('shutdown under %s', (runtime) => {
  it('closing right after a burst leaves no container, checked the moment close() resolves', async () => {
    const service = await startTestService({ SANDBOX_RUNTIME: runtime, EXECUTION_TIMEOUT_MS: String(BUDGET_MS) });
    let left = -1;
    try {
      const body = { language: 'python', code: 'def f(x):\n    return x\n', testCases: [{ args: { x: 1 }, expected: 1 }] };
      const replies = await Promise.all(Array.from({ length: 6 }, () => execute(service, body)));
      for (const reply of replies) expect(reply.body.results?.[0].passed).toBe(true);
    } finally {
      await service.close();
      left = await leftoverContainers(service);
      // clean up either way, so that one failure does not leak into the next run
      await eventually(async () => (await leftoverContainers(service)) === 0, 10_000, 250);
    }
    expect(left, 'containers present when close() resolved').toBe(0);
  });
});
