// One stdout line of a stdio server to a JSON value: nesting deeper than the wire limit is cut before parsing
// (deep JSON parses slowly and breaks recursion later), then the bytes are decoded and parsed. Runs on the main
// thread for ordinary lines and in the line-parse worker for large ones: the same function either way.
import { cutJsonDepth } from '../ingress/depth-text.js';
import { depthMarker, WIRE_MAX_DEPTH } from '../ingress/limits.js';

/** A line that is not JSON is quoted in the log up to this many characters. */
export const SKIPPED_LINE_QUOTE = 200;

/** What a line turned out to be. */
export type ParsedLine =
  /** JSON: the value, whether deep parts were cut, the line's size, and the start of its text (quoted when it is no JSON-RPC message). */
  | { kind: 'json'; value: unknown; cut: boolean; bytes: number; quote: string }
  /** Whitespace only: nothing to deliver. */
  | { kind: 'blank' }
  /** Not JSON: the start of its text, for the log. */
  | { kind: 'not_json'; quote: string };

/** Parses one line (without its newline; a trailing CR is dropped). */
export function parseLine(bytes: Uint8Array): ParsedLine {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, end);
  const bounded = cutJsonDepth(view, WIRE_MAX_DEPTH, depthMarker(WIRE_MAX_DEPTH));
  const text = bounded.bytes.toString('utf8');
  if (text.trim() === '') return { kind: 'blank' };
  const quote = text.length > SKIPPED_LINE_QUOTE ? `${text.slice(0, SKIPPED_LINE_QUOTE)}…` : text;
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown, cut: bounded.cut, bytes: end, quote };
  } catch {
    return { kind: 'not_json', quote };
  }
}
