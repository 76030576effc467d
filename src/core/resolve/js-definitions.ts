import ts from 'typescript';
import { lastDefinitionWins, type FunctionDef, type ParamInfo } from './definitions.js';

const SOLUTION_CLASS = 'Solution';

/**
 * The functions a JavaScript/TypeScript submission defines at top level, plus the public
 * instance methods of a top-level `class Solution`. Parsing only: TypeScript's parser recovers
 * from syntax errors and never type-checks, so this works on code that will not compile.
 *
 * Static methods of `Solution` are left out: the harness calls methods on a fresh instance, where
 * a static method does not exist. Methods whose names start with `_` are left out as well, the
 * usual marker of a helper. A name defined twice keeps only its last definition.
 */
export function findJsDefinitions(code: string, language: 'javascript' | 'typescript'): FunctionDef[] {
  const kind = language === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(language === 'typescript' ? 'solution.ts' : 'solution.js', code, ts.ScriptTarget.Latest, true, kind);
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const found: FunctionDef[] = [];

  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement)) {
      // Overload signatures and `declare function` have no body; the implementation follows them.
      if (statement.name && statement.body && !hasModifier(statement, ts.SyntaxKind.DeclareKeyword)) {
        found.push({ name: statement.name.text, params: readParams(statement.parameters), line: lineOf(statement) });
      }
    } else if (ts.isVariableStatement(statement)) {
      if (hasModifier(statement, ts.SyntaxKind.DeclareKeyword)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const value = unwrap(declaration.initializer);
        if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) {
          found.push({ name: declaration.name.text, params: readParams(value.parameters), line: lineOf(declaration) });
        } else if (ts.isClassExpression(value) && declaration.name.text === SOLUTION_CLASS) {
          found.push(...readMethods(value, lineOf));
        }
      }
    } else if (
      ts.isClassDeclaration(statement) &&
      statement.name?.text === SOLUTION_CLASS &&
      !hasModifier(statement, ts.SyntaxKind.DeclareKeyword)
    ) {
      found.push(...readMethods(statement, lineOf));
    }
  }
  return lastDefinitionWins(found);
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind);
}

/** `(x) => x` wrapped in parentheses or type assertions is still that function. */
function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (
    ts.isParenthesizedExpression(current) ||
    ts.isAsExpression(current) ||
    ts.isSatisfiesExpression(current) ||
    ts.isTypeAssertionExpression(current) ||
    ts.isNonNullExpression(current)
  ) {
    current = current.expression;
  }
  return current;
}

function memberName(name: ts.PropertyName): string | undefined {
  if (ts.isIdentifier(name)) return name.text;
  // `'twoSum'() {}` is an ordinary method; a computed or `#private` name is not callable by name.
  if (ts.isStringLiteral(name) && /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u.test(name.text)) return name.text;
  return undefined;
}

function isPublicInstanceMember(member: ts.ClassElement): boolean {
  return (
    !hasModifier(member, ts.SyntaxKind.StaticKeyword) &&
    !hasModifier(member, ts.SyntaxKind.PrivateKeyword) &&
    !hasModifier(member, ts.SyntaxKind.ProtectedKeyword) &&
    !hasModifier(member, ts.SyntaxKind.AbstractKeyword) &&
    !hasModifier(member, ts.SyntaxKind.DeclareKeyword)
  );
}

/** Methods, and fields holding a function (`twoSum = (nums) => …`), which instances carry just the same. */
function readMethods(node: ts.ClassLikeDeclaration, lineOf: (node: ts.Node) => number): FunctionDef[] {
  const methods: FunctionDef[] = [];
  for (const member of node.members) {
    if (!member.name || !isPublicInstanceMember(member)) continue;
    const name = memberName(member.name);
    if (name === undefined || name.startsWith('_') || name === 'constructor') continue;
    let parameters: ts.NodeArray<ts.ParameterDeclaration> | undefined;
    if (ts.isMethodDeclaration(member) && member.body) parameters = member.parameters;
    if (ts.isPropertyDeclaration(member) && member.initializer) {
      const value = unwrap(member.initializer);
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) parameters = value.parameters;
    }
    if (parameters) methods.push({ name, className: SOLUTION_CLASS, params: readParams(parameters), line: lineOf(member) });
  }
  return methods;
}

function readParams(parameters: ts.NodeArray<ts.ParameterDeclaration>): ParamInfo[] {
  const params: ParamInfo[] = [];
  for (const parameter of parameters) {
    // A TypeScript `this` parameter only types the receiver; it takes no argument.
    if (ts.isIdentifier(parameter.name) && parameter.name.text === 'this') continue;
    params.push({
      name: ts.isIdentifier(parameter.name) ? parameter.name.text : `arg${params.length}`,
      kind: parameter.dotDotDotToken ? 'rest' : 'positional',
      hasDefault: !parameter.dotDotDotToken && (parameter.initializer !== undefined || parameter.questionToken !== undefined),
    });
  }
  return params;
}
