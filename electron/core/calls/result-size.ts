// The size of a result as UTF-8 JSON, measured without producing the JSON text: an 8 MiB result is not copied into
// a second 8 MiB string on the main thread just to be counted, and a deeply nested one cannot overflow the stack
// (the walk is iterative).

const ESCAPED = /["\\\u0000-\u001f]/g;

/** Strings longer than this are counted without their escapes (see jsonByteLength). */
export const LONG_STRING = 64 * 1024;

function stringBytes(s: string): number {
  let extra = 0;
  if (s.length <= LONG_STRING && s.search(ESCAPED) !== -1) {
    for (const m of s.matchAll(ESCAPED)) {
      const c = m[0];
      // \" \\ \b \f \n \r \t take two bytes; other control characters take six (\u00XX).
      extra += c === '"' || c === '\\' || c === '\b' || c === '\f' || c === '\n' || c === '\r' || c === '\t' ? 1 : 5;
    }
  }
  return Buffer.byteLength(s, 'utf8') + 2 + extra;
}

function scalarBytes(v: unknown): number | undefined {
  switch (typeof v) {
    case 'string':
      return stringBytes(v);
    case 'number':
      return Number.isFinite(v) ? String(v).length : 4;
    case 'boolean':
      return v ? 4 : 5;
    case 'bigint':
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    default:
      return v === null ? 4 : undefined;
  }
}

/**
 * Bytes of `JSON.stringify(value)` encoded as UTF-8 (lone surrogates aside), or 0 for a value JSON leaves out. The
 * escapes inside strings longer than LONG_STRING are not counted: finding them costs a regular-expression pass over
 * the whole string on the main thread (tens of milliseconds for 8 MiB) for a figure used for display and memory
 * accounting, where the UTF-8 length is close enough.
 */
export function jsonByteLength(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const v = stack.pop();
    const scalar = scalarBytes(v);
    if (scalar !== undefined) {
      total += scalar;
      continue;
    }
    if (typeof v !== 'object' || v === null || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) {
      total += 2 + Math.max(0, v.length - 1);
      for (const item of v) {
        // JSON writes null for what it cannot represent inside an array.
        if (scalarBytes(item) === undefined && (typeof item !== 'object' || item === null)) total += 4;
        else stack.push(item);
      }
      continue;
    }
    const entries = Object.entries(v).filter(([, x]) => scalarBytes(x) !== undefined || (typeof x === 'object' && x !== null));
    total += 2 + Math.max(0, entries.length - 1);
    for (const [k, x] of entries) {
      total += stringBytes(k) + 1;
      stack.push(x);
    }
  }
  return total;
}
