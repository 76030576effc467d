import { z } from 'zod';
import { LANGUAGES } from '../../core/languages.js';
import { executeResponseSchema, type CaseResult } from '../../core/result-schema.js';
import type { Execution, ExecutionRunner } from '../../core/runner.js';
import { UnsupportedLanguageError, ValidationError } from '../../web/errors.js';
import { jsonSchemaOf } from '../../web/json-schema.js';
import { exactJson } from '../../web/json.js';
import { runnerUnavailableText } from './runner-failure.js';
import { errorResult, invalidArguments, type Tool, type ToolResult } from './tool.js';

const VALUE_PREVIEW = 200;

/** The REST response plus a summary, so a client need not count results itself. */
const executeCodeOutputSchema = executeResponseSchema.extend({
  language: z.enum(LANGUAGES),
  timedOut: z
    .boolean()
    .meta({ description: 'true when the whole execution hit the time limit; cases without a result then carry an error' }),
  passed: z.int().min(0),
  total: z.int().min(0),
});

function preview(value: unknown): string {
  const text = exactJson(value);
  return text.length > VALUE_PREVIEW ? `${text.slice(0, VALUE_PREVIEW)}…` : text;
}

function caseLine(result: CaseResult, i: number): string {
  if (result.passed) return `✓ case ${i + 1} (${result.runtime})`;
  if (result.error !== null) return `✗ case ${i + 1}: ${result.error}`;
  return `✗ case ${i + 1}: expected ${preview(result.expected)}, got ${preview(result.actual)} (${result.runtime})`;
}

function render(execution: Execution, timeoutMs: number): ToolResult {
  const { results } = execution;
  const passed = results.filter((r) => r.passed).length;
  const timedOut = execution.status === 'timed-out';
  const headline = timedOut
    ? `Execution timed out after ${timeoutMs} ms: ${passed}/${results.length} passed before the limit.`
    : `${passed}/${results.length} passed (${execution.language}).`;
  return {
    content: [{ type: 'text', text: [headline, ...results.map(caseLine)].join('\n') }],
    structuredContent: { results, language: execution.language, timedOut, passed, total: results.length },
    // A timeout is the tool failing, not the code being wrong, so it is flagged; partial results still come back.
    ...(timedOut ? { isError: true } : {}),
  };
}

/** execute_code: the REST execute endpoint's arguments, engine and per-case results. */
export function executeCodeTool(runner: Pick<ExecutionRunner, 'execute' | 'requestSchema'>, timeoutMs: number): Tool {
  return {
    name: 'execute_code',
    title: 'Execute code against test cases',
    description:
      'Runs a Python, JavaScript or TypeScript function against test cases in a throwaway sandbox and reports, per case, the input, expected and actual value, pass/fail, runtime, captured output and error. Same arguments and results as POST /api/v1/code/execute.',
    inputSchema: jsonSchemaOf(runner.requestSchema, 'input'),
    outputSchema: jsonSchemaOf(executeCodeOutputSchema, 'output'),
    counter: 'mcp_code_executions',
    async call(args, run) {
      try {
        return render(await runner.execute(args, run), timeoutMs);
      } catch (error) {
        if (error instanceof ValidationError) return invalidArguments(error.issues);
        if (error instanceof UnsupportedLanguageError) return invalidArguments([{ path: ['language'], message: error.message }]);
        const unavailable = runnerUnavailableText(error);
        if (unavailable) return errorResult(unavailable);
        throw error;
      }
    },
  };
}
