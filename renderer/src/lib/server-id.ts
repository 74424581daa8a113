// Derives a server id from its display name: lowercase letters, digits, "-" and "_", starting with a letter or
// digit, at most 64 characters; unique among the ids already taken.

const MAX = 64;

/** The id a name suggests ("My GitHub (work)" → "my-github-work"), unique against `taken`. */
export function deriveServerId(name: string, taken: Iterable<string> = []): string {
  const base =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, '-')
      .replace(/-{2,}/g, '-')
      .replace(/^[-_]+|[-_]+$/g, '')
      .slice(0, MAX)
      .replace(/[-_]+$/, '') || 'server';
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX - suffix.length).replace(/[-_]+$/, '')}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
