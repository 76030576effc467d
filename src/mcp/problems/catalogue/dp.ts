import type { ProblemFamily } from '../family.js';
import { binaryGrid, sizes, sortedDistinct } from './helpers.js';

const stepWays: ProblemFamily = {
  id: 'climbing-stairs',
  title: 'Climbing Stairs',
  tags: ['dp', 'math'],
  functionName: 'count_ways',
  params: [
    { name: 'n', type: 'int' },
    { name: 'steps', type: 'int[]' },
  ],
  returns: 'int',
  statement:
    'You climb a staircase of `n` stairs, each move going up by one of the distinct sizes in `steps`. Return the number of different ordered move sequences that reach exactly the top, modulo 1000000007.',
  constraints: ['0 <= n <= {v}', '`steps` has between 1 and 3 distinct values between 1 and 5'],
  fixed: [
    { n: 3, steps: [1, 2] },
    { n: 0, steps: [2] },
    { n: 7, steps: [2, 4] },
  ],
  generate: (rng, { v }) => ({ n: rng.int(0, v), steps: sortedDistinct(rng, rng.int(1, 3), 1, 5) }),
  solution: {
    python: `
      ways = [1] + [0] * n
      for i in range(1, n + 1):
          for s in steps:
              if s <= i:
                  ways[i] = (ways[i] + ways[i - s]) % 1000000007
      return ways[n]
    `,
    javascript: `
      const ways = new Array(n + 1).fill(0);
      ways[0] = 1;
      for (let i = 1; i <= n; i++) {
        for (const s of steps) if (s <= i) ways[i] = (ways[i] + ways[i - s]) % 1000000007;
      }
      return ways[n];
    `,
  },
};

const coinChange: ProblemFamily = {
  id: 'coin-change',
  title: 'Coin Change',
  tags: ['dp'],
  functionName: 'min_coins',
  params: [
    { name: 'coins', type: 'int[]' },
    { name: 'amount', type: 'int' },
  ],
  returns: 'int',
  statement:
    'Given coin denominations `coins` (unlimited supply of each) and an `amount`, return the fewest coins that add up to exactly `amount`, or -1 if it cannot be made.',
  constraints: ['`coins` has between 1 and 4 distinct values between 1 and {v}', '0 <= amount <= {v}'],
  fixed: [
    { coins: [1, 2, 5], amount: 11 },
    { coins: [2], amount: 3 },
    { coins: [1], amount: 0 },
  ],
  generate: (rng, { v }) => ({ coins: sortedDistinct(rng, rng.int(1, 4), 2, Math.max(3, Math.floor(v / 4))), amount: rng.int(0, v) }),
  solution: {
    python: `
      best = [0] + [amount + 1] * amount
      for a in range(1, amount + 1):
          for c in coins:
              if c <= a and best[a - c] + 1 < best[a]:
                  best[a] = best[a - c] + 1
      return best[amount] if best[amount] <= amount else -1
    `,
    javascript: `
      const best = new Array(amount + 1).fill(amount + 1);
      best[0] = 0;
      for (let a = 1; a <= amount; a++) {
        for (const c of coins) if (c <= a && best[a - c] + 1 < best[a]) best[a] = best[a - c] + 1;
      }
      return best[amount] <= amount ? best[amount] : -1;
    `,
  },
};

const lis: ProblemFamily = {
  id: 'longest-increasing-subsequence',
  title: 'Longest Increasing Subsequence',
  tags: ['dp', 'binary-search'],
  functionName: 'longest_increasing_subsequence',
  params: [{ name: 'nums', type: 'int[]' }],
  returns: 'int',
  statement:
    'Return the length of the longest strictly increasing subsequence of `nums` (elements in their original order, not necessarily adjacent).',
  constraints: ['`nums` has between 1 and {n} elements', '-{v} <= nums[i] <= {v}'],
  fixed: [{ nums: [10, 9, 2, 5, 3, 7, 101, 18] }, { nums: [7, 7, 7] }, { nums: [1] }],
  generate: (rng, { n, v }) => ({ nums: rng.ints(rng.int(1, n), -v, v) }),
  solution: {
    python: `
      from bisect import bisect_left
      tails = []
      for x in nums:
          i = bisect_left(tails, x)
          if i == len(tails):
              tails.append(x)
          else:
              tails[i] = x
      return len(tails)
    `,
    javascript: `
      const tails = [];
      for (const x of nums) {
        let lo = 0;
        let hi = tails.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (tails[mid] < x) lo = mid + 1;
          else hi = mid;
        }
        tails[lo] = x;
      }
      return tails.length;
    `,
  },
};

