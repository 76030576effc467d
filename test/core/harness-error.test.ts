import { describe, expect, it } from 'vitest';
import { formatHarnessError } from '../../src/core/execute/harness-error.js';

describe('formatHarnessError', () => {
  it('keeps a forged type and message on one line, whatever line breaks they carry', () => {
    const text = formatHarnessError({ type: 'A\nB\r\n', message: 'm\rn\u2028o\u0085p\u2029q\vr', line: 3 });
    expect(text).toBe('A B: m n o p q r (line 3)');
    expect(text).not.toMatch(/[\n\r\v\f\u0085\u2028\u2029]/);
  });

  it('falls back to Error for a type that is only blanks, and caps a long type', () => {
    expect(formatHarnessError({ type: ' \n ', message: 'x' })).toBe('Error: x');
    expect(formatHarnessError({ type: 'T'.repeat(500) })).toBe('T'.repeat(200));
  });
});
