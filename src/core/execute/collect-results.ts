import { isLosslessNumber } from 'lossless-json';
import { valuesEqual } from '../compare.js';
import { RawJson } from '../raw-json.js';
import type { TestCase } from '../request-schema.js';
import type { CaseResult } from '../result-schema.js';
import { exactJson, parseExactJson } from '../../web/json.js';
import { jsonWorker } from './json-worker.js';
import type { CaseOutcome } from './run-job.js';
import { Slicer } from './slices.js';

/** The JSON text of results whose value was kept as text (RawJson), for the response to copy as it is. */
const rawActuals = new WeakMap<CaseResult, string>();

/** The returned value's JSON text when it was kept as text (a large value); undefined otherwise. */
export function rawActualText(result: CaseResult): string | undefined {
  return rawActuals.get(result);
}

/**
 * A value kept as text is parsed only when someone reads `actual` (the MCP tool does; the REST
 * response copies the text instead), once, on the reader's thread.
 */
function withRawActual(result: CaseResult, raw: RawJson): CaseResult {
  let parsed: { value: unknown } | undefined;
  Object.defineProperty(result, 'actual', {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= { value: parseExactJson(raw.text) }).value,
    set: (value: unknown) => {
      rawActuals.delete(result);
      parsed = { value };
    },
  });
  rawActuals.set(result, raw.text);
  return result;
}

/**
 * Compares a value kept as text where that costs nothing: a string (native JSON.parse, no numbers to
 * keep exact), or a value of another kind than expected (an array or object against a scalar, or the
 * reverse). Undefined when the JSON worker has to compare them.
 */
function quickEqual(expected: unknown, text: string): boolean | undefined {
  if (text.startsWith('"')) return typeof expected === 'string' && JSON.parse(text) === expected;
  const container = text.startsWith('[') || text.startsWith('{');
  const expectedContainer = typeof expected === 'object' && expected !== null && !isLosslessNumber(expected);
  return container === expectedContainer ? undefined : false;
}

/**
 * Turns per-case outcomes (or the reason a case has none) into the API's result items, in request
 * order. The work is cut into slices of the event loop; a value kept as text is compared in the
 * JSON worker.
 */
export async function collectResults(
  testCases: TestCase[],
  outcomes: Map<number, CaseOutcome>,
  missing: (i: number) => string,
  leadingStdout = '',
): Promise<CaseResult[]> {
  const slicer = new Slicer();
  const results: CaseResult[] = [];
  const comparisons: Array<Promise<void>> = [];
  for (const [i, testCase] of testCases.entries()) {
    await slicer.pause();
    const outcome = outcomes.get(i);
    const error = outcome ? outcome.error : missing(i);
    const actual = outcome && outcome.error === null ? outcome.value : null;
    const result: CaseResult = {
      input: testCase.args,
      expected: testCase.expected,
      actual: actual instanceof RawJson ? null : actual,
      passed: error === null && !(actual instanceof RawJson) && valuesEqual(testCase.expected, actual),
      runtime: `${Math.max(0, Math.round(outcome?.ms ?? 0))}ms`,
      stdout: (i === 0 ? leadingStdout : '') + (outcome?.stdout ?? ''),
      error,
    };
    if (actual instanceof RawJson) {
      withRawActual(result, actual);
      const quick = error === null ? quickEqual(testCase.expected, actual.text) : false;
      if (quick !== undefined) result.passed = quick;
      else {
        comparisons.push(
          jsonWorker.equal(exactJson(testCase.expected), actual.text).then((equal) => {
            result.passed = equal;
          }),
        );
      }
    }
    results.push(result);
  }
  await Promise.all(comparisons);
  return results;
}
