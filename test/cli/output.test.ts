// What reaches a terminal: escape sequences and bidi controls from server text are written as visible escapes.
import { describe, expect, it } from 'vitest';
import { escapeLines } from '../../electron/cli/output.js';

describe('escapeLines', () => {
  it('escapes ESC, BEL and bidi characters and keeps line breaks', () => {
    expect(escapeLines('a\u001b]0;owned\u0007b\nc\u202ed')).toBe('a\\x1b]0;owned\\x07b\nc\\u202ed');
  });
});
