import type { Language } from '../../core/languages.js';
import type { Draft } from './draft.js';
import type { Args, Scale } from './family.js';
import { SCALES } from './family.js';
import type { GeneratedProblem } from './problem-schema.js';
import { functionNameIn, signature, starterCode } from './source.js';

const EXAMPLES = 2;

function fillScale(text: string, scale: Scale): string {
  return text.replaceAll('{n}', String(scale.n)).replaceAll('{v}', String(scale.v));
}

function perLanguage(languages: readonly Language[], render: (language: Language) => string): Partial<Record<Language, string>> {
  return Object.fromEntries(languages.map((language) => [language, render(language)]));
}

function call(name: string, args: Args): string {
  return `${name}(${Object.entries(args)
    .map(([k, v]) => `${k} = ${JSON.stringify(v)}`)
    .join(', ')})`;
}

/** Assembles the tool's answer from a draft and the expected values its reference produced. */
export function renderProblem(draft: Draft, expected: readonly unknown[], languages: readonly Language[]): GeneratedProblem {
  const { family, difficulty, seed } = draft;
  const scale = family.scales?.[difficulty] ?? SCALES[difficulty];
  const testCases = draft.cases.map((args, i) => ({ args, expected: expected[i] }));
  const examples = testCases.slice(0, EXAMPLES);
  const statement = [
    `# ${family.title}`,
    '',
    family.statement,
    '',
    '**Constraints**',
    ...family.constraints.map((c) => `- ${fillScale(c, scale)}`),
    '',
    '**Examples**',
    ...examples.map((e) => `- \`${call(family.functionName, e.args)}\` returns \`${JSON.stringify(e.expected)}\``),
  ].join('\n');

  return {
    id: draft.id,
    family: family.id,
    title: family.title,
    difficulty,
    topics: [...family.tags],
    seed,
    statement,
    functionName: family.functionName,
    functionNames: perLanguage(languages, (l) => functionNameIn(family, l)),
    signatures: perLanguage(languages, (l) => signature(family, l)),
    starterCode: perLanguage(languages, (l) => starterCode(family, l)),
    examples,
    testCases,
  };
}
