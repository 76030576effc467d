import type { Rng } from './prng.js';

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

/** The value types problems use; each maps to a Python annotation and a TypeScript type. */
export type ValueType = 'int' | 'bool' | 'str' | 'int[]' | 'str[]' | 'int[][]' | 'str[][]';

/** Parameter names are single lowercase words so one `args` object binds in every language. */
export interface Param {
  name: string;
  type: ValueType;
}

export type Args = Record<string, unknown>;

/** How big inputs get: `n` bounds collection sizes, `v` the magnitude of values. */
export interface Scale {
  n: number;
  v: number;
}

export const SCALES: Record<Difficulty, Scale> = {
  easy: { n: 6, v: 10 },
  medium: { n: 20, v: 100 },
  hard: { n: 60, v: 1000 },
};

/**
 * One parameterised problem. The catalogue is plain data plus a case generator, so a test can
 * iterate every family and run its reference bodies in each language without special cases.
 */
export interface ProblemFamily {
  id: string;
  title: string;
  tags: readonly string[];
  /** Canonical snake_case name; JavaScript and TypeScript use its camelCase form. */
  functionName: string;
  params: readonly Param[];
  returns: ValueType;
  /** What to compute, in prose; `{n}` and `{v}` in `constraints` are replaced from the scale. */
  statement: string;
  constraints: readonly string[];
  /** Hand-picked edge cases, always included first (the first two double as examples). */
  fixed: readonly Args[];
  /** Sizes per difficulty when the defaults would overflow or make no sense for this family. */
  scales?: Record<Difficulty, Scale>;
  /** One random case at the given scale. */
  generate(rng: Rng, scale: Scale): Args;
  /** Reference function bodies (no header): Python indented by the generator, JavaScript also serves TypeScript. */
  solution: { python: string; javascript: string };
}
