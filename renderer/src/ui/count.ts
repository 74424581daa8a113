// Counts in words: "1 tool", "3 tools", "No tools".

/** `n` with the singular or plural noun; `zero` replaces "0 <plural>" when given. */
export function countLabel(n: number, singular: string, plural = `${singular}s`, zero?: string): string {
  if (n === 0 && zero !== undefined) return zero;
  return `${n.toLocaleString('en')} ${n === 1 ? singular : plural}`;
}
