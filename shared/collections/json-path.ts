// The small JSON path subset collections use: `$`, `.name`, `['name']` and `[index]`. Anything else is refused rather
// than guessed at (no wildcards, filters or recursive descent).

/** The segments of a path, or null when it is not in the subset. */
export function parsePath(path: string): (string | number)[] | null {
  if (!path.startsWith('$')) return null;
  const out: (string | number)[] = [];
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let i = 1;
  while (i < path.length) {
    re.lastIndex = i;
    const m = re.exec(path);
    if (!m) return null;
    out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (m[3] ?? m[4] ?? '').replace(/\\(.)/g, '$1')));
    i = re.lastIndex;
  }
  return out;
}

/** The value at a path, or `{ found: false }`. */
export function valueAt(root: unknown, segments: (string | number)[]): { found: true; value: unknown } | { found: false } {
  let cur: unknown = root;
  for (const seg of segments) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || seg >= cur.length) return { found: false };
      cur = cur[seg] as unknown;
    } else {
      if (typeof cur !== 'object' || cur === null || Array.isArray(cur) || !Object.prototype.hasOwnProperty.call(cur, seg))
        return { found: false };
      cur = (cur as Record<string, unknown>)[seg];
    }
  }
  return { found: true, value: cur };
}
