import { isLosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';

/**
 * A JSON object as parsed from a body or a frame: not null, not an array, not a lossless number
 * (which is an object too), and not an instance of some class.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Parses JSON keeping every number's text (`3.0`, integers beyond 2^53) as a LosslessNumber. */
export function parseExactJson(text: string): unknown {
  return parseLossless(text);
}

/** Serialises with the original number texts (the counterpart of parseExactJson). */
export function exactJson(value: unknown): string {
  return stringifyLossless(value) ?? 'null';
}

/**
 * Replaces lossless numbers with plain numbers. Only for values whose numbers are known to be
 * small (problem arguments, generated test data); execution arguments keep their exact text.
 */
export function toPlainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  }
  return value;
}
