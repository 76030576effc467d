/** The languages the runner core knows, their aliases and which interpreter image serves each. */
export const LANGUAGES = ['python', 'javascript', 'typescript'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Runner images by their interpreter: TypeScript is transpiled on the host and runs on node. */
export type Interpreter = 'python' | 'node';

/** Other names a request may give for each language (case-insensitive). */
export const LANGUAGE_ALIASES: Readonly<Record<Language, readonly string[]>> = { python: ['py'], javascript: ['js'], typescript: ['ts'] };

const BY_NAME = new Map<string, Language>(
  LANGUAGES.flatMap((language) => [language, ...LANGUAGE_ALIASES[language]].map((name) => [name, language] as const)),
);

export function parseLanguage(value: string): Language | undefined {
  return BY_NAME.get(value.trim().toLowerCase());
}

export function interpreterOf(language: Language): Interpreter {
  return language === 'python' ? 'python' : 'node';
}
