// The closed error-code set: each code says what it means, and only its codes pass for error data at a boundary.
import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CODES, ERROR_CODE_LIST, isAppErrorData, isErrorCode } from '../../shared/errors.js';

describe('error codes', () => {
  it('each code is snake_case and has a one-line description', () => {
    expect(ERROR_CODE_LIST.length).toBeGreaterThan(0);
    for (const code of ERROR_CODE_LIST) {
      expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
      const doc = ERROR_CODES[code];
      expect(doc.trim().length, code).toBeGreaterThan(10);
      expect(doc, code).not.toMatch(/\n/);
    }
  });

  it('isErrorCode knows exactly the listed codes, nothing inherited', () => {
    for (const code of ERROR_CODE_LIST) expect(isErrorCode(code)).toBe(true);
    for (const other of ['nope', '', 'constructor', '__proto__', 'toString', 42, undefined]) expect(isErrorCode(other)).toBe(false);
  });

  it('isAppErrorData accepts data with a listed code only', () => {
    expect(isAppErrorData(new AppError('not_found', 'gone').toData())).toBe(true);
    expect(isAppErrorData({ code: 'tool_error', message: 'x' })).toBe(true);
    expect(isAppErrorData({ code: 'made_up', message: 'x' })).toBe(false);
    expect(isAppErrorData({ code: 'internal' })).toBe(false);
    expect(isAppErrorData(null)).toBe(false);
  });
});
