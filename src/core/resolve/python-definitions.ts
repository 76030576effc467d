import { parser } from '@lezer/python';
import { lastDefinitionWins, type FunctionDef, type ParamInfo } from './definitions.js';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

const SOLUTION_CLASS = 'Solution';

/**
 * The functions a Python submission defines at module level, plus the public methods of a
 * module-level `class Solution`. The lezer parser recovers from syntax errors, so a broken line
 * elsewhere does not hide a good definition; the interpreter reports the error when it loads.
 * A name defined twice keeps only its last definition, the one Python would call.
 */
export function findPythonDefinitions(source: string): FunctionDef[] {
  // Python skips a leading byte-order mark; left in, it would make the first line's `def` unreadable.
  const code = source.replace(/^\uFEFF/, '');
  const starts = lineStarts(code);
  const text = (node: SyntaxNode): string => code.slice(node.from, node.to);
  const found: FunctionDef[] = [];
  // A second `class Solution` replaces the first as a whole, so only the last one's methods count.
  let solution: SyntaxNode | undefined;

  for (const statement of children(parser.parse(code).topNode)) {
    const { definition } = unwrapDecorated(statement);
    if (definition?.name === 'FunctionDefinition') {
      const def = readFunction(definition, code, starts, text);
      if (def) found.push(def);
    } else if (definition?.name === 'ClassDefinition' && className(definition, text) === SOLUTION_CLASS) {
      solution = definition;
    }
  }
  if (solution) found.push(...readMethods(solution, code, starts, text));
  return lastDefinitionWins(found);
}

function children(node: SyntaxNode): SyntaxNode[] {
  const list: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) list.push(child);
  return list;
}

function unwrapDecorated(node: SyntaxNode): { decorators: SyntaxNode[]; definition: SyntaxNode | undefined } {
  if (node.name !== 'DecoratedStatement') return { decorators: [], definition: node };
  const parts = children(node);
  return {
    decorators: parts.filter((part) => part.name === 'Decorator'),
    definition: parts.find((part) => part.name === 'FunctionDefinition' || part.name === 'ClassDefinition'),
  };
}

function className(node: SyntaxNode, text: (node: SyntaxNode) => string): string | undefined {
  const name = node.getChild('VariableName');
  return name ? text(name) : undefined;
}

type MethodStyle = 'instance' | 'static' | 'class' | 'property';

/** The decorator's last dotted part decides how the method is called (`@x.setter` is a property too). */
function methodStyle(decorators: SyntaxNode[], text: (node: SyntaxNode) => string): MethodStyle {
  for (const decorator of decorators) {
    const names = decorator.getChildren('VariableName').map(text);
    const last = names[names.length - 1];
    if (last === 'staticmethod') return 'static';
    if (last === 'classmethod') return 'class';
    if (last === 'property' || last === 'cached_property' || last === 'setter' || last === 'getter' || last === 'deleter')
      return 'property';
  }
  return 'instance';
}

function readMethods(classNode: SyntaxNode, code: string, starts: number[], text: (node: SyntaxNode) => string): FunctionDef[] {
  const body = classNode.getChild('Body');
  if (!body) return [];
  const methods: FunctionDef[] = [];
  for (const member of children(body)) {
    const { decorators, definition } = unwrapDecorated(member);
    if (definition?.name !== 'FunctionDefinition') continue;
    const style = methodStyle(decorators, text);
    const def = readFunction(definition, code, starts, text);
    if (!def || def.name.startsWith('_') || style === 'property') continue;
    // The receiver is bound by Python whatever it is called; only a leading `*args` could absorb it instead.
    const params = style !== 'static' && def.params[0]?.kind === 'positional' ? def.params.slice(1) : def.params;
    methods.push({ ...def, className: SOLUTION_CLASS, params });
  }
  return methods;
}

function readFunction(node: SyntaxNode, code: string, starts: number[], text: (node: SyntaxNode) => string): FunctionDef | undefined {
  const nameNode = node.getChild('VariableName');
  const paramList = node.getChild('ParamList');
  if (!nameNode || !paramList) return undefined;
  return { name: text(nameNode), params: readParams(paramList, code, text), line: lineAt(starts, node.from) };
}

/**
 * Walks the parameter list's direct children. The default value and the annotation are whole
 * subtrees, so a lambda or tuple default cannot be mistaken for parameters. The `/` marker has no
 * node of its own; it shows up as text between two nodes (comments are nodes, so they cannot fake it).
 */
function readParams(paramList: SyntaxNode, code: string, text: (node: SyntaxNode) => string): ParamInfo[] {
  const params: ParamInfo[] = [];
  let keywordOnly = false;
  let pendingStar: '*' | '**' | undefined;
  let inDefault = false;
  let previousEnd = paramList.from;

  for (const child of children(paramList)) {
    if (code.slice(previousEnd, child.from).includes('/')) {
      for (const param of params) if (param.kind === 'positional') param.positionalOnly = true;
    }
    previousEnd = child.to;

    if (child.type.isError || child.name === 'Comment') continue;
    if (child.name === ',' || child.name === ')') {
      // A bare `*` (no name follows) only switches to keyword-only.
      if (pendingStar === '*') keywordOnly = true;
      pendingStar = undefined;
      inDefault = false;
      continue;
    }
    if (inDefault) continue;
    if (child.name === '*' || child.name === '**') {
      pendingStar = child.name;
      continue;
    }
    if (child.name === 'AssignOp') {
      const last = params[params.length - 1];
      if (last) last.hasDefault = true;
      inDefault = true;
      continue;
    }
    if (child.name === 'VariableName') {
      if (pendingStar === '*') {
        params.push({ name: text(child), kind: 'rest', hasDefault: false });
        keywordOnly = true;
      } else if (pendingStar === '**') {
        params.push({ name: text(child), kind: 'kwargs', hasDefault: false });
      } else {
        params.push({ name: text(child), kind: keywordOnly ? 'keyword-only' : 'positional', hasDefault: false });
      }
      pendingStar = undefined;
    }
    // Anything else here is an annotation (TypeDef) or recovery debris.
  }
  return params;
}

function lineStarts(code: string): number[] {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code[i] === '\n') starts.push(i + 1);
  return starts;
}

/** 1-based line holding `offset` (binary search over the line starts). */
function lineAt(starts: number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (starts[mid] <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}
