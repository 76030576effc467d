import { bindArgs } from '../bind-args.js';
import type { Interpreter, Language } from '../languages.js';
import { interpreterOf } from '../languages.js';
import type { ExecuteRequest } from '../request-schema.js';
import type { FunctionDef } from '../resolve/definitions.js';
import { findJsDefinitions } from '../resolve/js-definitions.js';
import { findPythonDefinitions } from '../resolve/python-definitions.js';
import { resolveFunction } from '../resolve/resolve-function.js';
import { prepareJavaScript, transpileTypeScript } from '../transpile.js';
import type { BoundCase, HarnessJob } from './run-job.js';

/** What the host decided before any container is involved. */
export type Prepared =
  { kind: 'run'; interpreter: Interpreter; job: HarnessJob; caseErrors: Map<number, string> } | { kind: 'fail-all'; error: string };

const FILENAMES: Record<Language, string> = { python: 'solution.py', javascript: 'solution.js', typescript: 'solution.js' };

function sourceFor(
  request: ExecuteRequest,
  language: Language,
): { ok: true; code: string; lineMap?: (line: number) => number } | { ok: false; error: string } {
  if (language === 'python') return { ok: true, code: request.code };
  if (language === 'javascript') return prepareJavaScript(request.code);
  return transpileTypeScript(request.code);
}

export function prepareExecution(request: ExecuteRequest, language: Language, stdoutCap: number): Prepared {
  const source = sourceFor(request, language);
  if (!source.ok) return { kind: 'fail-all', error: source.error };

  const defs: FunctionDef[] = language === 'python' ? findPythonDefinitions(request.code) : findJsDefinitions(request.code, language);
  const resolution = resolveFunction(request, language, defs);
  if (resolution.kind === 'none')
    return { kind: 'fail-all', error: `no function to call was found; tried ${resolution.tried.join(', ') || 'no names'}` };

  const target =
    resolution.kind === 'static'
      ? { ...(resolution.def.className ? { class: resolution.def.className } : {}), names: [resolution.def.name] }
      : { ...(resolution.className ? { class: resolution.className } : {}), names: resolution.names };
  const params = resolution.kind === 'static' ? resolution.def.params : undefined;

  const cases: BoundCase[] = [];
  const caseErrors = new Map<number, string>();
  request.testCases.forEach((testCase, i) => {
    const bound = bindArgs(testCase.args, params, language, target.names[0]);
    if (bound.ok) cases.push({ i, args: bound.args, kwargs: bound.kwargs, undef: bound.undef });
    else caseErrors.set(i, bound.error);
  });

  return {
    kind: 'run',
    interpreter: interpreterOf(language),
    caseErrors,
    job: { code: source.code, filename: FILENAMES[language], target, cases, stdoutCap, lineMap: source.lineMap },
  };
}
