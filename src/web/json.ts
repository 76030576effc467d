import { isLosslessNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';

/**
 * A JSON object as parsed from a body or a frame: not null, not an array, not a lossless number
 * (which is an object too), and not an instance of some class.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isLosslessNumber(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** How many distinct texts one parse shares LosslessNumbers for (see exactNumbers). */
const MAX_SHARED_NUMBERS = 4096;

/**
 * The number reader of one parse. A number whose text native JSON writes back unchanged
 * (`String(Number(text)) === text`) stays a plain number: exactJson writes the same text again,
 * and an array of them is one object for the garbage collector, not one per number. Any other
 * (`3.0`, `-0`, `1E5`, integers beyond 2^53, `1e400`) is a LosslessNumber, one per distinct text
 * (nothing changes a LosslessNumber), so that 256 Ki numbers written `3.0` are one object too.
 */
export function exactNumbers(): (text: string) => number | LosslessNumber {
  const shared = new Map<string, LosslessNumber>();
  return (text) => {
    const value = Number(text);
    if (String(value) === text) return value;
    let number = shared.get(text);
    if (number === undefined) {
      number = new LosslessNumber(text);
      if (shared.size < MAX_SHARED_NUMBERS) shared.set(text, number);
    }
    return number;
  };
}

/** Parses JSON keeping every number's text (`3.0`, integers beyond 2^53): see exactNumbers. */
export function parseExactJson(text: string): unknown {
  return parseLossless(text, undefined, exactNumbers());
}

/** A value native JSON.stringify writes as lossless-json would: a string, a finite or other number, a boolean, null. */
function isNativeLeaf(value: unknown): boolean {
  const type = typeof value;
  return type === 'number' || type === 'string' || type === 'boolean' || value === null;
}

/**
 * Serialises with the original number texts (the counterpart of parseExactJson), as lossless-json's
 * stringify does, except that an array, or a plain object, of nothing but strings, plain numbers,
 * booleans and nulls is written by native JSON.stringify at once: 300 000 numbers in about 5 ms,
 * where writing them one at a time took 70-90 ms (at loads of 20-30) and left as many short
 * strings to collect.
 */
export function exactJson(value: unknown): string {
  return writeExact(value) ?? 'null';
}

function writeExact(value: unknown): string | undefined {
  if (isNativeLeaf(value)) return JSON.stringify(value);
  // `undefined`, a function, a symbol: left out of an object, null in an array, as JSON.stringify does
  if (typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : undefined;
  if (isLosslessNumber(value)) return value.value;
  if (Array.isArray(value)) {
    if (value.every(isNativeLeaf)) return JSON.stringify(value);
    // (a hole too, as lossless-json writes it: Array.from visits it, map would skip it)
    return `[${Array.from(value, (item: unknown) => writeExact(item) ?? 'null').join(',')}]`;
  }
  if (value instanceof Date || value instanceof Boolean || value instanceof Number || value instanceof String) return JSON.stringify(value);
  const object = value as Record<string, unknown>;
  if (typeof object.toJSON === 'function') return writeExact((object.toJSON as () => unknown)());
  if (isJsonObject(object) && Object.values(object).every(isNativeLeaf)) return JSON.stringify(object);
  const members: string[] = [];
  for (const key of Object.keys(object)) {
    const json = writeExact(object[key]);
    if (json !== undefined) members.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${members.join(',')}}`;
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
