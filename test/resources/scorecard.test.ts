import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/web/errors.js';
import { computeScorecard, scorecardBody, type ScorecardContext } from '../../src/resources/sessions/scorecard.js';

const DIMENSIONS = [
  { name: 'problem solving', weight: 50 },
  { name: 'communication', weight: 30 },
  { name: 'code quality', weight: 20 },
];

function context(overrides: Partial<ScorecardContext> = {}): ScorecardContext {
  return { dimensions: DIMENSIONS, scale: '0-10', passThreshold: 70, successOutcome: 'hire_no_hire', ...overrides };
}

const scoresOf = (a: number, b: number, c: number) => ({ 'problem solving': a, communication: b, 'code quality': c });

/** The issues of the ValidationError `run` throws; fails the test, saying what happened, if it throws nothing else. */
function issuesOf(run: () => unknown) {
  try {
    const result = run();
    throw new Error(`expected a ValidationError, got a result: ${JSON.stringify(result)}`);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.issues;
  }
}

describe('computeScorecard', () => {
  it('weighs the scores, keeps the interviewer order and decides against the threshold', () => {
    const body = { scores: { 'code quality': 9, communication: 6, 'problem solving': 8 } };
    expect(computeScorecard(body, context())).toEqual({
      scale: '0-10',
      scores: [
        { name: 'problem solving', score: 8, weight: 50 },
        { name: 'communication', score: 6, weight: 30 },
        { name: 'code quality', score: 9, weight: 20 },
      ],
      weighted_score: 7.6,
      pass_threshold: 70,
      passed: true,
      recommendation: 'hire',
    });
  });

  it('reads pass_threshold as a percentage of the scale on every scale', () => {
    expect(computeScorecard({ scores: scoresOf(80, 60, 90) }, context({ scale: '0-100' }))).toMatchObject({
      weighted_score: 76,
      passed: true,
    });
    expect(computeScorecard({ scores: scoresOf(4, 3, 4.5) }, context({ scale: '0-5' }))).toMatchObject({
      weighted_score: 3.8,
      passed: true,
    });
    expect(computeScorecard({ scores: scoresOf(8, 6, 9) }, context({ passThreshold: 80 }))).toMatchObject({
      weighted_score: 7.6,
      pass_threshold: 80,
      passed: false,
      recommendation: 'no_hire',
    });
  });

  it('passes a score exactly at the threshold, without floating-point noise', () => {
    expect(computeScorecard({ scores: scoresOf(3.5, 3.5, 3.5) }, context({ scale: '0-5' }))).toMatchObject({
      weighted_score: 3.5,
      passed: true,
    });
    expect(computeScorecard({ scores: scoresOf(5.7, 5.7, 5.7) }, context({ passThreshold: 57 }))).toMatchObject({ passed: true });
    // 0.7 / 5 * 100 is 13.999999999999998 in floating point.
    expect(computeScorecard({ scores: scoresOf(0.7, 0.7, 0.7) }, context({ scale: '0-5', passThreshold: 14 }))).toMatchObject({
      passed: true,
    });
    expect(computeScorecard({ scores: scoresOf(7, 7, 6.95) }, context())).toMatchObject({ weighted_score: 6.99, passed: false });
  });

  it('uses 70 when the round has no pass_threshold and says so', () => {
    expect(computeScorecard({ scores: scoresOf(7, 7, 7) }, context({ passThreshold: null }))).toMatchObject({
      pass_threshold: 70,
      passed: true,
    });
    expect(computeScorecard({ scores: scoresOf(6, 7, 7) }, context({ passThreshold: null }))).toMatchObject({
      pass_threshold: 70,
      passed: false,
    });
  });

  it('rounds the weighted score to two decimals', () => {
    const dimensions = [
      { name: 'a', weight: 33.33 },
      { name: 'b', weight: 33.33 },
      { name: 'c', weight: 33.34 },
    ];
    expect(computeScorecard({ scores: { a: 7, b: 8, c: 8 } }, context({ dimensions })).weighted_score).toBe(7.67);
    expect(computeScorecard({ scores: { a: 1, b: 0 } }, context({ dimensions: dimensions.slice(0, 2) })).weighted_score).toBe(0.5);
  });

  it.each([
    ['hire_no_hire', 'hire', 'no_hire'],
    ['admit_reject', 'admit', 'reject'],
    ['pass_fail', 'pass', 'fail'],
    ['ready_needs_training', 'ready', 'needs_training'],
    ['certified_not_certified', 'certified', 'not_certified'],
    ['custom', 'pass', 'fail'],
  ])('speaks the vocabulary of %s', (successOutcome, yes, no) => {
    expect(computeScorecard({ scores: scoresOf(9, 9, 9) }, context({ successOutcome })).recommendation).toBe(yes);
    expect(computeScorecard({ scores: scoresOf(2, 2, 2) }, context({ successOutcome })).recommendation).toBe(no);
  });

  it('refuses a missing dimension, naming it', () => {
    expect(issuesOf(() => computeScorecard({ scores: { 'problem solving': 8, communication: 6 } }, context()))).toEqual([
      { path: ['scores', 'code quality'], message: 'missing score for dimension code quality' },
    ]);
  });

  it('does not read a missing dimension from Object.prototype', () => {
    const dimensions = [{ name: 'constructor', weight: 100 }];
    expect(issuesOf(() => computeScorecard({ scores: {} }, context({ dimensions })))).toEqual([
      { path: ['scores', 'constructor'], message: 'missing score for dimension constructor' },
    ]);
  });

  it('refuses a dimension the interviewer does not have', () => {
    const issues = issuesOf(() => computeScorecard({ scores: { ...scoresOf(8, 6, 9), charisma: 10 } }, context()));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(['scores', 'charisma']);
    expect(issues[0].message).toContain('unknown dimension');
  });

  it.each([
    ['0-10', 10.01, 10],
    ['0-10', -0.5, 0],
    ['0-5', 5.5, 5],
    ['0-100', 101, 100],
    ['0-100', -1, 0],
  ] as const)('refuses a score off the %s scale (%d) and accepts its bound %d', (scale, off, bound) => {
    const issues = issuesOf(() => computeScorecard({ scores: scoresOf(off, 1, 1) }, context({ scale })));
    expect(issues).toEqual([{ path: ['scores', 'problem solving'], message: expect.stringContaining(scale) }]);
    expect(computeScorecard({ scores: scoresOf(bound, bound, bound) }, context({ scale })).weighted_score).toBe(bound);
  });

  it('reports every problem at once', () => {
    const error = (() => {
      try {
        computeScorecard({ scores: { 'problem solving': 11, extra: 1, other: 2 } }, context());
      } catch (caught) {
        return caught;
      }
    })();
    expect(error, 'a ValidationError').toBeInstanceOf(ValidationError);
    const { issues, message } = error as ValidationError;
    expect(issues.map((i) => i.path[1]).sort()).toEqual(['code quality', 'communication', 'extra', 'other', 'problem solving']);
    expect(message).toContain('scores.extra');
  });
});

