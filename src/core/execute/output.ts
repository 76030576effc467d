const TRUNCATION_MARKER = '\n...[truncated]';

/** Keeps at most `capBytes` UTF-8 bytes of `text`, cut on a character boundary, marking the cut. */
function capOutput(text: string, capBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= capBytes) return text;
  let end = capBytes;
  // step back over UTF-8 continuation bytes so no character is split
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString('utf8') + TRUNCATION_MARKER;
}

/**
 * Joins what the harness captured with output that escaped it (fd-level writes), under one cap.
 * The cap is applied even to what the harness says it already cut: a frame forged by user code
 * (docs/harness-protocol.md, section 3) need not keep it.
 */
export function joinOutput(captured: string, stray: string, capBytes: number): string {
  if (!captured.endsWith(TRUNCATION_MARKER)) return capOutput(captured + stray, capBytes);
  const kept = captured.slice(0, -TRUNCATION_MARKER.length);
  return Buffer.byteLength(kept, 'utf8') <= capBytes ? captured : capOutput(kept, capBytes);
}
