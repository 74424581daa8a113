// docs/testing.md shows the example spec that `npm test` runs, unchanged.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('docs/testing.md', () => {
  it('includes docs/examples/first.spec.ts verbatim', () => {
    const doc = read('docs/testing.md');
    const block = /<!-- example:first\.spec\.ts -->\n```ts\n([\s\S]*?)```\n<!-- \/example -->/.exec(doc);
    expect(block, 'the example block is present').not.toBeNull();
    expect(block![1]).toBe(read('docs/examples/first.spec.ts'));
  });

  it('links the selectors and covers the Electron shell and CI', () => {
    const doc = read('docs/testing.md');
    expect(doc).toContain('](selectors.md)');
    for (const words of ['switchboardShell', 'ELECTRON_SKIP_BINARY_DOWNLOAD', 'dbus-run-session', 'gnome-keyring'])
      expect(doc).toContain(words);
  });
});
