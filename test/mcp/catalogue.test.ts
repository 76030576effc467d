import { describe, expect, it } from 'vitest';
import { CATALOGUE, familiesFor, TOPICS } from '../../src/mcp/problems/catalogue/index.js';
import { draftProblem, UnknownTopicError } from '../../src/mcp/problems/draft.js';
import { DIFFICULTIES } from '../../src/mcp/problems/family.js';
import { Rng } from '../../src/mcp/problems/prng.js';
import { renderProblem } from '../../src/mcp/problems/render.js';
import { referenceCode, signature } from '../../src/mcp/problems/source.js';

describe('problem catalogue', () => {
  it('has at least 25 families with unique ids and names', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(25);
    expect(new Set(CATALOGUE.map((f) => f.id)).size).toBe(CATALOGUE.length);
    expect(new Set(CATALOGUE.map((f) => f.functionName)).size).toBe(CATALOGUE.length);
  });

  it.each(CATALOGUE.map((f) => [f.id, f] as const))('%s: names, tags and cases are well formed', (_id, family) => {
    expect(family.functionName).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
    expect(family.tags.length).toBeGreaterThan(0);
    for (const param of family.params) expect(param.name).toMatch(/^[a-z]+$/);
    const names = family.params.map((p) => p.name);
    expect(family.fixed.length).toBeGreaterThanOrEqual(2);
    for (const difficulty of DIFFICULTIES) {
      const { cases } = draftProblem({ topic: family.id, difficulty, seed: 11 });
      expect(cases.length).toBeGreaterThan(family.fixed.length);
      for (const args of cases) expect(Object.keys(args)).toEqual(names);
    }
    // Reference bodies are re-indented under a generated header; a stray tab or dedent would break Python.
    expect(referenceCode(family, 'python')).toMatch(new RegExp(`^def ${family.functionName}\\(.*\\) -> .+:\\n {4}\\S`));
    expect(referenceCode(family, 'python')).not.toContain('\t');
  });

  it('renders signatures per language', () => {
    const twoSum = CATALOGUE.find((f) => f.id === 'two-sum');
    if (!twoSum) throw new Error('two-sum missing');
    expect(signature(twoSum, 'python')).toBe('def two_sum(nums: list[int], target: int) -> list[int]');
    expect(signature(twoSum, 'javascript')).toBe('function twoSum(nums, target)');
    expect(signature(twoSum, 'typescript')).toBe('function twoSum(nums: number[], target: number): number[]');
  });

  it('selects families by tag, singular tag, alias or id', () => {
    expect(familiesFor('graphs').length).toBeGreaterThanOrEqual(4);
    expect(familiesFor('graph')).toEqual(familiesFor('graphs'));
    expect(familiesFor('Dynamic Programming')).toEqual(familiesFor('dp'));
    expect(familiesFor('two-sum').map((f) => f.id)).toEqual(['two-sum']);
    expect(familiesFor('astrology')).toEqual([]);
    expect(() => draftProblem({ topic: 'astrology' })).toThrow(UnknownTopicError);
    for (const topic of TOPICS) expect(familiesFor(topic).length).toBeGreaterThan(0);
  });
});

describe('deterministic drafts', () => {
  it('mulberry32 gives a fixed sequence', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const seq = Array.from({ length: 5 }, () => a.int(0, 1000));
    expect(Array.from({ length: 5 }, () => b.int(0, 1000))).toEqual(seq);
    expect(new Rng(43).int(0, 1000)).not.toBe(seq[0]);
  });

  it('same arguments give the same draft and rendering; other seeds differ', () => {
    const render = (seed: number) => {
      const draft = draftProblem({ topic: 'arrays', difficulty: 'hard', seed });
      return renderProblem(
        draft,
        draft.cases.map((_, i) => i),
        ['python', 'javascript', 'typescript'],
      );
    };
    expect(render(5)).toEqual(render(5));
    const seeds = [1, 2, 3, 4, 5, 6];
    expect(new Set(seeds.map((s) => JSON.stringify(render(s)))).size).toBe(seeds.length);
  });

  it('names a problem by family, difficulty and seed, whichever topic led to it', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const viaTag = draftProblem({ topic: 'Graphs', difficulty: 'easy', seed });
      expect(draftProblem({ topic: 'graphs', difficulty: 'easy', seed })).toEqual(viaTag);
      expect(draftProblem({ topic: viaTag.family.id, difficulty: 'easy', seed })).toEqual(viaTag);
      expect(viaTag.id).toBe(`${viaTag.family.id}:easy:${seed}`);
    }
  });

  it('difficulty scales the inputs', () => {
    const size = (difficulty: 'easy' | 'hard') => JSON.stringify(draftProblem({ topic: 'max-subarray', difficulty, seed: 9 }).cases).length;
    expect(size('hard')).toBeGreaterThan(size('easy'));
  });
});
