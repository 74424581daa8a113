// Issue 22, item 13: every data file the core reads, found corrupt at start, is moved aside and the person is told
// by a notice naming where the old file went (a corrupt app-grants.json used to be moved aside in silence).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

const dirs: string[] = [];
const hosts: HostHarness[] = [];
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.host.shutdown();
  dirs.splice(0).forEach(cleanup);
});

// The files a fresh start reads, and how to make the core read the lazily loaded ones.
const FILES: { file: string; touch?: (h: HostHarness) => void }[] = [
  { file: 'app-grants.json' },
  { file: 'gateway.json' },
  { file: 'client-features.json' },
  { file: 'tool-pins.json' },
  { file: 'call-history.json', touch: (h) => void h.host.calls.history.search({}) },
];

describe('a corrupt data file at start', () => {
  for (const { file, touch } of FILES) {
    it(`${file}: moved aside, with a notice naming the copy`, () => {
      const dir = tempDir('sb-corrupt-');
      dirs.push(dir);
      writeFileSync(join(dir, file), '{"version":1, this is not JSON');
      const h = makeHost(dir);
      hosts.push(h);
      touch?.(h);
      const base = file.replace(/\.json$/, '');
      const aside = readdirSync(dir).filter((f) => f.startsWith(`${base}.corrupt-`));
      expect(aside).toHaveLength(1);
      const notices = h.host.info().notices;
      expect(notices.some((n) => n.message.includes(aside[0]!))).toBe(true);
    });
  }
});

describe('G3: an unknown top-level settings key', () => {
  it('is kept aside in a byte-for-byte backup, not silently dropped, and the person is told through the core', () => {
    const dir = tempDir('sb-unknown-key-');
    dirs.push(dir);
    const original = JSON.stringify({ schemaVersion: 1, servers: [], futureFeature: { keep: 'me' } });
    writeFileSync(join(dir, 'config.json'), original);
    const h = makeHost(dir);
    hosts.push(h);
    const aside = readdirSync(dir).filter(
      (f) => f.startsWith('config.corrupt-') || f.startsWith('config.backup-') || /^config\..+\.json$/.test(f),
    );
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(original);
    const notice = h.host.info().notices.find((n) => n.id === 'settings-partial');
    expect(notice?.message).toContain('unknown setting "futureFeature"');
    expect(notice?.message).toContain(aside[0]!);
  });
});
