// Occurrences are untrusted server data: this module checks one (`eventId`, `name`, `timestamp`, `data`), bounds its
// size and nesting, and turns the payload into inert JSON text: control, bidi and zero-width characters become
// visible `\uXXXX` escapes (still valid JSON), so nothing in a payload can restyle or reorder what is shown.
import { cutUtf8 } from '../calls/presentation.js';
import { isObject } from '../json.js';
import { sanitizeText, truncate } from '../text.js';
import { formatSize } from '../../../shared/format-size.js';
import { escapeAsJson } from '../../../shared/untrusted-text.js';

/** Occurrences whose `data` is larger than this on the wire are skipped with an error entry. */
export const MAX_EVENT_BYTES = 256 * 1024;
/** Nesting kept in a stored payload; deeper values are replaced by a marker. */
export const MAX_PAYLOAD_DEPTH = 32;
/** Bytes of pretty-printed payload the renderer gets per entry. */
export const DISPLAY_DATA_BYTES = 64 * 1024;
/** Longest event id accepted (bytes); longer ones cannot be de-duplicated safely and are refused. */
export const MAX_EVENT_ID_BYTES = 1024;
/** Characters kept of an event type name or a server message shown in the feed. */
export const LABEL_CHARS = 256;
/** Characters kept of an occurrence's raw timestamp. */
export const TIMESTAMP_CHARS = 64;

/** Marker that replaces a value nested deeper than MAX_PAYLOAD_DEPTH. */
export const DEPTH_MARKER = `[nested deeper than ${MAX_PAYLOAD_DEPTH} levels: not shown]`;

/** Escapes the characters a display must not render (shared/untrusted-text.ts) as `\uXXXX`; JSON stays valid. */
export function inertJson(text: string): string {
  return escapeAsJson(text);
}

/** A one-line label from server text: escapes, control and bidi characters removed, cut to `max` characters. */
export function label(text: string, max = LABEL_CHARS): string {
  return truncate(sanitizeText(text).replace(/\s+/g, ' ').trim(), max);
}

let lastName: [string, string] | undefined;
/** The label of an event type name; a burst of one type labels it once. */
function nameLabel(name: string): string {
  if (lastName?.[0] !== name) lastName = [name, label(name)];
  return lastName[1];
}

/** True when a value nests deeper than `max` (iterative: a hostile depth cannot exhaust the stack). */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (typeof v !== 'object' || v === null) continue;
    if (d >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/** A copy of `value` with everything below `max` levels replaced by the depth marker. */
function cutDepth(value: unknown, max: number, depth = 0): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= max) return DEPTH_MARKER;
  if (Array.isArray(value)) return value.map((v) => cutDepth(v, max, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = cutDepth(v, max, depth + 1);
  return out;
}

/** A payload as stored: compact inert JSON, its size on the wire, and whether nesting was cut. */
export interface StoredPayload {
  /** Compact JSON text, inert. */
  json: string;
  /** Bytes of the payload as sent (compact JSON, UTF-8). */
  bytes: number;
  /** True when values nested too deep were replaced. */
  depthCut: boolean;
}

/** Bounds a payload: refuses one over `maxBytes` (returns its size), cuts nesting below MAX_PAYLOAD_DEPTH. */
export function storePayload(data: unknown, maxBytes = MAX_EVENT_BYTES): StoredPayload | { tooLarge: number } {
  const value = data === undefined ? null : data;
  if (!deeperThan(value, MAX_PAYLOAD_DEPTH)) {
    const json = JSON.stringify(value);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > maxBytes) return { tooLarge: bytes };
    return { json: inertJson(json), bytes, depthCut: false };
  }
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(value), 'utf8');
  } catch {
    // Too deep even to serialize: far over any budget.
    return { tooLarge: Number.MAX_SAFE_INTEGER };
  }
  if (bytes > maxBytes) return { tooLarge: bytes };
  return { json: inertJson(JSON.stringify(cutDepth(value, MAX_PAYLOAD_DEPTH))), bytes, depthCut: true };
}

