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

// Everything a terminal could act on or that could disguise text there: C0/C1 controls (ESC starts CSI/OSC
// sequences), DEL, line and paragraph separators, bidi embeddings/overrides/isolates and marks, invisible characters.
const ESCAPE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * Makes untrusted text safe for one line of a log file or a terminal, keeping it readable: every control, bidi,
 * invisible and line-breaking character is written as a visible escape (`\x1b`, `\n`, `\u202e`), so ESC/OSC
 * sequences are inert and one line stays one line. Everything from server data written to stdout/stderr goes here.
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
