import type { ProblemFamily } from '../family.js';
import type { Rng } from '../prng.js';
import { sortedDistinct } from './helpers.js';

function randomIntervals(rng: Rng, count: number, v: number): number[][] {
  return Array.from({ length: count }, () => {
    const start = rng.int(0, v);
    return [start, start + rng.int(1, Math.max(1, Math.floor(v / 4)))];
  });
}

/** Sorted, pairwise disjoint intervals: consecutive pairs of distinct sorted points. */
function disjointIntervals(rng: Rng, count: number, v: number): number[][] {
  const points = sortedDistinct(rng, 2 * count, 0, 4 * v);
  const out: number[][] = [];
  for (let i = 0; i + 1 < points.length; i += 2) out.push([points[i], points[i + 1]]);
  return out;
}

const mergeIntervals: ProblemFamily = {
  id: 'merge-intervals',
  title: 'Merge Intervals',
  tags: ['intervals', 'sorting'],
  functionName: 'merge_intervals',
  params: [{ name: 'intervals', type: 'int[][]' }],
  returns: 'int[][]',
  statement:
    'Each interval is `[start, end]` with `start <= end`, closed at both ends. Merge all overlapping or touching intervals and return the result sorted by start.',
  constraints: ['there are between 1 and {n} intervals', '0 <= start <= end <= 2 * {v}'],
  fixed: [
    {
      intervals: [
        [1, 3],
        [2, 6],
        [8, 10],
        [15, 18],
      ],
    },
    {
      intervals: [
        [1, 4],
        [4, 5],
      ],
    },
    { intervals: [[5, 5]] },
  ],
  generate: (rng, { n, v }) => ({ intervals: randomIntervals(rng, rng.int(1, n), v) }),
  solution: {
    python: `
      out = []
      for start, end in sorted(intervals):
          if out and start <= out[-1][1]:
              out[-1][1] = max(out[-1][1], end)
          else:
              out.append([start, end])
      return out
    `,
    javascript: `
      const out = [];
      for (const [start, end] of [...intervals].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
        const last = out[out.length - 1];
        if (last && start <= last[1]) last[1] = Math.max(last[1], end);
        else out.push([start, end]);
      }
      return out;
    `,
  },
};

const meetingRooms: ProblemFamily = {
  id: 'meeting-rooms',
  title: 'Meeting Rooms',
  tags: ['intervals', 'heaps', 'sorting'],
  functionName: 'min_meeting_rooms',
  params: [{ name: 'intervals', type: 'int[][]' }],
  returns: 'int',
  statement:
    'Each meeting is `[start, end]` and occupies a room from `start` up to but not including `end`. Return the fewest rooms needed to hold all meetings.',
  constraints: ['there are between 1 and {n} meetings', '0 <= start < end <= 2 * {v}'],
  fixed: [
    {
      intervals: [
        [0, 30],
        [5, 10],
        [15, 20],
      ],
    },
    {
      intervals: [
        [7, 10],
        [2, 4],
      ],
    },
    {
      intervals: [
        [1, 5],
        [5, 9],
      ],
    },
  ],
  generate: (rng, { n, v }) => ({ intervals: randomIntervals(rng, rng.int(1, n), v) }),
  solution: {
    python: `
      events = []
      for start, end in intervals:
          events.append((start, 1))
          events.append((end, -1))
      events.sort()
      rooms = best = 0
      for _, delta in events:
          rooms += delta
          best = max(best, rooms)
      return best
    `,
    javascript: `
      const events = [];
      for (const [start, end] of intervals) events.push([start, 1], [end, -1]);
      events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      let rooms = 0;
      let best = 0;
      for (const [, delta] of events) {
        rooms += delta;
        best = Math.max(best, rooms);
      }
      return best;
    `,
  },
};

