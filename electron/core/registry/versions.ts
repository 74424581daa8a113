// Comparing entry versions: semantic versions by their numbers and pre-release tags; anything else only by equality.

interface Parsed {
  core: number[];
  pre: string[];
}

function parse(version: string): Parsed | undefined {
  const m = /^v?(\d+(?:\.\d+){0,3})(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (m === null) return undefined;
  return { core: (m[1] ?? '').split('.').map(Number), pre: m[2] !== undefined ? m[2].split('.') : [] };
}

/** Orders two versions: negative when a < b, positive when a > b, 0 when equal; undefined when they cannot be ordered. */
export function compareVersions(a: string, b: string): number | undefined {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (pa === undefined || pb === undefined) return undefined;
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length); i++) {
    const d = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (d !== 0) return d;
  }
  // A release sorts after its pre-releases.
  if (pa.pre.length === 0 || pb.pre.length === 0) return pb.pre.length - pa.pre.length;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : undefined;
    const ny = /^\d+$/.test(y) ? Number(y) : undefined;
    if (nx !== undefined && ny !== undefined) {
      if (nx !== ny) return nx - ny;
    } else if (nx !== undefined) return -1;
    else if (ny !== undefined) return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Whether `latest` is a newer version than `installed` (a different version that cannot be ordered counts as newer). */
export function isNewer(latest: string, installed: string): boolean {
  const c = compareVersions(latest, installed);
  return c === undefined ? latest !== installed : c > 0;
}
