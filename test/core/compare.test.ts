import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { valuesEqual } from '../../src/core/compare.js';

/** Both sides parsed the way the service parses them: numbers keep their text. */
const eq = (expected: string, actual: string) => valuesEqual(parse(expected), parse(actual));

describe('valuesEqual', () => {
  it('compares integers exactly, at any size', () => {
    expect(eq('1000000001', '1000000000')).toBe(false);
    expect(eq('9999999999999999999', '9999999999999999999')).toBe(true);
    expect(eq('9999999999999999999', '10000000000000000000')).toBe(false);
    expect(eq('-9999999999999999', '-9999999999999999')).toBe(true);
    expect(eq('-9999999999999999', '-10000000000000000')).toBe(false);
    expect(eq('0', '-0')).toBe(true);
  });

  it('compares floats with a relative tolerance of 1e-9', () => {
    expect(eq('1', '1.0')).toBe(true);
    expect(eq('2.0', '2')).toBe(true);
    expect(eq('[1, 3, 2.0, 8.0]', '[1, 3, 2, 8]')).toBe(true);
    expect(eq('0.3', '0.30000000000000004')).toBe(true);
    expect(eq('1e10', '10000000000.5')).toBe(true);
    expect(eq('1e10', '10000000011')).toBe(false);
    expect(eq('0.5', '0.5000001')).toBe(false);
    expect(eq('1E3', '1000')).toBe(true);
    expect(eq('1e-12', '0')).toBe(true);
  });

  it('treats numbers beyond the float range as equal only when written the same', () => {
    expect(eq('1e400', '1e400')).toBe(true);
    expect(eq('1e400', '2e400')).toBe(false);
  });

  it('never equates booleans, numbers, null and strings', () => {
    expect(eq('true', '1')).toBe(false);
    expect(eq('1', 'true')).toBe(false);
    expect(eq('false', '0')).toBe(false);
    expect(eq('null', '0')).toBe(false);
    expect(eq('null', 'false')).toBe(false);
    expect(eq('null', '""')).toBe(false);
    expect(eq('null', 'null')).toBe(true);
    expect(eq('"1"', '1')).toBe(false);
    expect(eq('true', 'true')).toBe(true);
  });

  it('compares strings exactly, the special float strings included', () => {
    expect(eq('"abc"', '"abc"')).toBe(true);
    expect(eq('"abc"', '"ABC"')).toBe(false);
    expect(eq('"NaN"', '"NaN"')).toBe(true);
    expect(eq('"Infinity"', '"-Infinity"')).toBe(false);
    expect(eq('"1.0"', '"1"')).toBe(false);
  });

  it('compares arrays element by element with the same length', () => {
    expect(eq('[1, [2, 3]]', '[1, [2, 3]]')).toBe(true);
    expect(eq('[1, 2]', '[2, 1]')).toBe(false);
    expect(eq('[1, 2]', '[1, 2, 3]')).toBe(false);
    expect(eq('[]', '{}')).toBe(false);
    expect(eq('[]', '[]')).toBe(true);
  });

  it('compares objects by key set, ignoring key order', () => {
    expect(eq('{"a": 1, "b": [2.0]}', '{"b": [2], "a": 1}')).toBe(true);
    expect(eq('{"a": 1}', '{"a": 1, "b": 2}')).toBe(false);
    expect(eq('{"a": 1, "b": 2}', '{"a": 1, "c": 2}')).toBe(false);
    expect(eq('{"a": null}', '{}')).toBe(false);
    expect(eq('{"a": {"b": 1}}', '{"a": {"b": 1.0000000000001}}')).toBe(true);
  });

  it('accepts plain numbers and bigints built by hand', () => {
    expect(valuesEqual(parse('3.0'), 3)).toBe(true);
    expect(valuesEqual(parse('9007199254740993'), 9007199254740993n)).toBe(true);
    expect(valuesEqual(parse('9007199254740993'), 9007199254740992n)).toBe(false);
  });
});
