import type { ProblemFamily } from '../family.js';
import type { Rng } from '../prng.js';

/** Fewer distinct letters on easy inputs, so repeats (the interesting part) actually occur. */
function alphabetFor(v: number): string {
  return 'abcdefghijklmnopqrstuvwxyz'.slice(0, Math.min(26, 3 + Math.floor(v / 40)));
}

const longestUnique: ProblemFamily = {
  id: 'longest-unique-substring',
  title: 'Longest Substring Without Repeating Characters',
  tags: ['strings', 'sliding-window', 'hash-maps'],
  functionName: 'longest_unique_substring',
  params: [{ name: 's', type: 'str' }],
  returns: 'int',
  statement: 'Return the length of the longest substring of `s` in which no character appears twice.',
  constraints: ['`s` has between 0 and {n} lowercase letters'],
  fixed: [{ s: 'abcabcbb' }, { s: 'bbbbb' }, { s: '' }, { s: 'pwwkew' }],
  generate: (rng, { n, v }) => ({ s: rng.text(rng.int(0, n), alphabetFor(v)) }),
  solution: {
    python: `
      last = {}
      start = best = 0
      for i, c in enumerate(s):
          if c in last and last[c] >= start:
              start = last[c] + 1
          last[c] = i
          best = max(best, i - start + 1)
      return best
    `,
    javascript: `
      const last = new Map();
      let start = 0;
      let best = 0;
      for (let i = 0; i < s.length; i++) {
        if (last.has(s[i]) && last.get(s[i]) >= start) start = last.get(s[i]) + 1;
        last.set(s[i], i);
        best = Math.max(best, i - start + 1);
      }
      return best;
    `,
  },
};

const validAnagram: ProblemFamily = {
  id: 'valid-anagram',
  title: 'Valid Anagram',
  tags: ['strings', 'hash-maps', 'sorting'],
  functionName: 'is_anagram',
  params: [
    { name: 's', type: 'str' },
    { name: 't', type: 'str' },
  ],
  returns: 'bool',
  statement: 'Return whether `t` is an anagram of `s`: the same letters, each used the same number of times.',
  constraints: ['`s` and `t` have between 1 and {n} lowercase letters each'],
  fixed: [
    { s: 'anagram', t: 'nagaram' },
    { s: 'rat', t: 'car' },
    { s: 'ab', t: 'a' },
  ],
  generate(rng, { n, v }) {
    const s = rng.text(rng.int(1, n), alphabetFor(v));
    const letters = rng.shuffle([...s]);
    if (rng.bool(0.4)) letters[rng.int(0, letters.length - 1)] = rng.pick([...alphabetFor(v)]);
    return { s, t: letters.join('') };
  },
  solution: {
    python: `
      return sorted(s) == sorted(t)
    `,
    javascript: `
      return [...s].sort().join('') === [...t].sort().join('');
    `,
  },
};

/** Words built by shuffling a few base words, so that real anagram groups exist. */
function anagramWords(rng: Rng, count: number): string[] {
  const bases = Array.from({ length: Math.max(1, Math.ceil(count / 3)) }, () => rng.text(rng.int(2, 4), 'abcde'));
  return Array.from({ length: count }, () => rng.shuffle([...rng.pick(bases)]).join(''));
}

const groupAnagrams: ProblemFamily = {
  id: 'group-anagrams',
  title: 'Group Anagrams',
  tags: ['strings', 'hash-maps', 'sorting'],
  functionName: 'group_anagrams',
  params: [{ name: 'words', type: 'str[]' }],
  returns: 'str[][]',
  statement:
    'Group the words that are anagrams of each other. Sort the words inside each group ascending (duplicates kept), and order the groups by their first word.',
  constraints: ['`words` has between 1 and {n} entries of lowercase letters'],
  fixed: [{ words: ['eat', 'tea', 'tan', 'ate', 'nat', 'bat'] }, { words: ['a'] }],
  generate: (rng, { n }) => ({ words: anagramWords(rng, rng.int(1, n)) }),
  solution: {
    python: `
      groups = {}
      for w in words:
          groups.setdefault(''.join(sorted(w)), []).append(w)
      return sorted(sorted(g) for g in groups.values())
    `,
    javascript: `
      const groups = new Map();
      for (const w of words) {
        const key = [...w].sort().join('');
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(w);
      }
      return [...groups.values()].map((g) => g.sort()).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    `,
  },
};

/** Half palindromes (with noise that the rules ignore), half arbitrary text. */
function palindromeCandidate(rng: Rng, n: number): string {
  if (rng.bool()) return rng.text(rng.int(1, n), 'abAB1 ,.');
  const half = rng.text(rng.int(0, Math.max(1, Math.floor(n / 3))), 'ab1');
  const core = half + (rng.bool() ? rng.text(1, 'ab') : '') + [...half].reverse().join('');
  return [...core].map((c) => (rng.bool(0.3) ? c.toUpperCase() : c) + (rng.bool(0.2) ? rng.pick([' ', ',', '.']) : '')).join('');
}

