import { isJsonObject } from '../../web/json.js';

/** A string literal of valid JSON text (the loop unrolled, so that a long string costs no backtracking). */
const JSON_STRING = /"[^"\\]*(?:\\.[^"\\]*)*"/g;
/** A frame's `ms` member (any number: the host reads it with Number()), once the other strings are emptied. */
const MS_MEMBER = /"ms"\s*:\s*-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** Up to 15 digits, an integer prints back as it was written (JSON has no leading zeros). */
const EXACT_INTEGER_BELOW = 1e15;
/** Deeper values are left to the lossless parser (and JSON.stringify's recursion never meets them). */
const NATIVE_DEPTH = 256;

/** What reading a text natively must be checked against in the text. */
interface Tally {
  /** Object members in all (one colon each in the text). */
  members: number;
  /** `true` and `false` literals (one "e" each in the text). */
  booleans: number;
}

/**
 * Tallies a natively parsed value; false when it holds a number that is no integer of up to 15
 * digits (or minus zero), or is nested deeper than NATIVE_DEPTH. With `frameMs`, the top object's
 * `ms` may be any number (the harnesses write a fraction there) and an `ms` number deeper in may
 * not (the text check could not tell it from the frame's).
 */
function tally(value: unknown, counts: Tally, frameMs: boolean, depth = 0): boolean {
  if (typeof value === 'boolean') counts.booleans += 1;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < EXACT_INTEGER_BELOW && !Object.is(value, -0);
  if (typeof value !== 'object' || value === null) return true;
  if (depth > NATIVE_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => tally(item, counts, frameMs, depth + 1));
  const members = Object.entries(value);
  counts.members += members.length;
  return members.every(([key, member]) =>
    frameMs && key === 'ms' && typeof member === 'number' ? depth === 0 : tally(member, counts, frameMs, depth + 1),
  );
}

function occurrences(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at >= 0; at = text.indexOf(char, at + 1)) count += 1;
  return count;
}

/**
 * `text` as the native parser reads it (a few ms per MiB, against 50-90 for the lossless one), when
 * that is exactly what the lossless parser (parseExactJson) would read; undefined otherwise, and
 * the lossless parser must read it. Outside string literals the text must have no "." or "E", and
 * no "e" but those of its booleans, so that every number was written as a plain integer; up to 15
 * digits, a double keeps it, and its text is String(number). No object may repeat a key (one colon
 * per member): the lossless parser rejects a repeated key with another value, the native one keeps
 * the last. `frame`: the text is a harness frame, an object whose own `ms` may be any number.
 */
export function nativeJson(text: string, { frame = false } = {}): { value: unknown } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const counts: Tally = { members: 0, booleans: 0 };
  if ((frame && !isJsonObject(value)) || !tally(value, counts, frame)) return undefined;
  const strings = text.replace(JSON_STRING, (literal) => (frame && literal === '"ms"' ? literal : '""'));
  const outside = frame ? strings.replace(MS_MEMBER, '"ms":0') : strings;
  const plainIntegers = !outside.includes('.') && !outside.includes('E') && occurrences(outside, 'e') === counts.booleans;
  return plainIntegers && occurrences(outside, ':') === counts.members ? { value } : undefined;
}