const editDistance: ProblemFamily = {
  id: 'edit-distance',
  title: 'Edit Distance',
  tags: ['dp', 'strings'],
  functionName: 'edit_distance',
  params: [
    { name: 'source', type: 'str' },
    { name: 'target', type: 'str' },
  ],
  returns: 'int',
  statement: 'Return the fewest single-character insertions, deletions and substitutions that turn `source` into `target`.',
  constraints: ['`source` and `target` have between 0 and {n} lowercase letters each'],
  fixed: [
    { source: 'horse', target: 'ros' },
    { source: 'intention', target: 'execution' },
    { source: '', target: 'abc' },
  ],
  generate: (rng, { n }) => ({ source: rng.text(rng.int(0, n), 'abcd'), target: rng.text(rng.int(0, n), 'abcd') }),
  solution: {
    python: `
      prev = list(range(len(target) + 1))
      for i in range(1, len(source) + 1):
          cur = [i] + [0] * len(target)
          for j in range(1, len(target) + 1):
              if source[i - 1] == target[j - 1]:
                  cur[j] = prev[j - 1]
              else:
                  cur[j] = 1 + min(prev[j - 1], prev[j], cur[j - 1])
          prev = cur
      return prev[-1]
    `,
    javascript: `
      let prev = Array.from({ length: target.length + 1 }, (_, j) => j);
      for (let i = 1; i <= source.length; i++) {
        const cur = [i];
        for (let j = 1; j <= target.length; j++) {
          cur[j] = source[i - 1] === target[j - 1] ? prev[j - 1] : 1 + Math.min(prev[j - 1], prev[j], cur[j - 1]);
        }
        prev = cur;
      }
      return prev[target.length];
    `,
  },
};

const uniquePaths: ProblemFamily = {
  id: 'unique-paths',
  title: 'Unique Paths With Obstacles',
  tags: ['dp', 'grids'],
  functionName: 'unique_paths',
  params: [{ name: 'grid', type: 'int[][]' }],
  returns: 'int',
  statement:
    '`grid` has open cells (0) and obstacles (1). Moving only right or down through open cells, return the number of distinct paths from the top-left to the bottom-right cell (0 when either corner is an obstacle).',
  constraints: ['`grid` has between 1 and {n} rows and between 1 and {n} columns'],
  scales: sizes(4, 8, 12),
  fixed: [
    {
      grid: [
        [0, 0, 0],
        [0, 1, 0],
        [0, 0, 0],
      ],
    },
    {
      grid: [
        [0, 1],
        [0, 0],
      ],
    },
    { grid: [[1]] },
  ],
  generate: (rng, { n }) => ({ grid: binaryGrid(rng, rng.int(1, n), rng.int(1, n), 0.15) }),
  solution: {
    python: `
      cols = len(grid[0])
      paths = [0] * cols
      paths[0] = 1
      for row in grid:
          for c in range(cols):
              if row[c] == 1:
                  paths[c] = 0
              elif c > 0:
                  paths[c] += paths[c - 1]
      return paths[-1]
    `,
    javascript: `
      const cols = grid[0].length;
      const paths = new Array(cols).fill(0);
      paths[0] = 1;
      for (const row of grid) {
        for (let c = 0; c < cols; c++) {
          if (row[c] === 1) paths[c] = 0;
          else if (c > 0) paths[c] += paths[c - 1];
        }
      }
      return paths[cols - 1];
    `,
  },
};

export const dpFamilies: ProblemFamily[] = [stepWays, coinChange, lis, editDistance, uniquePaths];
