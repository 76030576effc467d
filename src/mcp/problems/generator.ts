import { LANGUAGES } from '../../core/languages.js';
import type { Runner } from '../../core/runner.js';
import { toPlainJson } from '../../web/json.js';
import { draftProblem, type Draft } from './draft.js';
import type { GenerateArguments, GeneratedProblem } from './problem-schema.js';
import { renderProblem } from './render.js';
import { functionNameIn, referenceCode } from './source.js';

const CACHE_LIMIT = 500;

/** A reference solution did not return a value: a catalogue bug, never the caller's fault. */
export class ReferenceFailedError extends Error {}

/**
 * Generates problems whose expected values come from running the family's Python reference
 * through the same runner that will later judge answers, so the data can never disagree with
 * the engine. Expected values are cached per problem id, which determines the cases.
 */
export class ProblemGenerator {
  private readonly expectedCache = new Map<string, Promise<unknown[]>>();

  constructor(private readonly runner: Pick<Runner, 'execute'>) {}

  async generate(args: GenerateArguments): Promise<GeneratedProblem> {
    const draft = draftProblem(args);
    const expected = await this.expectedFor(draft);
    return renderProblem(draft, expected, args.languages ? LANGUAGES.filter((l) => args.languages?.includes(l)) : LANGUAGES);
  }

  private expectedFor(draft: Draft): Promise<unknown[]> {
    const key = draft.id;
    const cached = this.expectedCache.get(key);
    if (cached) return cached;
    const computed = this.runReference(draft);
    this.expectedCache.set(key, computed);
    // Failures (runner busy, sandbox down) must not stick; the oldest entry goes when full.
    computed.catch(() => this.expectedCache.delete(key));
    if (this.expectedCache.size > CACHE_LIMIT) this.expectedCache.delete(this.expectedCache.keys().next().value ?? key);
    return computed;
  }

  private async runReference(draft: Draft): Promise<unknown[]> {
    const { family, cases } = draft;
    const execution = await this.runner.execute({
      code: referenceCode(family, 'python'),
      language: 'python',
      functionNames: { python: functionNameIn(family, 'python') },
      testCases: cases.map((args) => ({ args, expected: null })),
    });
    if (execution.status === 'timed-out') throw new ReferenceFailedError(`the reference solution of "${family.id}" timed out`);
    return execution.results.map((result, i) => {
      if (result.error !== null)
        throw new ReferenceFailedError(`the reference solution of "${family.id}" failed on case ${i}: ${result.error}`);
      return toPlainJson(result.actual);
    });
  }
}
