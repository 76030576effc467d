import { isJsonObject } from '../web/json.js';
import type { Language } from './languages.js';
import type { ParamInfo } from './resolve/definitions.js';
import { nameMatches } from './resolve/names.js';

/**
 * One test case's arguments, laid out for the harness (docs/harness-protocol.md): `args` go
 * positionally, `kwargs` by keyword (Python only), and the positions in `undef` become
 * `undefined` in JavaScript so that a default parameter applies.
 */
export type BoundCall = { ok: true; args: unknown[]; kwargs: Record<string, unknown>; undef: number[] } | { ok: false; error: string };

interface Binding {
  /** Parameter index → the request key bound to it. */
  byParam: Map<number, string>;
  /** Values for a rest parameter, in key order. */
  restValues: unknown[];
  /** Python keyword arguments that a `**kwargs` parameter absorbs. */
  extraKwargs: Record<string, unknown>;
}

/**
 * Maps a test case's `args` object onto the function's parameters. Values are passed through
 * untouched (they are lossless-json values). With `params` undefined the signature is unknown and
 * the values go positionally in key order. Missing required parameters are not an error here:
 * the language reports them when the call is made.
 */
export function bindArgs(
  args: Record<string, unknown>,
  params: ParamInfo[] | undefined,
  language: Language,
  functionName = 'function',
): BoundCall {
  const keys = Object.keys(args);
  if (params === undefined) return { ok: true, args: keys.map((key) => args[key]), kwargs: {}, undef: [] };

  const signature = () => describeSignature(functionName, params, language);
  const binding = bindByName(args, keys, params, language);
  if (binding === undefined) return bindByOrder(args, keys, params, signature);
  if ('unexpected' in binding) return { ok: false, error: `unexpected argument(s) ${quoteList(binding.unexpected)} for ${signature()}` };
  return language === 'python' ? layoutPython(args, params, binding, signature) : layoutJavaScript(args, params, binding);
}

/** No key names a parameter: the object's key order is the parameter order. */
function bindByOrder(args: Record<string, unknown>, keys: string[], params: ParamInfo[], signature: () => string): BoundCall {
  const capacity = params.some((param) => param.kind === 'rest') ? Infinity : params.filter((param) => param.kind === 'positional').length;
  if (keys.length > capacity) return { ok: false, error: `unexpected argument(s) ${quoteList(keys.slice(capacity))} for ${signature()}` };
  return { ok: true, args: keys.map((key) => args[key]), kwargs: {}, undef: [] };
}

/**
 * Exact names first, then the closest convention match (snake/camel, then case and underscores
 * ignored), each parameter taken at most once. `undefined` when no key names any parameter.
 */
function bindByName(
  args: Record<string, unknown>,
  keys: string[],
  params: ParamInfo[],
  language: Language,
): Binding | { unexpected: string[] } | undefined {
  const byParam = new Map<number, string>();
  const usedKeys = new Set<string>();
  const pairs: Array<{ rank: number; key: number; param: number }> = [];
  keys.forEach((key, k) =>
    params.forEach((param, p) => {
      const rank = nameMatches(param.name, key);
      if (rank !== false) pairs.push({ rank, key: k, param: p });
    }),
  );
  pairs.sort((x, y) => x.rank - y.rank || x.key - y.key || x.param - y.param);

  const restValues: unknown[] = [];
  const extraKwargs: Record<string, unknown> = {};
  let spreadRest: string | undefined;
  let spreadKwargs: string | undefined;
  for (const { key: k, param: p } of pairs) {
    const key = keys[k];
    const param = params[p];
    if (usedKeys.has(key)) continue;
    const value = args[key];
    // A key naming the rest (or **kwargs) parameter carries all its values at once: `{nums: [1, 2]}` for `...nums`.
    if (param.kind === 'rest' && spreadRest === undefined && Array.isArray(value)) {
      spreadRest = key;
      usedKeys.add(key);
    } else if (param.kind === 'kwargs' && spreadKwargs === undefined && isJsonObject(value)) {
      spreadKwargs = key;
      usedKeys.add(key);
    } else if ((param.kind === 'positional' || param.kind === 'keyword-only') && !byParam.has(p)) {
      byParam.set(p, key);
      usedKeys.add(key);
    }
  }
  if (usedKeys.size === 0) return undefined;

  if (spreadRest !== undefined) restValues.push(...(args[spreadRest] as unknown[]));
  if (spreadKwargs !== undefined) Object.assign(extraKwargs, args[spreadKwargs] as Record<string, unknown>);

  const extras = keys.filter((key) => !usedKeys.has(key));
  if (extras.length > 0) {
    // Python keeps the names when it can; otherwise a rest parameter takes the values in key order.
    if (language === 'python' && params.some((param) => param.kind === 'kwargs')) {
      for (const key of extras) extraKwargs[key] = args[key];
    } else if (params.some((param) => param.kind === 'rest')) {
      for (const key of extras) restValues.push(args[key]);
    } else {
      return { unexpected: extras };
    }
  }
  return { byParam, restValues, extraKwargs };
}

