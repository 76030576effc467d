import { LEAST_UPPER_BOUND, TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import ts from 'typescript';

export type PreparedSource = { ok: true; code: string } | { ok: false; error: string };
export type TranspiledSource = { ok: true; code: string; lineMap: (line: number) => number } | { ok: false; error: string };

/** The text that makes a default-exported value reachable in a CommonJS-style script. */
const DEFAULT_EXPORT = 'module.exports=';

/**
 * Makes a JavaScript submission loadable as a classic script (sloppy mode, as CommonJS runs it)
 * without moving any line or column, so V8's error positions stay the user's. `export` and
 * `export default` before a declaration are blanked out; `export { … }` and `export … from`
 * statements are blanked whole; `export default <expression>` becomes `module.exports=<expression>`.
 * `import` statements stay and fail when the script loads, with V8's own message.
 *
 * The parser recovers from syntax errors, so broken code is still prepared and V8 reports the
 * real error; this never returns `ok: false` today, the type leaves room for refusing input.
 */
export function prepareJavaScript(code: string): PreparedSource {
  const source = ts.createSourceFile('solution.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits: Edit[] = [];

  for (const statement of source.statements) {
    const start = statement.getStart(source);
    if (ts.isExportDeclaration(statement)) {
      // The `;` keeps a following `(` or `[` line from continuing the statement before the export.
      edits.push({ from: start, to: statement.end, text: ';' });
    } else if (ts.isExportAssignment(statement)) {
      edits.push({ from: start, to: spacesAfter(code, keywordsEnd(code, start, 2)), text: DEFAULT_EXPORT });
    } else if (ts.canHaveModifiers(statement)) {
      const modifiers = ts.getModifiers(statement) ?? [];
      const exportKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      const defaultKeyword = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
      if (!exportKeyword) continue;
      const anonymous = (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && !statement.name;
      const from = exportKeyword.getStart(source);
      const to = (defaultKeyword ?? exportKeyword).end;
      // `export default function () {}` is a declaration only as an export; as a script it must become an expression.
      if (defaultKeyword && anonymous) edits.push({ from, to: spacesAfter(code, to), text: DEFAULT_EXPORT });
      else edits.push({ from, to, text: '' });
    }
  }
  return { ok: true, code: applyEdits(code, edits) };
}

/**
 * Compiles TypeScript to a CommonJS script for the Node runner: types are erased, nothing is
 * type-checked, and only syntax errors are reported. TypeScript adds "use strict" only when the
 * source has an import or export (it is then a module); other sources stay sloppy, as JavaScript
 * submissions are. `lineMap` takes a line of the output back to the TypeScript source.
 */
export function transpileTypeScript(code: string): TranspiledSource {
  const output = ts.transpileModule(code, {
    fileName: 'solution.ts',
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true },
  });
  const errors = (output.diagnostics ?? []).filter((diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    errors.sort((a, b) => (a.start ?? 0) - (b.start ?? 0));
    return { ok: false, error: describeSyntaxError(errors[0]) };
  }
  if (output.sourceMapText === undefined) return { ok: false, error: 'TypeScript produced no source map' };
  const compiled = output.outputText.replace(/\n?\/\/# sourceMappingURL=\S*\s*$/, '\n');
  return { ok: true, code: compiled, lineMap: sourceLineMap(output.sourceMapText, compiled.split('\n').length) };
}

function describeSyntaxError(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  if (!diagnostic.file || diagnostic.start === undefined) return `SyntaxError: ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `SyntaxError: ${message} (line ${line + 1}, column ${character + 1})`;
}

/**
 * Output line → source line, from the first mapped segment of each output line. Lines TypeScript
 * adds itself ("use strict", the `exports` preamble) have no mapping and take the nearest mapped
 * line above, or below when there is none above.
 */
function sourceLineMap(sourceMapText: string, outputLines: number): (line: number) => number {
  const map = new TraceMap(sourceMapText);
  const direct: Array<number | null> = [];
  for (let line = 1; line <= outputLines; line++) {
    direct.push(originalPositionFor(map, { line, column: 0, bias: LEAST_UPPER_BOUND }).line);
  }
  const resolved = direct.map((_, i) => {
    for (let j = i; j >= 0; j--) if (direct[j] !== null) return direct[j];
    for (let j = i + 1; j < direct.length; j++) if (direct[j] !== null) return direct[j];
    return null;
  });
  return (line) => resolved[line - 1] ?? line;
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

/** End of the `count`-th token from `start` (comments and white space skipped). */
function keywordsEnd(code: string, start: number, count: number): number {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, true, ts.LanguageVariant.Standard, code);
  scanner.resetTokenState(start);
  for (let i = 0; i < count; i++) scanner.scan();
  return scanner.getTokenEnd();
}

const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** `export default x`: the space after `default` is room for the 15th character of `module.exports=`. */
function spacesAfter(code: string, position: number): number {
  let end = position;
  while (code[end] === ' ' || code[end] === '\t') end++;
  return end;
}

/**
 * Replaces each range by its text followed by spaces, keeping every line break where it was, so
 * lines and columns after the range do not move. The text goes at the start of the range's last
 * line; only when it is longer than the room there does the rest of that line shift right.
 */
function applyEdits(code: string, edits: Edit[]): string {
  if (edits.length === 0) return code;
  const parts: string[] = [];
  let cursor = 0;
  for (const edit of [...edits].sort((a, b) => a.from - b.from)) {
    parts.push(code.slice(cursor, edit.from));
    const blanked = code.slice(edit.from, edit.to).replace(/[^\n\r\u2028\u2029]/g, ' ');
    let lastLineStart = 0;
    for (let i = 0; i < blanked.length; i++) if (LINE_BREAK.test(blanked[i])) lastLineStart = i + 1;
    const room = blanked.length - lastLineStart;
    const tail = edit.text.length <= room ? edit.text + ' '.repeat(room - edit.text.length) : edit.text;
    parts.push(blanked.slice(0, lastLineStart) + tail);
    cursor = edit.to;
  }
  parts.push(code.slice(cursor));
  return parts.join('');
}
