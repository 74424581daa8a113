// Display helpers for server-provided catalog text, shared by the core and the renderer (no Node APIs).
import { braceEscape, UNSAFE_IN_TEXT } from '../untrusted-text.js';

/** Replaces control, bidi and invisible characters (UNSAFE_IN_TEXT) by visible `\u{..}` escapes, so a name stays faithful but inert. */
export function escapeUnsafe(text: string): string {
  return UNSAFE_IN_TEXT.replaceIn(text, braceEscape);
}

/** Pretty-prints a JSON value for display with unsafe characters escaped. */
export function prettyJson(value: unknown): string {
  if (value === undefined) return '';
  return escapeUnsafe(JSON.stringify(value, null, 2));
}