describe('scorecardBody', () => {
  const turn = { speaker: 'interviewer', text: 'Tell me about a hard bug.', at: '2026-12-01T15:00:05+01:00' };

  it('accepts a full body', () => {
    const body = {
      scores: { a: 7.5 },
      transcript: [turn, { ...turn, speaker: 'candidate', at: '2026-12-01T14:00:30.250Z' }],
      recording_url: 'https://recordings.example.com/r/1.webm',
      summary: 'Solid.',
    };
    expect(scorecardBody.parse(body)).toEqual(body);
    expect(scorecardBody.parse({ scores: {} })).toEqual({ scores: {} });
  });

  it.each([
    ['no scores', {}, ['scores']],
    ['a score that is not a number', { scores: { a: '7' } }, ['scores', 'a']],
    ['an unknown field', { scores: {}, notes: 'x' }, []],
    ['a turn without an offset', { scores: {}, transcript: [{ ...turn, at: '2026-12-01T15:00:05' }] }, ['transcript', '0', 'at']],
    ['a turn that is not a date', { scores: {}, transcript: [{ ...turn, at: 'yesterday' }] }, ['transcript', '0', 'at']],
    ['an empty speaker', { scores: {}, transcript: [{ ...turn, speaker: '' }] }, ['transcript', '0', 'speaker']],
    ['a long speaker', { scores: {}, transcript: [{ ...turn, speaker: 'x'.repeat(101) }] }, ['transcript', '0', 'speaker']],
    ['a long turn', { scores: {}, transcript: [{ ...turn, text: 'x'.repeat(20001) }] }, ['transcript', '0', 'text']],
    ['an unknown turn field', { scores: {}, transcript: [{ ...turn, mood: 'calm' }] }, ['transcript', '0']],
    ['too many turns', { scores: {}, transcript: Array.from({ length: 2001 }, () => turn) }, ['transcript']],
    ['an ftp recording', { scores: {}, recording_url: 'ftp://example.com/r.webm' }, ['recording_url']],
    ['a javascript recording', { scores: {}, recording_url: 'javascript:alert(1)' }, ['recording_url']],
    ['a long recording URL', { scores: {}, recording_url: `https://example.com/${'x'.repeat(2048)}` }, ['recording_url']],
    ['a long summary', { scores: {}, summary: 'x'.repeat(5001) }, ['summary']],
    ['too many scores', { scores: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`d${i}`, 1])) }, ['scores']],
  ])('refuses %s', (_, body, path) => {
    const result = scorecardBody.safeParse(body);
    expect(result.success, 'the body should be refused').toBe(false);
    expect(
      result.error?.issues.map((i) => i.path.map(String)),
      JSON.stringify(result.error?.issues),
    ).toContainEqual(path);
  });

  it('takes exactly 2000 turns', () => {
    expect(scorecardBody.safeParse({ scores: {}, transcript: Array.from({ length: 2000 }, () => turn) }).success).toBe(true);
  });
});
