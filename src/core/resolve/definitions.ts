/**
 * What the host learns about the functions a submission defines, before anything runs. Both the
 * Python and the JavaScript/TypeScript extractors produce these, so resolution and argument
 * binding do not depend on the language's syntax tree.
 */

type ParamKind = 'positional' | 'keyword-only' | 'rest' | 'kwargs';

export interface ParamInfo {
  name: string;
  kind: ParamKind;
  hasDefault: boolean;
  /** Python parameters before `/`: they cannot be passed by keyword, so binding must pass them positionally. */
  positionalOnly?: boolean;
}

export interface FunctionDef {
  name: string;
  /** Set for methods; the harness then instantiates this class and calls the method on the instance. */
  className?: string;
  /** Without the implicit receiver (`self`/`cls` in Python, a TypeScript `this` parameter). */
  params: ParamInfo[];
  /** 1-based line of the definition in the submitted source. */
  line: number;
}

/**
 * Keeps only the last definition of each name (per class): both languages rebind a name when it
 * is defined again, so the last one is what the harness will find.
 */
export function lastDefinitionWins(defs: FunctionDef[]): FunctionDef[] {
  const key = (def: FunctionDef) => `${def.className ?? ''}.${def.name}`;
  const lastIndex = new Map<string, number>();
  defs.forEach((def, i) => lastIndex.set(key(def), i));
  return defs.filter((def, i) => lastIndex.get(key(def)) === i);
}
