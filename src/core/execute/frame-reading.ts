import { valuesEqual } from '../compare.js';
import { RawJson } from '../raw-json.js';
import { readFrame } from '../sandbox/frame-parser.js';
import { nativeJson } from './native-json.js';
import { exactJson, isJsonObject, parseExactJson } from '../../web/json.js';

/**
 * A frame as the JSON worker hands it back: only what the host reads (docs/harness-protocol.md,
 * section 3), numbers as plain numbers and the value as JSON text, so that it survives the copy to
 * the event loop's thread (a LosslessNumber does not) and costs nothing to rebuild there.
 */
export interface WireFrame {
  t: unknown;
  i: number;
  ms: number;
  error: { type?: string; message?: string; line: number; column: number } | null;
  stdout?: string;
  /** The value's JSON text, exact; null when the frame has none (or null). */
  value: string | null;
}

/**
 * A value text up to this size is parsed on the event loop after all (under a millisecond, and few
 * objects); a longer one stays text, compared in the worker and copied into the response as it is.
 */
const INLINE_VALUE_CHARS = 8 * 1024;

/** Parses and checks a frame's JSON (the work done off the event loop); null when it is no frame. */
export function wireFrame(json: string): WireFrame | null {
  const native = nativeJson(json, { frame: true });
  const frame = native ? (native.value as Record<string, unknown>) : readFrame(json);
  if (!frame) return null;
  let error: WireFrame['error'] = null;
  if (frame.error) {
    // a truthy error that is no object reads as a bare "Error", as formatHarnessError reads it
    const e = isJsonObject(frame.error) ? frame.error : {};
    error = {
      ...(typeof e.type === 'string' ? { type: e.type } : {}),
      ...(typeof e.message === 'string' ? { message: e.message } : {}),
      line: Number(e.line),
      column: Number(e.column),
    };
  }
  return {
    t: typeof frame.t === 'string' ? frame.t : null,
    i: Number(frame.i),
    ms: Number(frame.ms),
    error,
    ...(typeof frame.stdout === 'string' ? { stdout: frame.stdout } : {}),
    // a natively parsed value holds no lossless number: JSON.stringify writes what exactJson would, faster
    value: frame.value === undefined || frame.value === null ? null : native ? JSON.stringify(frame.value) : exactJson(frame.value),
  };
}

/** The frame as the job reads it, on the event loop's thread: a large value stays text (RawJson). */
export function fromWire(wire: WireFrame): Record<string, unknown> {
  const { value, ...rest } = wire;
  if (value === null) return { ...rest, value: null };
  return { ...rest, value: value.length <= INLINE_VALUE_CHARS ? parseExactJson(value) : new RawJson(value) };
}

/** Whether two JSON texts hold equal values (src/core/compare.ts); malformed text equals nothing. */
export function textsEqual(expected: string, actual: string): boolean {
  const expectedNative = nativeJson(expected);
  const actualNative = expectedNative && nativeJson(actual);
  if (expectedNative && actualNative) return valuesEqual(expectedNative.value, actualNative.value);
  try {
    return valuesEqual(parseExactJson(expected), parseExactJson(actual));
  } catch {
    return false;
  }
}
