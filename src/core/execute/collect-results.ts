import { valuesEqual } from '../compare.js';
import type { TestCase } from '../request-schema.js';
import type { CaseResult } from '../result-schema.js';
import type { CaseOutcome } from './run-job.js';

/** Turns per-case outcomes (or the reason a case has none) into the API's result items, in request order. */
export function collectResults(
  testCases: TestCase[],
  outcomes: Map<number, CaseOutcome>,
  missing: (i: number) => string,
  leadingStdout = '',
): CaseResult[] {
  return testCases.map((testCase, i) => {
    const outcome = outcomes.get(i);
    const error = outcome ? outcome.error : missing(i);
    const actual = outcome && outcome.error === null ? outcome.value : null;
    return {
      input: testCase.args,
      expected: testCase.expected,
      actual,
      passed: error === null && valuesEqual(testCase.expected, actual),
      runtime: `${Math.max(0, Math.round(outcome?.ms ?? 0))}ms`,
      stdout: (i === 0 ? leadingStdout : '') + (outcome?.stdout ?? ''),
      error,
    };
  });
}
