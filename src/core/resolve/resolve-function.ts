import type { Language } from '../languages.js';
import type { ExecuteRequest } from '../request-schema.js';
import type { FunctionDef } from './definitions.js';
import { nameMatches, toCamelCase, toSnakeCase } from './names.js';

/** The request fields that name the function; the rest of the request plays no part. */
export type NameFields = Pick<ExecuteRequest, 'functionName' | 'functionNames' | 'pythonFunctionName' | 'jsFunctionName'>;

export type Resolution =
  /** A definition was found in the source: call it, and bind arguments against its parameters. */
  | { kind: 'static'; def: FunctionDef }
  /** Nothing usable was found statically (a lambda, `module.exports = …`): the harness tries `names` in order. */
  | { kind: 'deferred'; className?: string; names: string[]; tried: string[] }
  /** No definition and no usable name: nothing can be called. */
  | { kind: 'none'; tried: string[] };

/**
 * Decides which function the harness calls. The order is the product owner's:
 *  a. the per-language name, if some definition answers to it;
 *  b. the definition answering best to functionName in the language's convention, then the legacy
 *     per-language field, then functionName as given;
 *  c. the only top-level function, or else the only public method of `class Solution`;
 *  d. a run-time lookup of every name the request gives.
 */
export function resolveFunction(request: NameFields, language: Language, defs: FunctionDef[]): Resolution {
  const explicit = explicitName(request, language);
  if (explicit !== undefined) {
    const def = bestMatch(defs, explicit);
    if (def) return { kind: 'static', def };
  }

  const converted = request.functionName === undefined ? undefined : convertName(request.functionName, language);
  for (const candidate of unique([converted, legacyName(request, language), request.functionName])) {
    const def = bestMatch(defs, candidate);
    if (def) return { kind: 'static', def };
  }

  const topLevel = defs.filter((def) => def.className === undefined);
  const methods = defs.filter((def) => def.className !== undefined);
  if (topLevel.length === 1) return { kind: 'static', def: topLevel[0] };
  if (topLevel.length === 0 && methods.length === 1) return { kind: 'static', def: methods[0] };

  const tried = unique([explicit, legacyName(request, language), converted, request.functionName]);
  const names = tried.filter((name) => isIdentifier(name, language));
  if (names.length === 0) return { kind: 'none', tried };
  const className = topLevel.length === 0 ? methods[0]?.className : undefined;
  return className === undefined ? { kind: 'deferred', names, tried } : { kind: 'deferred', className, names, tried };
}

/** A sentence for "nothing was found", in the harness's wording ("no function named a or b is defined"). */
export function describeTried(tried: string[]): string {
  if (tried.length === 0) return 'no function name was given and the code does not define exactly one function';
  const list = tried.length === 1 ? tried[0] : `${tried.slice(0, -1).join(', ')} or ${tried[tried.length - 1]}`;
  return `no function named ${list} is defined`;
}

function explicitName(request: NameFields, language: Language): string | undefined {
  const names = request.functionNames;
  if (!names) return undefined;
  return language === 'typescript' ? (names.typescript ?? names.javascript) : names[language];
}

function legacyName(request: NameFields, language: Language): string | undefined {
  return language === 'python' ? request.pythonFunctionName : request.jsFunctionName;
}

function convertName(name: string, language: Language): string {
  return language === 'python' ? toSnakeCase(name) : toCamelCase(name);
}

function unique(names: Array<string | undefined>): string[] {
  return [...new Set(names.filter((name): name is string => name !== undefined && name !== ''))];
}

/** Best rank wins; at equal rank a top-level function beats a method, then the earlier definition. */
function bestMatch(defs: FunctionDef[], wanted: string): FunctionDef | undefined {
  let best: FunctionDef | undefined;
  let bestScore = Infinity;
  for (const def of defs) {
    const rank = nameMatches(def.name, wanted);
    if (rank === false) continue;
    const score = rank * 2 + (def.className === undefined ? 0 : 1);
    if (score < bestScore) {
      best = def;
      bestScore = score;
    }
  }
  return best;
}

const PYTHON_KEYWORDS = new Set([
  'False',
  'None',
  'True',
  'and',
  'as',
  'assert',
  'async',
  'await',
  'break',
  'class',
  'continue',
  'def',
  'del',
  'elif',
  'else',
  'except',
  'finally',
  'for',
  'from',
  'global',
  'if',
  'import',
  'in',
  'is',
  'lambda',
  'nonlocal',
  'not',
  'or',
  'pass',
  'raise',
  'return',
  'try',
  'while',
  'with',
  'yield',
]);

// Strict-mode reserved words are included: TypeScript output with exports runs in strict mode.
const JS_RESERVED = new Set([
  'await',
  'break',
  'case',
  'catch',
  'class',
  'const',
  'continue',
  'debugger',
  'default',
  'delete',
  'do',
  'else',
  'enum',
  'export',
  'extends',
  'false',
  'finally',
  'for',
  'function',
  'if',
  'implements',
  'import',
  'in',
  'instanceof',
  'interface',
  'let',
  'new',
  'null',
  'package',
  'private',
  'protected',
  'public',
  'return',
  'static',
  'super',
  'switch',
  'this',
  'throw',
  'true',
  'try',
  'typeof',
  'var',
  'void',
  'while',
  'with',
  'yield',
]);

/** Whether the harness could look `name` up: a plain identifier of the language that is not a keyword. */
function isIdentifier(name: string, language: Language): boolean {
  if (language === 'python') {
    return /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u.test(name) && !PYTHON_KEYWORDS.has(name);
  }
  return /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name) && !JS_RESERVED.has(name);
}
