/** An error as the harness reports it (docs/harness-protocol.md, section 3). */
export interface HarnessError {
  type?: unknown;
  message?: unknown;
  line?: unknown;
  column?: unknown;
}

const MAX_MESSAGE_CHARS = 1_000;

/** One line: type, message and the user-code line (mapped back to the TypeScript source when there is a map). */
export function formatHarnessError(error: HarnessError, lineMap?: (line: number) => number): string {
  const type = typeof error.type === 'string' && error.type ? error.type : 'Error';
  const rawMessage = typeof error.message === 'string' ? error.message : '';
  const message = rawMessage
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .slice(0, MAX_MESSAGE_CHARS);
  const line = Number(error.line);
  const column = Number(error.column);
  let where = '';
  if (Number.isInteger(line) && line > 0) {
    const mapped = lineMap ? lineMap(line) : line;
    where = Number.isInteger(column) && column > 0 && !lineMap ? ` (line ${mapped}, column ${column})` : ` (line ${mapped})`;
  }
  return `${message ? `${type}: ${message}` : type}${where}`;
}
