// The exact JSON reader and writer (src/web/json.ts): numbers keep their text whichever way they are
// held (a plain number when native JSON writes the same text back, a LosslessNumber otherwise), and
// exactJson writes what lossless-json's stringify writes, fast paths included.
import { isLosslessNumber, LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { exactJson, parseExactJson } from '../../src/web/json.js';

const TEXTS = [
  '[3.0, -0, 1E5, 1e-7, 1.50, 0.1, -2.5, 12345678901234567890123, 9007199254740993, 2e400, -2e400, 1e-400, 1e+21, 1e21, 100]',
  '[1, -2, 0, 0.5, 123456789, 1.7976931348623157e+308, 5e-324, 123456789012345680000]',
  '{"__proto__": {"polluted": 1}, "constructor": 2, "0": 3.0, "": 4, "10": 1e1, "2": -0}',
  '["3.0", "1", "", "\\u0000nul", "\\ud800 lone", "\\ud83d\\ude00"]',
  '[true, false, null, [], {}, [[]], {"a": {}}, [1, "x", null, true], {"a": 1, "b": "c", "d": null}]',
  '{"a": [1, 2, [3, 4.0]], "b": {"c": [5, {"d": 6e0}]}}',
  '"just a string"',
  '-0',
  '42',
];

describe('parseExactJson and exactJson', () => {
  it.each(TEXTS)('%s: written back exactly as lossless-json writes it', (text) => {
    expect(exactJson(parseExactJson(text))).toBe(stringifyLossless(parseLossless(text)));
  });

  it('keeps a number plain only when native JSON writes its text back unchanged', () => {
    const [kept, float, negativeZero, big, exponent] = parseExactJson('[0.5, 3.0, -0, 9007199254740993, 1E5]') as unknown[];
    expect(kept).toBe(0.5);
    for (const [value, text] of [
      [float, '3.0'],
      [negativeZero, '-0'],
      [big, '9007199254740993'],
      [exponent, '1E5'],
    ] as const) {
      expect(isLosslessNumber(value), text).toBe(true);
      expect((value as LosslessNumber).value).toBe(text);
    }
  });

  it('shares one LosslessNumber per distinct text within a parse', () => {
    const values = parseExactJson(`[${Array<string>(1000).fill('3.0').join(',')}, 2.50]`) as LosslessNumber[];
    expect(new Set(values.slice(0, 1000)).size).toBe(1);
    expect(values[1000].value).toBe('2.50');
  });

  it('refuses a duplicate key with another number text, as before', () => {
    expect(() => parseExactJson('{"a": 1, "a": 1.0}')).toThrow(/Duplicate key 'a'/);
    expect(() => parseExactJson('{"a": 0, "a": -0}')).toThrow(/Duplicate key 'a'/);
    expect(parseExactJson('{"a": 1, "a": 1}')).toEqual({ a: 1 });
  });

  it('writes values that are no JSON as lossless-json does', () => {
    const values: unknown[] = [
      [undefined, () => 1, Symbol('s'), 10n, Number.NaN, Number.POSITIVE_INFINITY, -0],
      { a: undefined, b: () => 1, c: Symbol('s'), d: 10n, e: Number.NaN },
      { toJSON: () => ({ x: new LosslessNumber('1.0') }) },
      [new Date(0), new Number(3), new String('s'), new Boolean(false)],
      // eslint-disable-next-line no-sparse-arrays -- a hole is written as null
      [1, , 2.5, new LosslessNumber('3.0')],
      Object.assign(Object.create(null) as object, { a: 1, b: [new LosslessNumber('2.0')] }),
      undefined,
    ];
    for (const value of values) expect(exactJson(value)).toBe(stringifyLossless(value) ?? 'null');
  });
});
