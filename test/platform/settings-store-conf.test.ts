// The settings store writes through conf (the base of electron-store, which the desktop app passes in): the file
// format stays the one people already have (indented JSON), the store given by the shell is the one that reads and
// writes, and a corrupt file is never emptied by conf.
import Conf, { type Options } from 'conf';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../shared/config.js';
import { createSettingsStore, type SettingsDocument } from '../../electron/platform/settings-store.js';
import { cleanup, tempDir } from '../shared/support/harness.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => cleanup(dir));

describe('settings through conf', () => {
  it('writes through the conf the shell passes, in the same indented format as before', () => {
    // Stands in for electron-store (which cannot load without Electron): a conf whose writes are counted.
    let writes = 0;
    let options: Options<SettingsDocument> | undefined;
    const store = createSettingsStore(dir, {
      conf: (o) => {
        options = o;
        const conf = new Conf<SettingsDocument>(o);
        conf.events.addEventListener('change', () => (writes += 1));
        return conf;
      },
    });
    const settings = { ...defaultSettings(), approvals: { files: 'abc' } };
    store.save(settings);
    expect(writes).toBe(1);
    expect(options).toMatchObject({
      cwd: dir,
      configName: 'config',
      fileExtension: 'json',
      clearInvalidConfig: false,
      configFileMode: 0o600,
    });
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe(`${JSON.stringify(settings, null, 2)}\n`);
    expect(createSettingsStore(dir).load()).toEqual({ settings, notices: [] });
  });

  it('a save before any load moves a file conf cannot parse aside instead of writing over it', () => {
    writeFileSync(join(dir, 'config.json'), '{"schemaVersion": 1, "servers": [');
    createSettingsStore(dir).save(defaultSettings());
    const backup = readdirSync(dir).find((f) => f.startsWith('config.corrupt-'));
    expect(backup).toBeDefined();
    expect(readFileSync(join(dir, backup!), 'utf8')).toBe('{"schemaVersion": 1, "servers": [');
    expect(createSettingsStore(dir).load().notices).toEqual([]);
  });
});
