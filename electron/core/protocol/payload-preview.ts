// A bounded copy of a message for display: every string longer than `keepChars` is cut to that length and every
// array to `keepItems` items, so redacting, printing and sanitising the copy costs what the shown part costs, not
// what the message weighs (an 8 MiB result is previewed without walking its 8 MiB). The walk is iterative and
// shares nothing with the original (each object is copied once, so shared parts and cycles are walked once).

/** Items kept per array in a preview. */
export const PREVIEW_ITEMS = 1000;

/** What was left out of a preview. */
export interface Preview {
  value: unknown;
  /** Whether any string or array was cut. */
  cut: boolean;
}

/**
 * Copies `value` with strings cut to `keepChars` characters and arrays to `keepItems` items. Callers that redact
 * the copy pass `keepChars` beyond what they show by the longest secret, so a secret cut at the edge is never shown.
 */
export function previewValue(value: unknown, keepChars: number, keepItems = PREVIEW_ITEMS): Preview {
  let cut = false;
  // Original object → its copy: each object is copied once, so shared parts (and cycles) are walked once.
  const copies = new Map<object, Record<string, unknown> | unknown[]>();
  const pending: (Record<string, unknown> | unknown[])[] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (v.length <= keepChars) return v;
      cut = true;
      return v.slice(0, keepChars);
    }
    if (v === null || typeof v !== 'object') return v;
    const known = copies.get(v);
    if (known) return known;
    let made: Record<string, unknown> | unknown[];
    if (Array.isArray(v)) {
      if (v.length > keepItems) cut = true;
      made = v.slice(0, keepItems);
    } else {
      made = { ...(v as Record<string, unknown>) };
    }
    copies.set(v, made);
    pending.push(made);
    return made;
  };
  const root = copy(value);
  while (pending.length > 0) {
    const made = pending.pop()!;
    if (Array.isArray(made)) for (let i = 0; i < made.length; i++) made[i] = copy(made[i]);
    else for (const key of Object.keys(made)) made[key] = copy(made[key]);
  }
  return { value: root, cut };
}
