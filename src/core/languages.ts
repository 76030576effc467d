/** The languages the runner core knows, their aliases and which runner image serves each. */
export const LANGUAGES = ['python', 'javascript', 'typescript'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Runner images: TypeScript is transpiled on the host and runs on the JavaScript runner. */
export type Runtime = 'python' | 'node';

const ALIASES: Record<string, Language> = {
  python: 'python', py: 'python',
  javascript: 'javascript', js: 'javascript',
  typescript: 'typescript', ts: 'typescript',
};

export function parseLanguage(value: string): Language | undefined {
  return ALIASES[value.trim().toLowerCase()];
}

export function runtimeOf(language: Language): Runtime {
  return language === 'python' ? 'python' : 'node';
}
