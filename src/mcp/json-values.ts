import { isLosslessNumber } from 'lossless-json';

/**
 * Replaces lossless-json numbers with plain numbers. Only for values whose numbers are known to
 * be small (problem arguments, generated test data); execute_code arguments keep their exact text.
 */
export function toPlainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(toPlainJson);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toPlainJson(v)]));
  }
  return value;
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}
