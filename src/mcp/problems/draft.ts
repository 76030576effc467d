import { familiesFor, normaliseTopic } from './catalogue/index.js';
import { SCALES, type Args, type Difficulty, type ProblemFamily } from './family.js';
import { hashSeed, Rng } from './prng.js';

const DEFAULT_SEED = 1;
const DEFAULT_DIFFICULTY: Difficulty = 'medium';
const RANDOM_CASES: Record<Difficulty, number> = { easy: 5, medium: 7, hard: 9 };

export interface Draft {
  id: string;
  family: ProblemFamily;
  difficulty: Difficulty;
  seed: number;
  cases: Args[];
}

/** The topic matched no family; carries the list the caller can choose from. */
export class UnknownTopicError extends Error {}

/**
 * Picks a family and its cases from the arguments alone (no clock, no global randomness), so the
 * same arguments always give the same draft. The family is picked with the topic folded into the
 * seed; the cases depend only on family, difficulty and seed, so that triple names one problem
 * whichever topic led to it.
 */
export function draftProblem(options: { topic?: string; difficulty?: Difficulty; seed?: number }): Draft {
  const families = familiesFor(options.topic);
  if (families.length === 0) throw new UnknownTopicError(`unknown topic "${options.topic}"`);
  const difficulty = options.difficulty ?? DEFAULT_DIFFICULTY;
  const seed = options.seed ?? DEFAULT_SEED;
  const family = new Rng(hashSeed(seed, `${options.topic === undefined ? '' : normaliseTopic(options.topic)}/${difficulty}`)).pick(
    families,
  );
  const rng = new Rng(hashSeed(seed, `${family.id}/${difficulty}`));
  const scale = family.scales?.[difficulty] ?? SCALES[difficulty];

  const seen = new Set<string>();
  const cases: Args[] = [];
  const add = (args: Args) => {
    const key = JSON.stringify(args);
    if (!seen.has(key)) {
      seen.add(key);
      cases.push(args);
    }
  };
  family.fixed.forEach(add);
  // Duplicates are dropped, so a few spare attempts keep small input spaces from coming up short.
  for (
    let attempt = 0;
    attempt < RANDOM_CASES[difficulty] * 3 && cases.length < family.fixed.length + RANDOM_CASES[difficulty];
    attempt++
  ) {
    add(family.generate(rng, scale));
  }
  return { id: `${family.id}:${difficulty}:${seed}`, family, difficulty, seed, cases };
}
