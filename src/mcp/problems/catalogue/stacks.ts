import type { ProblemFamily } from '../family.js';
import type { Rng } from '../prng.js';
import { sizes } from './helpers.js';

/** A balanced bracket string, then sometimes one character changed so that it (usually) is not. */
function bracketCandidate(rng: Rng, n: number): string {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const open: string[] = [];
  let s = '';
  while (s.length + open.length < n) {
    if (open.length > 0 && rng.bool()) s += pairs[open.pop() ?? '('];
    else {
      const c = rng.pick(['(', '[', '{']);
      open.push(c);
      s += c;
    }
  }
  while (open.length > 0) s += pairs[open.pop() ?? '('];
  if (rng.bool(0.5)) {
    const i = rng.int(0, s.length - 1);
    s = s.slice(0, i) + rng.pick(['(', ')', '[', ']', '{', '}']) + s.slice(i + 1);
  }
  return s;
}

const validBrackets: ProblemFamily = {
  id: 'valid-brackets',
  title: 'Valid Brackets',
  tags: ['stacks', 'strings'],
  functionName: 'is_valid_brackets',
  params: [{ name: 's', type: 'str' }],
  returns: 'bool',
  statement:
    '`s` consists of the characters `()[]{}`. Return whether every opening bracket is closed by the same kind of bracket, in the correct order.',
  constraints: ['`s` has between 1 and {n} characters'],
  fixed: [{ s: '()[]{}' }, { s: '(]' }, { s: '([)]' }, { s: '{[]}' }, { s: '((' }],
  generate: (rng, { n }) => ({ s: bracketCandidate(rng, rng.int(1, n)) }),
  solution: {
    python: `
      pairs = {')': '(', ']': '[', '}': '{'}
      stack = []
      for c in s:
          if c in pairs:
              if not stack or stack.pop() != pairs[c]:
                  return False
          else:
              stack.append(c)
      return not stack
    `,
    javascript: `
      const pairs = { ')': '(', ']': '[', '}': '{' };
      const stack = [];
      for (const c of s) {
        if (c in pairs) {
          if (stack.length === 0 || stack.pop() !== pairs[c]) return false;
        } else stack.push(c);
      }
      return stack.length === 0;
    `,
  },
};

const dailyTemperatures: ProblemFamily = {
  id: 'daily-temperatures',
  title: 'Daily Temperatures',
  tags: ['stacks', 'monotonic-stack', 'arrays'],
  functionName: 'days_until_warmer',
  params: [{ name: 'temps', type: 'int[]' }],
  returns: 'int[]',
  statement:
    '`temps[i]` is the temperature on day `i`. For each day, return how many days you have to wait for a strictly warmer day, or 0 if none comes.',
  constraints: ['`temps` has between 1 and {n} elements', '30 <= temps[i] <= 100'],
  fixed: [{ temps: [73, 74, 75, 71, 69, 72, 76, 73] }, { temps: [30, 60, 90] }, { temps: [90, 90] }],
  generate: (rng, { n, v }) => ({ temps: rng.ints(rng.int(1, n), 30, 30 + Math.min(70, v)) }),
  solution: {
    python: `
      out = [0] * len(temps)
      stack = []
      for i, t in enumerate(temps):
          while stack and temps[stack[-1]] < t:
              j = stack.pop()
              out[j] = i - j
          stack.append(i)
      return out
    `,
    javascript: `
      const out = new Array(temps.length).fill(0);
      const stack = [];
      temps.forEach((t, i) => {
        while (stack.length > 0 && temps[stack[stack.length - 1]] < t) {
          const j = stack.pop();
          out[j] = i - j;
        }
        stack.push(i);
      });
      return out;
    `,
  },
};

/** A random expression over single digits in reverse Polish notation, with `operands` numbers. */
function rpn(rng: Rng, operands: number): string[] {
  if (operands === 1) return [String(rng.int(0, 9))];
  const left = rng.int(1, operands - 1);
  return [...rpn(rng, left), ...rpn(rng, operands - left), rng.pick(['+', '-', '*'])];
}

const evalRpn: ProblemFamily = {
  id: 'evaluate-rpn',
  title: 'Evaluate Reverse Polish Notation',
  tags: ['stacks'],
  functionName: 'eval_rpn',
  params: [{ name: 'tokens', type: 'str[]' }],
  returns: 'int',
  statement:
    'Evaluate the arithmetic expression given in reverse Polish notation. Tokens are non-negative integers or one of the operators `+`, `-` and `*`; the expression is always valid.',
  constraints: ['the expression has between 1 and {n} numbers, each between 0 and {v}'],
  // Few single-digit operands keep every intermediate value exact in JavaScript.
  scales: sizes(3, 6, 12, [9, 9, 9]),
  fixed: [{ tokens: ['2', '1', '+', '3', '*'] }, { tokens: ['4', '3', '5', '-', '*'] }, { tokens: ['7'] }],
  generate: (rng, { n }) => ({ tokens: rpn(rng, rng.int(1, n)) }),
  solution: {
    python: `
      stack = []
      for tok in tokens:
          if tok in ('+', '-', '*'):
              b = stack.pop()
              a = stack.pop()
              stack.append(a + b if tok == '+' else a - b if tok == '-' else a * b)
          else:
              stack.append(int(tok))
      return stack[0]
    `,
    javascript: `
      const stack = [];
      for (const tok of tokens) {
        if (tok === '+' || tok === '-' || tok === '*') {
          const b = stack.pop();
          const a = stack.pop();
          stack.push(tok === '+' ? a + b : tok === '-' ? a - b : a * b);
        } else stack.push(Number(tok));
      }
      return stack[0];
    `,
  },
};

const removeDuplicates: ProblemFamily = {
  id: 'remove-adjacent-duplicates',
  title: 'Remove Adjacent Duplicates',
  tags: ['stacks', 'strings'],
  functionName: 'remove_adjacent_duplicates',
  params: [{ name: 's', type: 'str' }],
  returns: 'str',
  statement: 'Repeatedly remove two adjacent equal letters from `s` until no such pair is left, and return the result (it is unique).',
  constraints: ['`s` has between 1 and {n} lowercase letters'],
  fixed: [{ s: 'abbaca' }, { s: 'azxxzy' }, { s: 'aa' }],
  generate: (rng, { n }) => ({ s: rng.text(rng.int(1, n), 'abc') }),
  solution: {
    python: `
      stack = []
      for c in s:
          if stack and stack[-1] == c:
              stack.pop()
          else:
              stack.append(c)
      return ''.join(stack)
    `,
    javascript: `
      const stack = [];
      for (const c of s) {
        if (stack.length > 0 && stack[stack.length - 1] === c) stack.pop();
        else stack.push(c);
      }
      return stack.join('');
    `,
  },
};

export const stackFamilies: ProblemFamily[] = [validBrackets, dailyTemperatures, evalRpn, removeDuplicates];
