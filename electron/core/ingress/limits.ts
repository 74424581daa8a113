// Nesting bounds for server data (one place, so every ingress point and every view agrees).

/**
 * Deepest nesting kept in anything a server sends, applied to every message as it leaves the transport: deeper
 * parts are replaced by a marker. Far below where JSON.stringify or structured clone run out of stack (about
 * 2,000 levels for structured clone on Node 20), so everything the core holds stays serialisable.
 */
export const WIRE_MAX_DEPTH = 512;

/** Deepest nesting of server data the renderer is given (results, schemas, elicitation forms); the rest is cut with a notice. */
export const VIEW_MAX_DEPTH = 64;

/** The marker that replaces a part of server data nested deeper than `limit` levels. */
export function depthMarker(limit: number): string {
  return `[removed: nested deeper than ${limit} levels]`;
}

/** The notice shown beside a view that was cut at `limit` levels. */
export function depthNotice(what: string, limit: number): string {
  return `${what} is nested deeper than ${limit} levels; the deeper parts are not shown.`;
}
