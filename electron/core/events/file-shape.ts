// Checks the shape of an events file as loaded, failing with one short plain-words reason (the first problem),
// which the file helper puts in the notice when it moves the file aside.
import type * as z from 'zod';
import type { FromJson } from '../../../shared/optional-fields.js';

/** Parses `raw` with `schema`, or throws an Error naming the first problem. */
export function parseFileShape<S extends z.ZodType>(schema: S, raw: unknown): FromJson<z.infer<S>> {
  const parsed = schema.safeParse(raw);
  // JSON text never holds `undefined`, so optional fields are set or absent (see FromJson).
  if (parsed.success) return parsed.data as FromJson<z.infer<S>>;
  const first = parsed.error.issues[0];
  throw new Error(
    `the file does not have the expected shape (${first ? `${first.path.join('.') || 'file'}: ${first.message}` : 'invalid'})`,
  );
}
