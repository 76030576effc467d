// The result floods of issue 13, on the real service and harnesses: many cases each returning a
// large value (strings, a wide list, huge integers). Each runs with a prober asking /healthz every
// 20 ms and a small correct "victim" execution sent one second in. The service runs in this process,
// so a stall of its event loop is a stall of the prober's: the prober's longest wait is measured
// while the attack is in flight, until its body has arrived (before the test parses it).
// docs/security.md ("Result floods") records the figures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { execute, startTestService } from '../support/service.js';
import { expectVictimAnswered, sendVictim, startProber, VICTIM } from './support.js';

const BUDGET = 4 * 1024 * 1024;
/**
 * The goal is 100 ms; alone these floods measure 20-74 ms, but beside the rest of the suite on two
 * cores one reached 263 ms (docs/security.md). 600 ms stays honest on a loaded CI machine and still
 * fails at once if values were parsed on the event loop again (1.4-5 s before).
 */
const MAX_HEALTH_WAIT_MS = 600;
const VICTIM_WITHIN_MS = 3_000;
const ANSWER_WITHIN_MS = 20_000;

interface Attack {
  name: string;
  language: 'python' | 'javascript';
  code: string;
  cases: number;
}

const ATTACKS: Attack[] = [
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

describe('result floods (issue 13): bounded work per execution', () => {
  let service: Service;

  beforeAll(async () => {
    service = await startTestService();
    // a first execution of each language, one with a large value, so that no attack pays for the
    // pool's start or the JSON worker's
    await execute(service, { ...VICTIM, testCases: [{ args: { a: 'x', b: 'y'.repeat(100_000) }, expected: 'x' }] });
    await execute(service, { ...VICTIM, language: 'javascript', code: 'function add(a, b) {\n  return a + b;\n}\n' });
  });

  afterAll(async () => {
    await service?.close();
  });

  it.each(ATTACKS)('$name', async ({ language, code, cases }) => {
    const body = {
      language,
      code,
      functionName: 'f',
      testCases: Array.from({ length: cases }, (_, i) => ({ args: { x: i }, expected: 0 })),
    };
    const prober = startProber(service);
    const started = performance.now();
    const attack = (async () => {
      const response = await fetch(`${service.url}/api/v1/code/execute`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, text, elapsedMs: Math.round(performance.now() - started) };
    })();
    const victim = sendVictim(service, 1_000);

    const answered = await attack;
    const health = await prober.stop();
    const victimReply = await victim;
    const victimMs = victimReply.elapsedMs;
    const summary = `${language} attack: answered ${answered.status} after ${answered.elapsedMs} ms with ${answered.text.length} bytes; longest /healthz wait ${health.longestWaitMs} ms over ${health.probes} probes; victim ${victimMs} ms`;
    console.log(summary);

    expect(health.longestWaitMs, summary).toBeLessThan(MAX_HEALTH_WAIT_MS);
    expect([200, 408], summary).toContain(answered.status);
    expect(answered.elapsedMs, summary).toBeLessThan(ANSWER_WITHIN_MS);
    expect(answered.text.length, summary).toBeLessThan(BUDGET + 2 * 1024 * 1024);
    expectVictimAnswered(victimReply);
    expect(victimMs, summary).toBeLessThan(VICTIM_WITHIN_MS);

    const results = (JSON.parse(answered.text) as { results: Array<{ passed: boolean; error: string | null }> }).results;
    expect(results).toHaveLength(cases);
    expect(results.every((r) => !r.passed)).toBe(true);
    if (answered.status === 200) {
      // the budget stopped it: the last cases say why
      expect(results[cases - 1].error).toBe(`result budget of ${BUDGET} bytes used up: the values returned so far are too large`);
    }
  });
});
