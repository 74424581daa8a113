// Composition of the core: a data file that had to be moved aside at start reaches the person as a notice (not
// only the log), here the registry's sources and installs files; the data folder's lock is released last but the log.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bootstrap } from '../electron/bootstrap.js';
import { createLogger } from '../electron/core/logging/logger.js';
import { ORIGINS_FILE } from '../electron/core/registry/install-origins.js';
import { SOURCES_FILE } from '../electron/core/registry/registry-sources.js';
import { MemoryCredentialStore } from '../electron/platform/memory-credential-store.js';
import { createSettingsStore } from '../electron/platform/settings-store.js';
import { cleanup, tempDir } from './shared/support/harness.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(cleanup));

describe('bootstrap', () => {
  it('releases the data folder’s lock at shutdown, just before the log closes', async () => {
    const d = tempDir('sb-boot-');
    dirs.push(d);
    let released = 0;
    const { host } = await bootstrap({
      mode: 'headless',
      version: '0.0.0-test',
      settingsStore: createSettingsStore(d),
      credentials: new MemoryCredentialStore(),
      logger: createLogger({ dataDir: d }),
      dataLock: { release: () => (released += 1) },
    });
    const report = await host.shutdown();
    expect(released).toBe(1);
    expect(report.steps.map((s) => s.name).slice(-2)).toEqual(['release the data folder', 'close the log']);
  });

  it('raises a notice for each registry file moved aside as corrupt', async () => {
    const d = tempDir('sb-boot-');
    dirs.push(d);
    writeFileSync(join(d, SOURCES_FILE), '[not json');
    writeFileSync(join(d, ORIGINS_FILE), '{"installs": 7');
    const { host } = await bootstrap({
      mode: 'headless',
      version: '0.0.0-test',
      settingsStore: createSettingsStore(d),
      credentials: new MemoryCredentialStore(),
      logger: createLogger({ dataDir: d }),
    });
    try {
      const notices = host.info().notices.filter((n) => n.id.startsWith('registry-'));
      expect(notices.map((n) => n.id).sort()).toEqual(['registry-installs-corrupt', 'registry-sources-corrupt']);
      for (const n of notices) expect(n.message).toMatch(/was moved to .*corrupt/);
    } finally {
      await host.shutdown();
    }
  });
});
