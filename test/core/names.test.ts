import { describe, expect, it } from 'vitest';
import { nameMatches, normaliseName, toCamelCase, toSnakeCase } from '../../src/core/resolve/names.js';

describe('toSnakeCase', () => {
  it.each([
    ['twoSum', 'two_sum'],
    ['hasCloseElements', 'has_close_elements'],
    ['two_sum', 'two_sum'],
    ['parseHTTPResponse', 'parse_http_response'],
    ['Strongest_Extension', 'strongest_extension'],
    ['minSubArraySum', 'min_sub_array_sum'],
    ['sum2Numbers', 'sum2_numbers'],
    ['_privateThing', '_private_thing'],
    ['N', 'n'],
  ])('%s → %s', (input, output) => expect(toSnakeCase(input)).toBe(output));
});

describe('toCamelCase', () => {
  it.each([
    ['two_sum', 'twoSum'],
    ['has_close_elements', 'hasCloseElements'],
    ['twoSum', 'twoSum'],
    ['sum_2_numbers', 'sum2Numbers'],
    ['__init__', '__init'],
    ['x', 'x'],
  ])('%s → %s', (input, output) => expect(toCamelCase(input)).toBe(output));
});

it('normaliseName lower-cases and drops underscores', () => {
  expect(normaliseName('Strongest_Extension')).toBe('strongestextension');
  expect(normaliseName('twoSum')).toBe(normaliseName('two_sum'));
});

describe('nameMatches', () => {
  it('ranks exact, converted wanted, converted defined, then loose', () => {
    expect(nameMatches('two_sum', 'two_sum')).toBe(0);
    expect(nameMatches('twoSum', 'two_sum')).toBe(1);
    expect(nameMatches('digitSum', 'digit_sum')).toBe(1);
    expect(nameMatches('Strongest_Extension', 'strongest_extension')).toBe(2);
    expect(nameMatches('TwoSum', 'two_sum')).toBe(2);
    expect(nameMatches('TWOSUM', 'two_sum')).toBe(3);
    expect(nameMatches('two_sum', 'three_sum')).toBe(false);
  });

  it('works in both directions', () => {
    expect(nameMatches('two_sum', 'twoSum')).toBe(1);
    expect(nameMatches('has_close_elements', 'hasCloseElements')).toBe(1);
  });
});
