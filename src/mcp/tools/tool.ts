import type { RunOptions } from '../../core/runner.js';
import type { MonthlyCounter } from '../../platform/index.js';
import type { Issue } from '../../web/errors.js';
import type { JsonSchema } from '../../web/json-schema.js';

export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** Counted once per call whose result is not an error. */
  counter: MonthlyCounter;
  /** `run` says whose call it is and aborts when the caller may no longer run it (its key was revoked). */
  call(args: unknown, run: RunOptions): Promise<ToolResult>;
}

export function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * Bad arguments are a tool result, not a protocol error, so that a model can read which field
 * to fix. Structured content is left out: it would have to match the output schema.
 */
export function invalidArguments(issues: readonly Issue[]): ToolResult {
  const lines = issues.map((issue) => `- ${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`);
  return errorResult(['Invalid arguments:', ...lines].join('\n'));
}
