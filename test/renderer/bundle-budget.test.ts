// The first view's script budget: the built entry and every chunk it imports statically (what the browser loads
// before the servers list shows) stay under 800 kB, half of the single bundle the app once shipped. Every other
// view, dialog and server tab is a dynamic import. Reads vite's build manifest, so it needs `npm run build:renderer`.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BUDGET_BYTES = 800_000;
const outDir = fileURLToPath(new URL('../../dist/renderer/', import.meta.url));
const manifestPath = join(outDir, '.vite', 'manifest.json');

/** One entry of vite's manifest (the fields read here). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** The manifest keys of the entry and of every chunk it imports statically, transitively. */
function staticClosure(manifest: Record<string, ManifestChunk>, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string): void => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]?.imports ?? []) visit(next);
  };
  visit(entry);
  return [...seen];
}

describe('renderer bundle', () => {
  it('follows static imports only', () => {
    const manifest: Record<string, ManifestChunk> = {
      'main.tsx': { file: 'a.js', isEntry: true, imports: ['_b'], dynamicImports: ['View.tsx'] },
      _b: { file: 'b.js', imports: ['_c', 'main.tsx'] },
      _c: { file: 'c.js' },
      'View.tsx': { file: 'v.js', imports: ['_d'] },
      _d: { file: 'd.js' },
    };
    expect(staticClosure(manifest, 'main.tsx').sort()).toEqual(['_b', '_c', 'main.tsx']);
  });

  it("keeps the first view's JavaScript under the budget", () => {
    expect(existsSync(manifestPath), `${manifestPath} is missing: run npm run build:renderer first`).toBe(true);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
    const entries = Object.keys(manifest).filter((k) => manifest[k]?.isEntry === true);
    expect(entries).toHaveLength(1);
    const keys = staticClosure(manifest, entries[0] as string);
    const sizes = keys.map((k) => ({ file: manifest[k]?.file ?? k, bytes: statSync(join(outDir, manifest[k]?.file ?? k)).size }));
    const total = sizes.reduce((n, s) => n + s.bytes, 0);
    const listing = sizes
      .sort((a, b) => b.bytes - a.bytes)
      .map((s) => `${s.file} ${s.bytes}`)
      .join('\n');
    expect(total, `the first view loads ${total} bytes of JavaScript:\n${listing}`).toBeLessThanOrEqual(BUDGET_BYTES);
    // The views and dialogs stay out of the entry: each is loaded when it is first shown.
    expect(Object.values(manifest).filter((c) => c.isEntry === true)[0]?.dynamicImports?.length ?? 0).toBeGreaterThan(0);
  });
});
