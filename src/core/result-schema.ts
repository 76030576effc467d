import { z } from 'zod';

const caseResultSchema = z.object({
  input: z.record(z.string(), z.unknown()).meta({ description: "The case's args as sent" }),
  expected: z.unknown(),
  actual: z.unknown().meta({ description: 'The returned value, encoded as JSON (null when the case errored)' }),
  passed: z.boolean(),
  runtime: z
    .string()
    .regex(/^\d+ms$/)
    .meta({ description: 'The call\'s own time inside the sandbox, e.g. "12ms"' }),
  stdout: z.string().meta({ description: 'stdout and stderr of the case, in order, capped' }),
  error: z.string().nullable().meta({ description: 'null, or one line: exception type, message and user-code line' }),
});

export const executeResponseSchema = z.object({ results: z.array(caseResultSchema) });

export type CaseResult = z.infer<typeof caseResultSchema>;
