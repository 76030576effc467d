import { issuesFromZod } from '../../web/errors.js';
import { jsonSchemaOf } from '../../web/json-schema.js';
import { toPlainJson } from '../../web/json.js';
import { TOPICS } from '../problems/catalogue/index.js';
import { UnknownTopicError } from '../problems/draft.js';
import { ReferenceFailedError, type ProblemGenerator } from '../problems/generator.js';
import { generateArgumentsSchema, problemSchema } from '../problems/problem-schema.js';
import { runnerUnavailableText } from './runner-failure.js';
import { errorResult, invalidArguments, type Tool } from './tool.js';

/** generate_problem: a deterministic coding problem whose test cases feed straight into execute_code. */
export function generateProblemTool(generator: ProblemGenerator): Tool {
  return {
    name: 'generate_problem',
    title: 'Generate a coding problem',
    description: `Generates a coding interview problem with a statement, per-language signatures and starter code, examples and test cases whose expected values come from a reference solution run on this service. The same arguments always give the same problem; vary "seed" for another one. Topics: ${TOPICS.join(', ')}.`,
    inputSchema: jsonSchemaOf(generateArgumentsSchema, 'input'),
    outputSchema: jsonSchemaOf(problemSchema, 'output'),
    counter: 'mcp_problem_generations',
    async call(args) {
      const parsed = generateArgumentsSchema.safeParse(toPlainJson(args ?? {}));
      if (!parsed.success) return invalidArguments(issuesFromZod(parsed.error));
      try {
        const problem = await generator.generate(parsed.data);
        // The JSON copy serves clients that predate structuredContent (protocol 2025-03-26 and older).
        return {
          content: [
            { type: 'text', text: problem.statement },
            { type: 'text', text: JSON.stringify(problem) },
          ],
          structuredContent: problem,
        };
      } catch (error) {
        if (error instanceof UnknownTopicError) {
          return invalidArguments([
            { path: ['topic'], message: `${error.message}; known topics: ${TOPICS.join(', ')} (a family id such as "two-sum" also works)` },
          ]);
        }
        if (error instanceof ReferenceFailedError) return errorResult(`Problem generation failed: ${error.message}.`);
        const unavailable = runnerUnavailableText(error);
        if (unavailable) return errorResult(unavailable);
        throw error;
      }
    },
  };
}
