// Narrowing helpers for JSON received from servers, files and the renderer.

/** A JSON object as received (values unchecked). */
export type JsonObject = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