const validPalindrome: ProblemFamily = {
  id: 'valid-palindrome',
  title: 'Valid Palindrome',
  tags: ['strings', 'two-pointers'],
  functionName: 'is_palindrome',
  params: [{ name: 's', type: 'str' }],
  returns: 'bool',
  statement:
    'Return whether `s` reads the same forwards and backwards after lowercasing it and removing every character that is not an ASCII letter or digit. An empty result counts as a palindrome.',
  constraints: ['`s` has between 1 and {n} printable ASCII characters'],
  fixed: [{ s: 'A man, a plan, a canal: Panama' }, { s: 'race a car' }, { s: ' ' }],
  generate: (rng, { n }) => ({ s: palindromeCandidate(rng, n) }),
  solution: {
    python: `
      chars = [c.lower() for c in s if c.isascii() and c.isalnum()]
      return chars == chars[::-1]
    `,
    javascript: `
      const chars = s.toLowerCase().replace(/[^a-z0-9]/g, '');
      return chars === [...chars].reverse().join('');
    `,
  },
};

const reverseWords: ProblemFamily = {
  id: 'reverse-words',
  title: 'Reverse Words in a String',
  tags: ['strings'],
  functionName: 'reverse_words',
  params: [{ name: 's', type: 'str' }],
  returns: 'str',
  statement:
    'Words in `s` are separated by one or more spaces, and `s` may start or end with spaces. Return the words in reverse order joined by single spaces.',
  constraints: ['`s` has between 1 and {n} words of lowercase letters'],
  fixed: [{ s: 'the sky is blue' }, { s: '  hello world  ' }, { s: 'a' }],
  generate(rng, { n, v }) {
    const words = Array.from({ length: rng.int(1, n) }, () => rng.text(rng.int(1, 5), alphabetFor(v)));
    return { s: words.map((w) => ' '.repeat(rng.int(0, 2)) + w).join(' ') + ' '.repeat(rng.int(0, 2)) };
  },
  solution: {
    python: `
      return ' '.join(reversed(s.split()))
    `,
    javascript: `
      return s.split(' ').filter((w) => w !== '').reverse().join(' ');
    `,
  },
};

const runLength: ProblemFamily = {
  id: 'run-length-encoding',
  title: 'Run-Length Encoding',
  tags: ['strings', 'two-pointers'],
  functionName: 'run_length_encode',
  params: [{ name: 's', type: 'str' }],
  returns: 'str',
  statement:
    'Encode `s` by replacing every maximal run of one character with the character followed by the run length, e.g. `"aaabcc"` becomes `"a3b1c2"`.',
  constraints: ['`s` has between 0 and {n} lowercase letters'],
  fixed: [{ s: 'aaabcc' }, { s: '' }, { s: 'abc' }],
  generate(rng, { n }) {
    const length = rng.int(0, n);
    let s = '';
    while (s.length < length) s += rng.pick(['a', 'b', 'c']).repeat(rng.int(1, 12));
    return { s: s.slice(0, length) };
  },
  solution: {
    python: `
      out = []
      i = 0
      while i < len(s):
          j = i
          while j < len(s) and s[j] == s[i]:
              j += 1
          out.append(s[i] + str(j - i))
          i = j
      return ''.join(out)
    `,
    javascript: `
      let out = '';
      let i = 0;
      while (i < s.length) {
        let j = i;
        while (j < s.length && s[j] === s[i]) j++;
        out += s[i] + String(j - i);
        i = j;
      }
      return out;
    `,
  },
};

const firstUnique: ProblemFamily = {
  id: 'first-unique-character',
  title: 'First Unique Character',
  tags: ['strings', 'hash-maps'],
  functionName: 'first_unique_char',
  params: [{ name: 's', type: 'str' }],
  returns: 'int',
  statement: 'Return the index of the first character of `s` that occurs exactly once, or -1 when there is none.',
  constraints: ['`s` has between 1 and {n} lowercase letters'],
  fixed: [{ s: 'leetcode' }, { s: 'aabb' }, { s: 'z' }],
  generate: (rng, { n, v }) => ({ s: rng.text(rng.int(1, n), alphabetFor(v)) }),
  solution: {
    python: `
      counts = {}
      for c in s:
          counts[c] = counts.get(c, 0) + 1
      for i, c in enumerate(s):
          if counts[c] == 1:
              return i
      return -1
    `,
    javascript: `
      const counts = new Map();
      for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
      for (let i = 0; i < s.length; i++) if (counts.get(s[i]) === 1) return i;
      return -1;
    `,
  },
};

export const stringFamilies: ProblemFamily[] = [
  longestUnique,
  validAnagram,
  groupAnagrams,
  validPalindrome,
  reverseWords,
  runLength,
  firstUnique,
];