const intersections: ProblemFamily = {
  id: 'interval-intersections',
  title: 'Interval List Intersections',
  tags: ['intervals', 'two-pointers'],
  functionName: 'interval_intersections',
  params: [
    { name: 'first', type: 'int[][]' },
    { name: 'second', type: 'int[][]' },
  ],
  returns: 'int[][]',
  statement:
    '`first` and `second` are lists of closed intervals `[start, end]`, each list sorted and pairwise disjoint. Return the intersections of the two lists, sorted; an intersection may be a single point `[x, x]`.',
  constraints: ['each list has between 0 and {n} intervals', '0 <= start < end <= 4 * {v}'],
  fixed: [
    {
      first: [
        [0, 2],
        [5, 10],
        [13, 23],
        [24, 25],
      ],
      second: [
        [1, 5],
        [8, 12],
        [15, 24],
        [25, 26],
      ],
    },
    {
      first: [
        [1, 3],
        [5, 9],
      ],
      second: [],
    },
  ],
  generate: (rng, { n, v }) => ({ first: disjointIntervals(rng, rng.int(0, n), v), second: disjointIntervals(rng, rng.int(0, n), v) }),
  solution: {
    python: `
      i = j = 0
      out = []
      while i < len(first) and j < len(second):
          lo = max(first[i][0], second[j][0])
          hi = min(first[i][1], second[j][1])
          if lo <= hi:
              out.append([lo, hi])
          if first[i][1] < second[j][1]:
              i += 1
          else:
              j += 1
      return out
    `,
    javascript: `
      let i = 0;
      let j = 0;
      const out = [];
      while (i < first.length && j < second.length) {
        const lo = Math.max(first[i][0], second[j][0]);
        const hi = Math.min(first[i][1], second[j][1]);
        if (lo <= hi) out.push([lo, hi]);
        if (first[i][1] < second[j][1]) i++;
        else j++;
      }
      return out;
    `,
  },
};

const kthLargest: ProblemFamily = {
  id: 'kth-largest',
  title: 'Kth Largest Element',
  tags: ['heaps', 'sorting', 'arrays'],
  functionName: 'kth_largest',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'k', type: 'int' },
  ],
  returns: 'int',
  statement:
    'Return the `k`-th largest element of `nums` in sorted order (duplicates count separately, so it is not the `k`-th distinct value).',
  constraints: ['`nums` has between 1 and {n} elements', '1 <= k <= len(nums)', '-{v} <= nums[i] <= {v}'],
  fixed: [
    { nums: [3, 2, 1, 5, 6, 4], k: 2 },
    { nums: [3, 2, 3, 1, 2, 4, 5, 5, 6], k: 4 },
  ],
  generate(rng, { n, v }) {
    const nums = rng.ints(rng.int(1, n), -v, v);
    return { nums, k: rng.int(1, nums.length) };
  },
  solution: {
    python: `
      import heapq
      return heapq.nlargest(k, nums)[-1]
    `,
    javascript: `
      return [...nums].sort((a, b) => b - a)[k - 1];
    `,
  },
};

const topKFrequent: ProblemFamily = {
  id: 'top-k-frequent',
  title: 'Top K Frequent Elements',
  tags: ['hash-maps', 'heaps', 'sorting'],
  functionName: 'top_k_frequent',
  params: [
    { name: 'nums', type: 'int[]' },
    { name: 'k', type: 'int' },
  ],
  returns: 'int[]',
  statement:
    'Return the `k` most frequent values of `nums`, most frequent first; values with equal counts are ordered from smallest to largest.',
  constraints: ['`nums` has between 1 and {n} elements', '1 <= k <= the number of distinct values'],
  fixed: [
    { nums: [1, 1, 1, 2, 2, 3], k: 2 },
    { nums: [4, 4, 1, 1, 2], k: 3 },
  ],
  generate(rng, { n }) {
    const nums = rng.ints(rng.int(1, n), 1, Math.max(3, Math.floor(n / 3)));
    return { nums, k: rng.int(1, new Set(nums).size) };
  },
  solution: {
    python: `
      counts = {}
      for x in nums:
          counts[x] = counts.get(x, 0) + 1
      return sorted(counts, key=lambda x: (-counts[x], x))[:k]
    `,
    javascript: `
      const counts = new Map();
      for (const x of nums) counts.set(x, (counts.get(x) ?? 0) + 1);
      return [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a) || a - b).slice(0, k);
    `,
  },
};

export const intervalFamilies: ProblemFamily[] = [mergeIntervals, meetingRooms, intersections, kthLargest, topKFrequent];
