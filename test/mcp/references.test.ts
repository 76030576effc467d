import { afterAll, beforeAll, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/core/languages.js';
import type { Service } from '../../src/service.js';
import { CATALOGUE } from '../../src/mcp/problems/catalogue/index.js';
import { ProblemGenerator } from '../../src/mcp/problems/generator.js';
import { referenceCode } from '../../src/mcp/problems/source.js';
import { startTestService } from '../support/service.js';

let service: Service;
let generator: ProblemGenerator;
beforeAll(async () => {
  service = await startTestService({ POOL_MIN_PYTHON: '2', POOL_MIN_NODE: '2' });
  generator = new ProblemGenerator(service.runner);
});
afterAll(async () => {
  await service?.close();
});

// Expected values come from the Python reference, so Python passing checks the plumbing and
// JavaScript/TypeScript passing checks that the three references agree on the hardest inputs.
it.each(CATALOGUE.map((f) => [f.id, f] as const))(
  '%s: the reference passes its generated cases in every language',
  async (id, family) => {
    const problem = await generator.generate({ topic: id, difficulty: 'hard', seed: 2024 });
    expect(problem.family).toBe(id);
    for (const language of LANGUAGES) {
      const execution = await service.runner.execute({
        code: referenceCode(family, language),
        language,
        functionNames: problem.functionNames,
        testCases: problem.testCases,
      });
      const failures = execution.results
        .filter((r) => !r.passed)
        .map((r) => ({ input: r.input, expected: r.expected, actual: r.actual, error: r.error }));
      expect(failures, `${id} in ${language}`).toEqual([]);
      expect(execution.status).toBe('completed');
    }
  },
  120_000,
);
