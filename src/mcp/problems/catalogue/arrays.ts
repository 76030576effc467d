import type { ProblemFamily } from '../family.js';
import { sizes, sortedDistinct } from './helpers.js';

const twoSum: ProblemFamily = {
  id: 'two-sum',
  title: 'Two Sum',
  tags: ['arrays', 'hash-maps'],
  functionName: 'two_sum',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'target', type: 'int' },
  ],
  returns: 'int[]',
  statement:
    'Given an array of integers `nums` and an integer `target`, return the indices `[i, j]` (with `i < j`) of two numbers that add up to `target`. When several pairs qualify, return the one with the smallest `j`, and for that `j` the smallest `i`. Return an empty array when no pair exists.',
  constraints: ['`nums` has between 2 and {n} elements', '-{v} <= nums[i] <= {v}'],
  fixed: [
    { nums: [2, 7, 11, 15], target: 9 },
    { nums: [3, 3], target: 6 },
    { nums: [1, 2], target: 7 },
  ],
  generate(rng, { n, v }) {
    const nums = rng.ints(rng.int(2, Math.max(2, n)), -v, v);
    const i = rng.int(0, nums.length - 2);
    const j = rng.int(i + 1, nums.length - 1);
    return { nums, target: rng.bool(0.8) ? nums[i] + nums[j] : rng.int(-2 * v, 2 * v) };
  },
  solution: {
    python: `
      seen = {}
      for j, x in enumerate(nums):
          if target - x in seen:
              return [seen[target - x], j]
          if x not in seen:
              seen[x] = j
      return []
    `,
    javascript: `
      const seen = new Map();
      for (let j = 0; j < nums.length; j++) {
        const want = target - nums[j];
        if (seen.has(want)) return [seen.get(want), j];
        if (!seen.has(nums[j])) seen.set(nums[j], j);
      }
      return [];
    `,
  },
};

const maxSubarray: ProblemFamily = {
  id: 'max-subarray',
  title: 'Maximum Subarray Sum',
  tags: ['arrays', 'dp'],
  functionName: 'max_subarray',
  params: [{ name: 'nums', type: 'int[]' }],
  returns: 'int',
  statement: 'Return the largest sum of a non-empty contiguous subarray of `nums`.',
  constraints: ['`nums` has between 1 and {n} elements', '-{v} <= nums[i] <= {v}'],
  fixed: [{ nums: [-2, 1, -3, 4, -1, 2, 1, -5, 4] }, { nums: [-3, -1, -2] }, { nums: [5] }],
  generate: (rng, { n, v }) => ({ nums: rng.ints(rng.int(1, n), -v, v) }),
  solution: {
    python: `
      best = cur = nums[0]
      for x in nums[1:]:
          cur = max(x, cur + x)
          best = max(best, cur)
      return best
    `,
    javascript: `
      let best = nums[0];
      let cur = nums[0];
      for (const x of nums.slice(1)) {
        cur = Math.max(x, cur + x);
        best = Math.max(best, cur);
      }
      return best;
    `,
  },
};

const rotateArray: ProblemFamily = {
  id: 'rotate-array',
  title: 'Rotate Array',
  tags: ['arrays'],
  functionName: 'rotate_right',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'k', type: 'int' },
  ],
  returns: 'int[]',
  statement: 'Return a new array holding `nums` rotated to the right by `k` steps (the last element moves to the front, `k` times).',
  constraints: ['`nums` has between 1 and {n} elements', '0 <= k <= 1000', '-{v} <= nums[i] <= {v}'],
  fixed: [
    { nums: [1, 2, 3, 4, 5, 6, 7], k: 3 },
    { nums: [-1, 100], k: 0 },
    { nums: [1], k: 5 },
  ],
  generate: (rng, { n, v }) => ({ nums: rng.ints(rng.int(1, n), -v, v), k: rng.int(0, 2 * n) }),
  solution: {
    python: `
      n = len(nums)
      k %= n
      return nums[n - k:] + nums[:n - k]
    `,
    javascript: `
      const n = nums.length;
      const s = k % n;
      return nums.slice(n - s).concat(nums.slice(0, n - s));
    `,
  },
};

const productExceptSelf: ProblemFamily = {
  id: 'product-except-self',
  title: 'Product of Array Except Self',
  tags: ['arrays', 'prefix-sums'],
  functionName: 'product_except_self',
  params: [{ name: 'nums', type: 'int[]' }],
  returns: 'int[]',
  statement: 'Return an array `out` where `out[i]` is the product of every element of `nums` except `nums[i]`, without using division.',
  constraints: ['`nums` has between 2 and {n} elements', '-{v} <= nums[i] <= {v}'],
  // Small values keep every product exact in JavaScript's doubles.
  scales: sizes(4, 8, 12, [5, 5, 5]),
  fixed: [{ nums: [1, 2, 3, 4] }, { nums: [-1, 1, 0, -3, 3] }],
  generate: (rng, { n, v }) => ({ nums: rng.ints(rng.int(2, n), -v, v) }),
  solution: {
    python: `
      out = [1] * len(nums)
      left = 1
      for i in range(len(nums)):
          out[i] = left
          left *= nums[i]
      right = 1
      for i in range(len(nums) - 1, -1, -1):
          out[i] *= right
          right *= nums[i]
      return out
    `,
    javascript: `
      const out = new Array(nums.length).fill(1);
      let left = 1;
      for (let i = 0; i < nums.length; i++) {
        out[i] = left;
        left *= nums[i];
      }
      let right = 1;
      for (let i = nums.length - 1; i >= 0; i--) {
        out[i] *= right;
        right *= nums[i];
      }
      return out;
    `,
  },
};

