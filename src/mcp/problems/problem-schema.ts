import { z } from 'zod';
import { LANGUAGES } from '../../core/languages.js';
import { DIFFICULTIES } from './family.js';

export const generateArgumentsSchema = z.strictObject({
  topic: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: 'A topic tag (e.g. "graphs", "dp", "strings") or a problem family id; omitted: any family' }),
  difficulty: z.enum(DIFFICULTIES).optional().meta({ description: 'Scales input sizes and value ranges; default "medium"' }),
  languages: z
    .array(z.enum(LANGUAGES))
    .min(1)
    .optional()
    .meta({ description: 'Languages to include signatures and starter code for; default all three' }),
  seed: z.int().optional().meta({ description: 'Any integer; the same arguments always give the same problem. Default 1' }),
});

export type GenerateArguments = z.infer<typeof generateArgumentsSchema>;

const perLanguage = z.object({ python: z.string(), javascript: z.string(), typescript: z.string() }).partial();
const testCase = z.object({
  args: z.record(z.string(), z.unknown()).meta({ description: 'Arguments keyed by parameter name' }),
  expected: z.unknown().meta({ description: "The reference solution's return value" }),
});

export const problemSchema = z.object({
  id: z.string().meta({ description: 'family:difficulty:seed; the same id always denotes the same problem' }),
  family: z.string(),
  title: z.string(),
  difficulty: z.enum(DIFFICULTIES),
  topics: z.array(z.string()),
  seed: z.int(),
  statement: z.string().meta({ description: 'Markdown: task, constraints and examples' }),
  functionName: z.string().meta({ description: 'Canonical snake_case name' }),
  functionNames: perLanguage.meta({ description: 'Name per requested language; pass as functionNames to execute_code' }),
  signatures: perLanguage,
  starterCode: perLanguage,
  examples: z.array(testCase),
  testCases: z.array(testCase).meta({ description: 'Ready to pass as testCases to execute_code' }),
});

export type GeneratedProblem = z.infer<typeof problemSchema>;
