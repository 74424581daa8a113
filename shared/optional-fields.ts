// With exactOptionalPropertyTypes an optional field is either set or absent, never `undefined`. Two places need
// more than that: a patch, where `undefined` means "clear this field", and a zod parse, which types optional fields
// as possibly undefined although JSON input never holds one.

/** A change to some of an object's fields, in which a field given `undefined` is cleared. */
export type Patch<T> = { [K in keyof T]?: T[K] | undefined };

/**
 * A validator's output as JSON input makes it: zod types an optional field `?: T | undefined`, but JSON cannot carry
 * `undefined`, so what was parsed from JSON text holds each optional field either set or absent.
 */
export type FromJson<T> = T extends readonly (infer U)[]
  ? FromJson<U>[]
  : T extends object
    ? { [K in keyof T as object extends Pick<T, K> ? K : never]?: FromJson<Exclude<T[K], undefined>> } & {
        [K in keyof T as object extends Pick<T, K> ? never : K]: FromJson<T[K]>;
      }
    : T;

/** Validates a value that came from JSON text, typed as JSON makes it (see FromJson). */
export function parseJsonValue<S extends { parse(input: unknown): unknown }>(schema: S, raw: unknown): FromJson<ReturnType<S['parse']>> {
  return schema.parse(raw) as FromJson<ReturnType<S['parse']>>;
}

/** `base` with `patch` applied: fields the patch sets replace the base's, fields it gives `undefined` are removed. */
export function applyPatch<T extends object>(base: T, patch: Patch<T>): T {
  const next = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as T;
}

/** The fields of `fields` that are set, for passing props or options where an absent one may not be `undefined`. */
export function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}
