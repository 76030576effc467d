import { isLosslessNumber } from 'lossless-json';
import { isJsonObject } from '../web/json.js';

const RELATIVE_TOLERANCE = 1e-9;
/**
 * The most digits an integer may have to be parsed as a number on the host (Python's own default
 * int/str conversion limit): BigInt() of a million digits takes seconds. A longer integer is
 * compared as text: equal only to an integer with the same digits (after its sign and leading zeros
 * are normalised), never to a float.
 */
const MAX_INTEGER_DIGITS = 4300;

/**
 * Deep equality of two JSON values as lossless-json parses them. Numbers are compared by value,
 * never by their text: integers exactly (as BigInt, so digits beyond 2^53 count), and as soon as
 * either side is written as a float, within a relative 1e-9 — so `2.0` equals `2`, which keeps
 * Python's int/float distinction from failing a correct answer. Booleans are never numbers.
 * Integers longer than MAX_INTEGER_DIGITS are compared as digit strings.
 */
export function valuesEqual(expected: unknown, actual: unknown): boolean {
  const a = numberText(expected);
  const b = numberText(actual);
  if (a !== undefined || b !== undefined) return a !== undefined && b !== undefined && numbersEqual(a, b);

  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) return false;
    return expected.every((item, i) => valuesEqual(item, actual[i]));
  }
  if (isJsonObject(expected) || isJsonObject(actual)) {
    if (!isJsonObject(expected) || !isJsonObject(actual)) return false;
    const keys = Object.keys(expected);
    if (keys.length !== Object.keys(actual).length) return false;
    return keys.every((key) => Object.prototype.hasOwnProperty.call(actual, key) && valuesEqual(expected[key], actual[key]));
  }
  return expected === actual;
}

/** The number's source text; plain numbers and bigints are accepted too, in case a caller built values by hand. */
function numberText(value: unknown): string | undefined {
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'bigint') return value.toString();
  return undefined;
}

function isIntegerLiteral(text: string): boolean {
  return /^-?\d+$/.test(text);
}

/** An integer's text without leading zeros, and without its sign when it is zero. */
function normalInteger(text: string): string {
  const negative = text.startsWith('-');
  const digits = (negative ? text.slice(1) : text).replace(/^0+(?=\d)/, '');
  return negative && digits !== '0' ? `-${digits}` : digits;
}

function numbersEqual(a: string, b: string): boolean {
  if (isIntegerLiteral(a) && isIntegerLiteral(b)) {
    const x = normalInteger(a);
    const y = normalInteger(b);
    const longest = Math.max(x.replace('-', '').length, y.replace('-', '').length);
    return longest > MAX_INTEGER_DIGITS ? x === y : BigInt(x) === BigInt(y);
  }
  const x = Number(a);
  const y = Number(b);
  // Beyond the float range the values are infinite and tell nothing apart; only the same text is equal then.
  if (!Number.isFinite(x) || !Number.isFinite(y)) return a === b;
  return Math.abs(x - y) <= RELATIVE_TOLERANCE * Math.max(1, Math.abs(x), Math.abs(y));
}