/** The renderer's view of a stored payload: pretty-printed, inert, cut to `maxBytes`. */
export function displayPayload(json: string, maxBytes = DISPLAY_DATA_BYTES): { text: string; truncated: boolean } {
  let pretty: string;
  try {
    pretty = inertJson(JSON.stringify(JSON.parse(json), null, 2));
  } catch {
    pretty = json;
  }
  const cut = cutUtf8(pretty, maxBytes);
  return cut.cut ? { text: `${cut.text}\n… (cut: ${cut.bytes} bytes in all)`, truncated: true } : { text: pretty, truncated: false };
}

/** An occurrence that passed the checks. */
export interface CheckedOccurrence {
  /** The server's id for it (raw: de-duplication compares it exactly). */
  eventId: string;
  /** Event type name (label). */
  name: string;
  /** The timestamp as sent (label), when there was one. */
  timestamp?: string;
  /** The timestamp parsed, or the receive time when missing or invalid. */
  time: number;
  /** The bounded payload. */
  payload: StoredPayload;
  /** Position after it (push and webhook carry one per occurrence); undefined when absent. */
  cursor?: string | null;
}

/** Why an occurrence was refused, with what could be read of it for the error entry. */
export interface RefusedOccurrence {
  /** Plain-words reason. */
  reason: string;
  /** Its event id, when readable (label). */
  eventId?: string;
  /** Its event id verbatim, when usable for de-duplication (so a replay does not repeat the error entry). */
  rawEventId?: string;
  /** Its position, when present: a skipped occurrence still moves the subscription past it. */
  cursor?: string | null;
}

/** Checks one occurrence from the wire; `fallbackName` is the subscription's type (the name is required but lenient). */
export function checkOccurrence(raw: unknown, fallbackName: string, now: number): CheckedOccurrence | RefusedOccurrence {
  if (!isObject(raw)) return { reason: 'An occurrence was not an object and was skipped' };
  const rawCursor = raw['cursor'];
  const cursor = typeof rawCursor === 'string' || rawCursor === null ? rawCursor : undefined;
  const withCursor = cursor === undefined ? {} : { cursor };
  const id = raw['eventId'];
  if (typeof id !== 'string' || id.length === 0) return { reason: 'An occurrence had no eventId and was skipped', ...withCursor };
  if (Buffer.byteLength(id, 'utf8') > MAX_EVENT_ID_BYTES) {
    return { reason: `An occurrence's eventId is over ${MAX_EVENT_ID_BYTES} bytes; it was skipped`, eventId: label(id, 80), ...withCursor };
  }
  const name = nameLabel(typeof raw['name'] === 'string' && raw['name'].length > 0 ? raw['name'] : fallbackName);
  const payload = storePayload(raw['data']);
  if ('tooLarge' in payload) {
    const size = payload.tooLarge === Number.MAX_SAFE_INTEGER ? 'too deeply nested to measure' : formatSize(payload.tooLarge);
    return {
      reason: `Event ${label(id, 80)} of ${name} was skipped: its data is ${size}, over the ${formatSize(MAX_EVENT_BYTES)} limit`,
      eventId: label(id, 80),
      rawEventId: id,
      ...withCursor,
    };
  }
  const ts = raw['timestamp'];
  const parsed = typeof ts === 'string' ? Date.parse(ts) : Number.NaN;
  return {
    eventId: id,
    name,
    ...(typeof ts === 'string' ? { timestamp: label(ts, TIMESTAMP_CHARS) } : {}),
    time: Number.isFinite(parsed) ? parsed : now,
    payload,
    ...withCursor,
  };
}

/** True for a refused occurrence. */
export function isRefused(o: CheckedOccurrence | RefusedOccurrence): o is RefusedOccurrence {
  return 'reason' in o;
}
