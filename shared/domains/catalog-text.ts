// Display helpers for server-provided catalog text, shared by the core and the renderer (no Node APIs).

// C0/C1 controls except tab and newline, bidi overrides/isolates, zero-width characters and the BOM.
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g;

/** Replaces control, bidi and zero-width characters by visible `\u{..}` escapes, so a name stays faithful but inert. */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

/** Pretty-prints a JSON value for display with unsafe characters escaped. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  return escapeUnsafe(JSON.stringify(value, null, 2));
}
