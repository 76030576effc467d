import type { Rng } from '../prng.js';

/** `count` distinct integers from [lo, hi], ascending (fewer when the range is smaller). */
export function sortedDistinct(rng: Rng, count: number, lo: number, hi: number): number[] {
  const values = new Set<number>();
  const wanted = Math.min(count, hi - lo + 1);
  while (values.size < wanted) values.add(rng.int(lo, hi));
  return [...values].sort((a, b) => a - b);
}

/** A rows × cols grid of 0/1 cells where each cell is 1 with the given probability. */
export function binaryGrid(rng: Rng, rows: number, cols: number, density: number): number[][] {
  return Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rng.bool(density) ? 1 : 0)));
}

/** Random undirected edges between distinct nodes of 0..n-1 (duplicates possible, as in real input). */
export function randomEdges(rng: Rng, n: number, count: number): number[][] {
  return Array.from({ length: count }, () => {
    const a = rng.int(0, n - 1);
    const b = (a + rng.int(1, n - 1)) % n;
    return [a, b];
  });
}

/** Sizes that grow by difficulty for families whose inputs are not long flat lists. */
export function sizes(easy: number, medium: number, hard: number, v: [number, number, number] = [10, 100, 1000]) {
  return { easy: { n: easy, v: v[0] }, medium: { n: medium, v: v[1] }, hard: { n: hard, v: v[2] } };
}
