/** An error as the harness reports it (docs/harness-protocol.md, section 3). */
export interface HarnessError {
  type?: unknown;
  message?: unknown;
  line?: unknown;
  column?: unknown;
}

const MAX_MESSAGE_CHARS = 1_000;
const MAX_TYPE_CHARS = 200;
/** Every kind of line break, with the blanks around it: a forged frame can carry any of them, and `error` stays one line. */
const LINE_BREAK = /[\s\u0085]*[\n\r\v\f\u0085\u2028\u2029][\s\u0085]*/g;

const oneLine = (text: string, max: number) => text.replace(LINE_BREAK, ' ').trim().slice(0, max);

/** One line: type, message and the user-code line (mapped back to the TypeScript source when there is a map). */
export function formatHarnessError(error: HarnessError, lineMap?: (line: number) => number): string {
  const type = (typeof error.type === 'string' && oneLine(error.type, MAX_TYPE_CHARS)) || 'Error';
  const message = typeof error.message === 'string' ? oneLine(error.message, MAX_MESSAGE_CHARS) : '';
  const line = Number(error.line);
  const column = Number(error.column);
  let where = '';
  if (Number.isInteger(line) && line > 0) {
    const mapped = lineMap ? lineMap(line) : line;
    where = Number.isInteger(column) && column > 0 && !lineMap ? ` (line ${mapped}, column ${column})` : ` (line ${mapped})`;
  }
  return `${message ? `${type}: ${message}` : type}${where}`;
}
