// Helpers for server-provided (untrusted) text.

// C0/C1 controls except tab and newline, plus bidi overrides/isolates and zero-width joiners used for spoofing.
const UNSAFE_CHARS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;
// ANSI escape sequences (CSI and OSC).
const ANSI = /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]*(?:\u0007|\u001B\\)?)/g;

/** Strips ANSI escapes, control characters and bidi overrides so untrusted text is inert when shown. */
export function sanitizeText(text: string): string {
  return text.replace(ANSI, '').replace(UNSAFE_CHARS, '');
}

/** Cuts a string to at most `max` UTF-16 units, marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

// Everything that could move a terminal's cursor, ring its bell, start an escape sequence or reorder text.
const ESCAPE_CHARS = /[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/**
 * Makes untrusted text safe for one line of a log file or a terminal, keeping it readable: every control, bidi and
 * line-breaking character is written as a visible escape (`\x1b`, `\n`, `\u202e`), so ESC/OSC sequences are inert.
 */
export function escapeControl(text: string): string {
  return text.replace(ESCAPE_CHARS, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
