// Helpers for server-provided (untrusted) text; which characters are unsafe is decided in shared/untrusted-text.ts.
import { stripUnsafe, UNSAFE_IN_LINE } from '../../shared/untrusted-text.js';

/** Strips terminal escape sequences and every control, bidi and invisible character so untrusted text is inert when shown. */
export function sanitizeText(text: string): string {
  return stripUnsafe(text);
}

/** Cuts a string to at most `max` UTF-16 units, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/**
 * Makes untrusted text safe for one line of a log file or a terminal, keeping it readable: every control, bidi,
 * invisible and line-breaking character (UNSAFE_IN_LINE) is written as a visible escape (`\x1b`, `\n`, `\u202e`), so ESC/OSC
 * sequences are inert and one line stays one line. Everything from server data written to stdout/stderr goes here.
 */
export function escapeControl(text: string): string {
  return UNSAFE_IN_LINE.replaceIn(text, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
