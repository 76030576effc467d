import type { ProblemFamily } from '../family.js';
import { sizes } from './helpers.js';

const countPrimes: ProblemFamily = {
  id: 'count-primes',
  title: 'Count Primes',
  tags: ['math'],
  functionName: 'count_primes',
  params: [{ name: 'n', type: 'int' }],
  returns: 'int',
  statement: 'Return how many prime numbers are strictly less than `n`.',
  constraints: ['0 <= n <= {v}'],
  scales: sizes(1, 1, 1, [50, 1000, 100000]),
  fixed: [{ n: 10 }, { n: 0 }, { n: 2 }, { n: 3 }],
  generate: (rng, { v }) => ({ n: rng.int(0, v) }),
  solution: {
    python: `
      if n < 3:
          return 0
      sieve = [True] * n
      sieve[0] = sieve[1] = False
      i = 2
      while i * i < n:
          if sieve[i]:
              for j in range(i * i, n, i):
                  sieve[j] = False
          i += 1
      return sum(sieve)
    `,
    javascript: `
      if (n < 3) return 0;
      const composite = new Uint8Array(n);
      let count = 0;
      for (let i = 2; i < n; i++) {
        if (composite[i]) continue;
        count++;
        for (let j = i * i; j < n; j += i) composite[j] = 1;
      }
      return count;
    `,
  },
};

const spiralOrder: ProblemFamily = {
  id: 'spiral-order',
  title: 'Spiral Matrix',
  tags: ['matrices', 'arrays'],
  functionName: 'spiral_order',
  params: [{ name: 'matrix', type: 'int[][]' }],
  returns: 'int[]',
  statement: 'Return the elements of `matrix` in clockwise spiral order, starting at the top-left corner and going right first.',
  constraints: ['`matrix` has between 1 and {n} rows and between 1 and {n} columns', '-{v} <= matrix[i][j] <= {v}'],
  scales: sizes(4, 7, 12, [10, 100, 1000]),
  fixed: [
    {
      matrix: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
      ],
    },
    {
      matrix: [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
      ],
    },
    { matrix: [[1], [2], [3]] },
  ],
  generate(rng, { n, v }) {
    const cols = rng.int(1, n);
    return { matrix: Array.from({ length: rng.int(1, n) }, () => rng.ints(cols, -v, v)) };
  },
  solution: {
    python: `
      out = []
      top, bottom, left, right = 0, len(matrix) - 1, 0, len(matrix[0]) - 1
      while top <= bottom and left <= right:
          for c in range(left, right + 1):
              out.append(matrix[top][c])
          for r in range(top + 1, bottom + 1):
              out.append(matrix[r][right])
          if top < bottom and left < right:
              for c in range(right - 1, left - 1, -1):
                  out.append(matrix[bottom][c])
              for r in range(bottom - 1, top, -1):
                  out.append(matrix[r][left])
          top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
      return out
    `,
    javascript: `
      const out = [];
      let top = 0;
      let bottom = matrix.length - 1;
      let left = 0;
      let right = matrix[0].length - 1;
      while (top <= bottom && left <= right) {
        for (let c = left; c <= right; c++) out.push(matrix[top][c]);
        for (let r = top + 1; r <= bottom; r++) out.push(matrix[r][right]);
        if (top < bottom && left < right) {
          for (let c = right - 1; c >= left; c--) out.push(matrix[bottom][c]);
          for (let r = bottom - 1; r > top; r--) out.push(matrix[r][left]);
        }
        top++;
        bottom--;
        left++;
        right--;
      }
      return out;
    `,
  },
};

const rotateMatrix: ProblemFamily = {
  id: 'rotate-matrix',
  title: 'Rotate Matrix',
  tags: ['matrices'],
  functionName: 'rotate_matrix',
  params: [{ name: 'matrix', type: 'int[][]' }],
  returns: 'int[][]',
  statement: 'Return a new matrix holding `matrix` rotated 90 degrees clockwise (an r x c matrix becomes c x r).',
  constraints: ['`matrix` has between 1 and {n} rows and between 1 and {n} columns', '-{v} <= matrix[i][j] <= {v}'],
  scales: sizes(3, 6, 10, [10, 100, 1000]),
  fixed: [
    {
      matrix: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
      ],
    },
    { matrix: [[1, 2]] },
  ],
  generate(rng, { n, v }) {
    const cols = rng.int(1, n);
    return { matrix: Array.from({ length: rng.int(1, n) }, () => rng.ints(cols, -v, v)) };
  },
  solution: {
    python: `
      return [list(row) for row in zip(*matrix[::-1])]
    `,
    javascript: `
      return matrix[0].map((_, c) => matrix.map((row) => row[c]).reverse());
    `,
  },
};

const countBits: ProblemFamily = {
  id: 'counting-bits',
  title: 'Counting Bits',
  tags: ['bit-manipulation', 'dp'],
  functionName: 'count_bits',
  params: [{ name: 'n', type: 'int' }],
  returns: 'int[]',
  statement: 'Return an array of length `n + 1` whose `i`-th element is the number of 1 bits in the binary form of `i`.',
  constraints: ['0 <= n <= {v}'],
  fixed: [{ n: 5 }, { n: 0 }],
  generate: (rng, { v }) => ({ n: rng.int(0, v) }),
  solution: {
    python: `
      out = [0] * (n + 1)
      for i in range(1, n + 1):
          out[i] = out[i >> 1] + (i & 1)
      return out
    `,
    javascript: `
      const out = new Array(n + 1).fill(0);
      for (let i = 1; i <= n; i++) out[i] = out[i >> 1] + (i & 1);
      return out;
    `,
  },
};

const singleNumber: ProblemFamily = {
  id: 'single-number',
  title: 'Single Number',
  tags: ['bit-manipulation', 'hash-maps'],
  functionName: 'single_number',
  params: [{ name: 'nums', type: 'int[]' }],
  returns: 'int',
  statement: 'Every value in `nums` appears exactly twice except one, which appears once. Return that value, using constant extra space.',
  constraints: ['`nums` has an odd number of elements, at most 2 * {n} + 1', '-{v} <= nums[i] <= {v}'],
  fixed: [{ nums: [2, 2, 1] }, { nums: [4, 1, 2, 1, 2] }, { nums: [-7] }],
  generate(rng, { n, v }) {
    const values = [...new Set(rng.ints(rng.int(1, n + 1), -v, v))];
    const [single, ...pairs] = values;
    return { nums: rng.shuffle([single, ...pairs, ...pairs]) };
  },
  solution: {
    python: `
      result = 0
      for x in nums:
          result ^= x
      return result
    `,
    javascript: `
      let result = 0;
      for (const x of nums) result ^= x;
      return result;
    `,
  },
};

export const mathFamilies: ProblemFamily[] = [countPrimes, spiralOrder, rotateMatrix, countBits, singleNumber];
