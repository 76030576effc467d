/** Counts the result frames a harness wrote for this nonce (docs/harness-protocol.md). */
export function countResults(output: string, nonce: string): number {
  const prefix = `\x1e${nonce} `;
  return output.split('\n').filter((line) => {
    if (!line.startsWith(prefix)) return false;
    try {
      return (JSON.parse(line.slice(prefix.length)) as { t?: string }).t === 'result';
    } catch {
      return false;
    }
  }).length;
}
