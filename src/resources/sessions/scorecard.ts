import { z } from 'zod';
import { ValidationError, type Issue } from '../../web/errors.js';
import { longText } from '../shared/fields.js';
import type { DimensionScore } from './table.js';

const MAX_TURNS = 2000;
// An interviewer has at most 20 dimensions; the cap only bounds the work and the issues an absurd body can cause.
const MAX_SCORES = 100;

const transcriptTurn = z.strictObject({
  speaker: z.string().min(1, 'must not be empty').max(100),
  text: z.string().max(20000),
  at: z.iso.datetime({ offset: true }),
});

export const scorecardBody = z.strictObject({
  scores: z
    .record(z.string(), z.number())
    .refine((scores) => Object.keys(scores).length <= MAX_SCORES, `must name at most ${MAX_SCORES} dimensions`)
    .describe("one score per dimension of the round's interviewer, by dimension name, on the interviewer's scale"),
  transcript: z.array(transcriptTurn).max(MAX_TURNS).optional(),
  recording_url: z
    .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
    .max(2048)
    .optional(),
  summary: longText.optional(),
});

type Scale = '0-10' | '0-5' | '0-100';

export interface ScorecardContext {
  dimensions: Array<{ name: string; weight: number }>;
  scale: Scale;
  passThreshold: number | null;
  successOutcome: string;
}

export interface ComputedScorecard {
  scale: string;
  scores: DimensionScore[];
  weighted_score: number;
  pass_threshold: number;
  passed: boolean;
  recommendation: string;
}

const SCALE_MAX: Record<Scale, number> = { '0-10': 10, '0-5': 5, '0-100': 100 };

/** A round without a pass_threshold passes at 70 %. */
const DEFAULT_PASS_THRESHOLD = 70;

/** [if passed, if not] in the vocabulary of a role's success_outcome; `custom` and anything unknown read as pass/fail. */
const VERDICTS: Record<string, [string, string]> = {
  hire_no_hire: ['hire', 'no_hire'],
  admit_reject: ['admit', 'reject'],
  pass_fail: ['pass', 'fail'],
  ready_needs_training: ['ready', 'needs_training'],
  certified_not_certified: ['certified', 'not_certified'],
};
const DEFAULT_VERDICT: [string, string] = ['pass', 'fail'];

const round2 = (value: number) => Math.round((value + Number.EPSILON) * 100) / 100;

/**
 * Checks the reported scores against the interviewer's dimensions and scale (every problem at once) and computes the result.
 * The pass decision compares the rounded weighted score, as a percentage of the scale, with the threshold, so that a reader
 * can reproduce it from the stored numbers.
 */
export function computeScorecard(body: z.output<typeof scorecardBody>, context: ScorecardContext): ComputedScorecard {
  const max = SCALE_MAX[context.scale];
  const known = new Set(context.dimensions.map((d) => d.name));
  const issues: Issue[] = [];
  for (const { name } of context.dimensions) {
    // Own keys only: a dimension called `constructor` must not read Object.prototype's.
    const score = Object.hasOwn(body.scores, name) ? body.scores[name] : undefined;
    if (score === undefined) issues.push({ path: ['scores', name], message: `missing score for dimension ${name}` });
    else if (score < 0 || score > max)
      issues.push({ path: ['scores', name], message: `must be on the interviewer's scale ${context.scale}` });
  }
  for (const name of Object.keys(body.scores)) {
    if (!known.has(name)) issues.push({ path: ['scores', name], message: `unknown dimension ${name}: the interviewer does not score it` });
  }
  if (issues.length > 0) throw ValidationError.fromIssues(issues);

  const scores = context.dimensions.map(({ name, weight }) => ({ name, score: body.scores[name], weight }));
  const totalWeight = scores.reduce((sum, d) => sum + d.weight, 0);
  const weighted_score = round2(scores.reduce((sum, d) => sum + d.score * d.weight, 0) / totalWeight);
  const pass_threshold = context.passThreshold ?? DEFAULT_PASS_THRESHOLD;
  const passed = round2((weighted_score * 100) / max) >= pass_threshold;
  const [yes, no] = VERDICTS[context.successOutcome] ?? DEFAULT_VERDICT;
  return { scale: context.scale, scores, weighted_score, pass_threshold, passed, recommendation: passed ? yes : no };
}