const rangeSums: ProblemFamily = {
  id: 'range-sum-queries',
  title: 'Range Sum Queries',
  tags: ['arrays', 'prefix-sums'],
  functionName: 'range_sums',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'queries', type: 'int[][]' },
  ],
  returns: 'int[]',
  statement: 'Each query `[l, r]` asks for `nums[l] + nums[l + 1] + ... + nums[r]`. Return the answers in query order.',
  constraints: [
    '`nums` has between 1 and {n} elements',
    'there are between 1 and {n} queries',
    '0 <= l <= r < len(nums)',
    '-{v} <= nums[i] <= {v}',
  ],
  fixed: [
    {
      nums: [-2, 0, 3, -5, 2, -1],
      queries: [
        [0, 2],
        [2, 5],
        [0, 5],
      ],
    },
    { nums: [7], queries: [[0, 0]] },
  ],
  generate(rng, { n, v }) {
    const nums = rng.ints(rng.int(1, n), -v, v);
    const queries = Array.from({ length: rng.int(1, n) }, () => {
      const l = rng.int(0, nums.length - 1);
      return [l, rng.int(l, nums.length - 1)];
    });
    return { nums, queries };
  },
  solution: {
    python: `
      prefix = [0]
      for x in nums:
          prefix.append(prefix[-1] + x)
      return [prefix[r + 1] - prefix[l] for l, r in queries]
    `,
    javascript: `
      const prefix = [0];
      for (const x of nums) prefix.push(prefix[prefix.length - 1] + x);
      return queries.map(([l, r]) => prefix[r + 1] - prefix[l]);
    `,
  },
};

const moveZeroes: ProblemFamily = {
  id: 'move-zeroes',
  title: 'Move Zeroes',
  tags: ['arrays', 'two-pointers'],
  functionName: 'move_zeroes',
  params: [{ name: 'nums', type: 'int[]' }],
  returns: 'int[]',
  statement: 'Return `nums` with every zero moved to the end, keeping the relative order of the non-zero elements.',
  constraints: ['`nums` has between 1 and {n} elements', '-{v} <= nums[i] <= {v}'],
  fixed: [{ nums: [0, 1, 0, 3, 12] }, { nums: [0] }],
  generate: (rng, { n, v }) => ({ nums: Array.from({ length: rng.int(1, n) }, () => (rng.bool(0.4) ? 0 : rng.int(-v, v))) }),
  solution: {
    python: `
      out = [x for x in nums if x != 0]
      return out + [0] * (len(nums) - len(out))
    `,
    javascript: `
      const out = nums.filter((x) => x !== 0);
      while (out.length < nums.length) out.push(0);
      return out;
    `,
  },
};

const searchInsert: ProblemFamily = {
  id: 'search-insert-position',
  title: 'Search Insert Position',
  tags: ['arrays', 'binary-search'],
  functionName: 'search_insert',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'target', type: 'int' },
  ],
  returns: 'int',
  statement:
    '`nums` is sorted in ascending order and has no duplicates. Return the index of `target` if present, otherwise the index where it would be inserted to keep the order. Aim for O(log n).',
  constraints: ['`nums` has between 1 and {n} elements', '-{v} <= nums[i], target <= {v}'],
  fixed: [
    { nums: [1, 3, 5, 6], target: 5 },
    { nums: [1, 3, 5, 6], target: 2 },
    { nums: [1, 3, 5, 6], target: 7 },
    { nums: [4], target: -4 },
  ],
  generate(rng, { n, v }) {
    const nums = sortedDistinct(rng, rng.int(1, n), -v, v);
    return { nums, target: rng.bool() ? rng.pick(nums) : rng.int(-v, v) };
  },
  solution: {
    python: `
      lo, hi = 0, len(nums)
      while lo < hi:
          mid = (lo + hi) // 2
          if nums[mid] < target:
              lo = mid + 1
          else:
              hi = mid
      return lo
    `,
    javascript: `
      let lo = 0;
      let hi = nums.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (nums[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    `,
  },
};

const houseRobber: ProblemFamily = {
  id: 'house-robber',
  title: 'House Robber',
  tags: ['arrays', 'dp'],
  functionName: 'max_loot',
  params: [{ name: 'houses', type: 'int[]' }],
  returns: 'int',
  statement:
    '`houses[i]` is the money in house `i` along a street. Robbing two adjacent houses triggers the alarm. Return the most money you can take.',
  constraints: ['`houses` has between 0 and {n} elements', '0 <= houses[i] <= {v}'],
  fixed: [{ houses: [2, 7, 9, 3, 1] }, { houses: [] }, { houses: [5] }],
  generate: (rng, { n, v }) => ({ houses: rng.ints(rng.int(0, n), 0, v) }),
  solution: {
    python: `
      take, skip = 0, 0
      for x in houses:
          take, skip = skip + x, max(take, skip)
      return max(take, skip)
    `,
    javascript: `
      let take = 0;
      let skip = 0;
      for (const x of houses) [take, skip] = [skip + x, Math.max(take, skip)];
      return Math.max(take, skip);
    `,
  },
};

export const arrayFamilies: ProblemFamily[] = [
  twoSum,
  maxSubarray,
  rotateArray,
  productExceptSelf,
  rangeSums,
  moveZeroes,
  searchInsert,
  houseRobber,
];
