// The result floods of issue 13, on the real service and harnesses: many cases each returning a
// large value (strings, a wide list, huge integers), under every driver and runtime the attack suite
// runs (support.ts: docker with ATTACK_RUNTIMES, or ATTACK_DRIVER=oci with crun). Each runs with
// attackBeside: holding every attack slot, a prober asks /healthz every 20 ms and a small correct
// "victim" execution is sent one second in; the prober's longest wait must stay under 100 ms and the
// victim must be answered within a second. docs/security.md ("Result floods") records the figures.
import { beforeAll, describe, expect, it } from 'vitest';
import { execute } from '../support/service.js';
import { attackBeside, RUNTIMES, useAttackService, VICTIM, withSlots, type AttackContext, type AttackLanguage } from './support.js';

/** The service's default result budget (src/core/execute/result-budget.ts). */
const BUDGET = 4 * 1024 * 1024;
/** The response: the budget, plus the echoed inputs and expected values (small here) and the result items' fields. */
const MAX_BODY_BYTES = BUDGET + 64 * 1024;

interface Flood {
  name: string;
  language: AttackLanguage;
  code: string;
  cases: number;
}

const FLOODS: Flood[] = [
  {
    name: 'python: 100 cases each returning a 1,000,000-character string',
    language: 'python',
    code: 'def f(x):\n    return "a" * 1_000_000\n',
    cases: 100,
  },
  {
    name: 'javascript: 100 cases each returning "a".repeat(1e6)',
    language: 'javascript',
    code: 'function f(x) {\n  return "a".repeat(1e6);\n}\n',
    cases: 100,
  },
  {
    name: 'python: 100 cases each returning list(range(150000))',
    language: 'python',
    code: 'def f(x):\n    return list(range(150000))\n',
    cases: 100,
  },
  // the Node harness writes a BigInt as its exact decimal digits (760,589 of them)
  {
    name: 'javascript: 20 cases each returning 7n ** 900000n',
    language: 'javascript',
    code: 'function f(x) {\n  return 7n ** 900000n;\n}\n',
    cases: 20,
  },
];

/**
 * A first execution of each language, one of them returning a large value, so that no flood pays
 * for the JSON thread's first large frame or a language's first execution (held in a slot, like
 * the service's start).
 */
async function warmUp(ctx: AttackContext): Promise<void> {
  await withSlots(1, async () => {
    const large = await execute(ctx.service, { ...VICTIM, testCases: [{ args: { a: 'x', b: 'y'.repeat(100_000) }, expected: 'x' }] });
    const small = await execute(ctx.service, { ...VICTIM, language: 'javascript', code: 'function add(a, b) {\n  return a + b;\n}\n' });
    expect([large.status, small.status], 'warm-up executions').toEqual([200, 200]);
  });
}

for (const runtime of RUNTIMES) {
  describe(`result floods under ${runtime} (issue 13): bounded work per execution`, () => {
    const ctx = useAttackService(runtime);

    // after useAttackService's own beforeAll, which starts the service
    beforeAll(() => warmUp(ctx));

    it.each(FLOODS)('$name', async ({ language, code, cases }) => {
      const testCases = Array.from({ length: cases }, (_, i) => ({ args: { x: i }, expected: 0 }));
      const { reply, results, elapsedMs } = await attackBeside(ctx, language, code, { testCases });
      const bodyBytes = Number(reply.headers.get('content-length'));
      const summary = `answered ${reply.status} after ${elapsedMs} ms with ${bodyBytes} bytes`;
      console.log(`result flood: ${runtime} ${language} ${summary}`);
      expect(bodyBytes, summary).toBeGreaterThan(0);
      expect(bodyBytes, summary).toBeLessThan(MAX_BODY_BYTES);
      expect(results.every((r) => !r.passed)).toBe(true);
      // (200: the budget ended it, and the last cases say why; 408, which attackBeside accepts too:
      // on a loaded machine the huge integers can take the sandbox past its 5 s before the budget)
      if (reply.status === 200) {
        expect(results[cases - 1].error).toBe(`result budget of ${BUDGET} bytes used up: the values returned so far are too large`);
      }
    });
  });
}
