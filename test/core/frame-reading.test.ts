import { describe, expect, it } from 'vitest';
import { textsEqual, wireFrame } from '../../src/core/execute/frame-reading.js';
import { nativeJson } from '../../src/core/execute/native-json.js';
import { readFrame } from '../../src/core/sandbox/frame-parser.js';
import { valuesEqual } from '../../src/core/compare.js';
import { exactJson, parseExactJson } from '../../src/web/json.js';

/** What the lossless reading alone makes of a frame's value (wireFrame reads natively when that is the same). */
function losslessValue(json: string): string | null | 'no frame' {
  const frame = readFrame(json);
  if (!frame) return 'no frame';
  return frame.value === undefined || frame.value === null ? null : exactJson(frame.value);
}

// values whose number texts a double changes, repeated keys, deep nesting, escapes, and texts with "." "e" ":" inside strings
const VALUES = [
  '1',
  '0',
  '-5',
  '123456789012345',
  '1234567890123456',
  '9007199254740993',
  '1.0',
  '1.5',
  '-0',
  '-0.0',
  '1e3',
  '1E3',
  '1e400',
  'true',
  'false',
  'null',
  '"a\\u00e9\\"x\\\\"',
  '"\\ud800"',
  '[ 1 , 2 ]',
  '[1, 2.50]',
  '[1,2,{"a":true,"b":[false,null,"e.E:"]}]',
  '{"ms":1.50}',
  '[{"ms":2.0}]',
  '{"ms":"1.50"}',
  '["ms", 1.0]',
  '{"a":1,"a":1}',
  '{"a":1,"a":2}',
  '{"__proto__":{"x":1}}',
  '{"1":1,"b":2,"0":3}',
  '{"k:":"v:","e":"."}',
  `[${'['.repeat(300)}${']'.repeat(300)}]`,
  '{"a": tru}',
];

describe('reading a large frame natively', () => {
  it.each(VALUES)('gives what the lossless reading gives: %s', (value) => {
    for (const json of [
      `{"t":"result","i":1,"ms":2,"value":${value},"stdout":"s"}`,
      // as the harnesses write it: ms is a fraction
      `{"t":"result","i":1,"value":${value},"error":null,"ms":0.123456,"stdout":"ms"}`,
      `{"t":"result","i":1,"value":${value},"error":null,"ms":1e-05,"stdout":""}`,
      `{"value":${value},"t":"result","i":1,"ms":2,"error":{"type":"E","message":"m.","line":3,"column":4}}`,
    ]) {
      const wire = wireFrame(json);
      expect(wire ? wire.value : 'no frame', json).toEqual(losslessValue(json));
    }
  });

  it('reads the other fields as the lossless reading does', () => {
    const json = '{"t":"result","i":7,"ms":12,"value":"x","stdout":"out","error":{"type":"ValueError","message":"no","line":3,"column":1}}';
    expect(wireFrame(json)).toEqual({
      t: 'result',
      i: 7,
      ms: 12,
      value: '"x"',
      stdout: 'out',
      error: { type: 'ValueError', message: 'no', line: 3, column: 1 },
    });
  });

  it("reads the harnesses' frames of strings and integers natively, and leaves other numbers to the lossless parser", () => {
    const frame = (value: string) => `{"t":"result","i":3,"value":${value},"error":null,"ms":12.75,"stdout":"1.5e3"}`;
    expect(nativeJson(frame(JSON.stringify('a'.repeat(100_000))), { frame: true })).toBeDefined();
    expect(nativeJson(frame(`[${Array.from({ length: 1000 }, (_, i) => i).join(', ')}, true, false]`), { frame: true })).toBeDefined();
    for (const value of ['[1, 2.0]', '[1e3]', '-0', '12345678901234567', '{"a":1,"a":2}', '[{"ms":1}]']) {
      expect(nativeJson(frame(value), { frame: true }), value).toBeUndefined();
    }
  });

  it.each(VALUES)('compares %s with every other value as the lossless reading does', (expected) => {
    for (const actual of [...VALUES, '1.00', '[1,2]', '[ 1, 2.0 ]', '{"b":2,"1":1,"0":3}']) {
      let lossless: boolean;
      try {
        lossless = valuesEqual(parseExactJson(expected), parseExactJson(actual));
      } catch {
        lossless = false;
      }
      expect(textsEqual(expected, actual), `${expected} against ${actual}`).toBe(lossless);
    }
  });
});