/**
 * Python: keyword arguments under the real parameter names, except where Python only accepts
 * positions — parameters before `/`, and every positional parameter once values go to `*args`.
 */
function layoutPython(args: Record<string, unknown>, params: ParamInfo[], binding: Binding, signature: () => string): BoundCall {
  const positional: unknown[] = [];
  const kwargs: Record<string, unknown> = {};
  const fillsRest = binding.restValues.length > 0;
  const byPosition = (param: ParamInfo) => param.kind === 'positional' && (fillsRest || param.positionalOnly === true);

  const lastPositional = params.reduce((last, param, p) => (byPosition(param) && binding.byParam.has(p) ? p : last), -1);
  const mustFill = fillsRest ? params.findIndex((param) => param.kind === 'rest') : lastPositional + 1;
  for (let p = 0; p < params.length; p++) {
    const param = params[p];
    const key = binding.byParam.get(p);
    if (byPosition(param)) {
      if (key !== undefined) positional.push(args[key]);
      else if (p < mustFill) {
        return {
          ok: false,
          error: `cannot bind ${signature()}: '${param.name}' can only be passed by position, so it must be given when a later position is`,
        };
      }
    } else if (key !== undefined) {
      kwargs[param.name] = args[key];
    }
  }
  positional.push(...binding.restValues);
  Object.assign(kwargs, binding.extraKwargs);
  return { ok: true, args: positional, kwargs, undef: [] };
}

/** JavaScript: one positional list in parameter order; a gap before a given value becomes `undefined`. */
function layoutJavaScript(args: Record<string, unknown>, params: ParamInfo[], binding: Binding): BoundCall {
  const restIndex = params.findIndex((param) => param.kind === 'rest');
  const givenUpTo = Math.max(-1, ...binding.byParam.keys());
  const end = binding.restValues.length > 0 && restIndex >= 0 ? restIndex : givenUpTo + 1;
  const positional: unknown[] = [];
  const undef: number[] = [];
  for (let p = 0; p < end; p++) {
    const key = binding.byParam.get(p);
    if (key === undefined) {
      positional.push(null);
      undef.push(p);
    } else {
      positional.push(args[key]);
    }
  }
  positional.push(...binding.restValues);
  return { ok: true, args: positional, kwargs: {}, undef };
}

function quoteList(keys: string[]): string {
  return keys.map((key) => `'${key}'`).join(', ');
}

/** `f(a, b=…, /, c, *args, d, **kw)` in Python, `f(a, b=…, ...rest)` in JavaScript. */
export function describeSignature(name: string, params: ParamInfo[], language: Language): string {
  const parts: string[] = [];
  params.forEach((param, p) => {
    const previous = params[p - 1];
    if (language === 'python' && param.kind === 'keyword-only' && previous?.kind !== 'keyword-only' && previous?.kind !== 'rest')
      parts.push('*');
    if (param.kind === 'rest') parts.push(language === 'python' ? `*${param.name}` : `...${param.name}`);
    else if (param.kind === 'kwargs') parts.push(`**${param.name}`);
    else parts.push(param.hasDefault ? `${param.name}=…` : param.name);
    if (param.positionalOnly && !params[p + 1]?.positionalOnly) parts.push('/');
  });
  return `${name}(${parts.join(', ')})`;
}
