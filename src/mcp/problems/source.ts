import type { Language } from '../../core/languages.js';
import { toCamelCase } from '../../core/resolve/names.js';
import type { Param, ProblemFamily, ValueType } from './family.js';

export function functionNameIn(family: ProblemFamily, language: Language): string {
  return language === 'python' ? family.functionName : toCamelCase(family.functionName);
}

function pythonType(type: ValueType): string {
  return type.endsWith('[]') ? `list[${pythonType(type.slice(0, -2) as ValueType)}]` : type;
}

function typeScriptType(type: ValueType): string {
  if (type.endsWith('[]')) return `${typeScriptType(type.slice(0, -2) as ValueType)}[]`;
  return type === 'int' ? 'number' : type === 'str' ? 'string' : 'boolean';
}

function paramList(params: readonly Param[], typed: (type: ValueType) => string | null): string {
  return params
    .map((p) => {
      const type = typed(p.type);
      return type ? `${p.name}: ${type}` : p.name;
    })
    .join(', ');
}

/** The declaration line, without the body's opening brace or colon. */
export function signature(family: ProblemFamily, language: Language): string {
  const name = functionNameIn(family, language);
  if (language === 'python') return `def ${name}(${paramList(family.params, pythonType)}) -> ${pythonType(family.returns)}`;
  if (language === 'typescript') return `function ${name}(${paramList(family.params, typeScriptType)}): ${typeScriptType(family.returns)}`;
  return `function ${name}(${paramList(family.params, () => null)})`;
}

/** Strips the common leading indentation of a template literal, so catalogue bodies can be written indented. */
function dedent(text: string): string[] {
  const lines = text.replace(/^\n+|\s+$/g, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
  return lines.map((l) => l.slice(indent));
}

function withBody(family: ProblemFamily, language: Language, body: string): string {
  const header = signature(family, language);
  if (language === 'python')
    return `${header}:\n${dedent(body)
      .map((l) => (l ? `    ${l}` : l))
      .join('\n')}\n`;
  return `${header} {\n${dedent(body)
    .map((l) => (l ? `  ${l}` : l))
    .join('\n')}\n}\n`;
}

export function starterCode(family: ProblemFamily, language: Language): string {
  return withBody(family, language, language === 'python' ? '# your code here\npass' : '// your code here');
}

/** A complete, runnable reference solution in the language. */
export function referenceCode(family: ProblemFamily, language: Language): string {
  return withBody(family, language, language === 'python' ? family.solution.python : family.solution.javascript);
}
