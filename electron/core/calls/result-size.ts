// The size of a result as UTF-8 JSON, measured without producing the JSON text: an 8 MiB result is not copied into
// a second 8 MiB string on the main thread just to be counted, and a deeply nested one cannot overflow the stack
// (the walk is iterative).

const ESCAPED = /["\\\u0000-\u001f]/g;

/** Strings longer than this are counted without their escapes (see jsonByteLength). */
export const LONG_STRING = 64 * 1024;

/** Strings up to this length are counted in one pass here; longer ones natively (a JS loop over 1 MiB is slow). */
const SHORT_STRING = 128;

function stringBytes(s: string): number {
  if (s.length <= SHORT_STRING) return shortStringBytes(s);
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

/** The same figure for a short string, counted character by character (most keys and values of a message). */
function shortStringBytes(s: string): number {
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) n += c === 0x22 || c === 0x5c ? 2 : 1;
    else if (c < 0x20) n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    else if (c < 0x800) n += c === 0x7f ? 1 : 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is one 4-byte character; a lone surrogate is written as U+FFFD (3 bytes), as Buffer does.
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
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
        const scalar = scalarBytes(item);
        if (scalar !== undefined) total += scalar;
        else if (typeof item === 'object' && item !== null) stack.push(item);
        // JSON writes null for what it cannot represent inside an array.
        else total += 4;
      }
      continue;
    }
    // One pass over the keys: a member JSON leaves out (undefined, a function) costs nothing, not even its comma.
    let members = 0;
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      const scalar = scalarBytes(x);
      if (scalar !== undefined) total += stringBytes(k) + 1 + scalar;
      else if (typeof x === 'object' && x !== null) {
        total += stringBytes(k) + 1;
        stack.push(x);
      } else continue;
      members++;
    }
    total += 2 + Math.max(0, members - 1);
  }
  return total;
}
