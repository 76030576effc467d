/** The benchmark workload: one Python and one JavaScript function, 10 test cases each. */
const cases = Array.from({ length: 10 }, (_, i) => {
  const nums = Array.from({ length: 20 + i }, (_, k) => ((k * 7919 + i * 31) % 97) - 40);
  let best = nums[0];
  let current = 0;
  for (const n of nums) {
    current = Math.max(n, current + n);
    best = Math.max(best, current);
  }
  return { args: { nums }, expected: best };
});

export const WORKLOADS = {
  python: {
    language: 'python',
    functionName: 'max_subarray',
    code: 'def max_subarray(nums):\n    best = cur = nums[0]\n    for n in nums[1:]:\n        cur = max(n, cur + n)\n        best = max(best, cur)\n    return best\n',
    testCases: cases,
  },
  javascript: {
    language: 'javascript',
    functionName: 'max_subarray',
    code: 'function maxSubarray(nums) {\n  let best = nums[0], cur = nums[0];\n  for (const n of nums.slice(1)) {\n    cur = Math.max(n, cur + n);\n    best = Math.max(best, cur);\n  }\n  return best;\n}\n',
    testCases: cases,
  },
} as const;

export type WorkloadName = keyof typeof WORKLOADS;

/**
 * The same 10 cases against TypeScript that does not parse: every case fails on the host, before any
 * sandbox. What is left is the HTTP path itself, which is what the api → runner hop adds to.
 */
export const NO_SANDBOX = {
  language: 'typescript',
  code: 'function maxSubarray(nums: number[] {\n  return 0;\n}\n',
  testCases: cases,
} as const;
