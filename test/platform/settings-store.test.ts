// The settings file on disk through a real conf instance: corrupt files are moved aside
// byte-for-byte with a notice, valid files round-trip, writes are owner-only, old files
// migrate, and secret env values never reach the file.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, SETTINGS_SCHEMA_VERSION, type Settings } from '../../shared/config.js';
import type { ServerDetail } from '../../shared/contract.js';
import { envSecretAccount } from '../../electron/core/servers/secrets.js';
import { call, cleanup, confSettingsStore, makeHost, tempDir } from '../shared/support/harness.js';

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => cleanup(dir));

const configFile = () => join(dir, 'config.json');
const backups = () => readdirSync(dir).filter((f) => /^config\.corrupt-.+\.json$/.test(f));

const validServer = {
  id: 'files',
  name: 'Files',
  enabled: true,
  transport: { type: 'stdio', command: 'node', args: ['server.js'], env: { MODE: 'fast' }, inheritEnv: false },
};

function expectMovedAside(original: Buffer): void {
  const loaded = confSettingsStore(dir).load();
  expect(loaded.settings).toEqual(defaultSettings());
  expect(existsSync(configFile())).toBe(false);
  const found = backups();
  expect(found).toHaveLength(1);
  const backupPath = join(dir, found[0]!);
  expect(Buffer.compare(readFileSync(backupPath), original)).toBe(0);
  expect(loaded.notices).toHaveLength(1);
  expect(loaded.notices[0]!.level).toBe('error');
  expect(loaded.notices[0]!.message).toContain(backupPath);
}

describe('corrupt settings file', () => {
  it('moves a truncated JSON file aside byte-for-byte (cut inside a multi-byte character)', () => {
    const full = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [{ ...validServer, name: 'Café ☕' }] }), 'utf8');
    const cut = full.indexOf(Buffer.from('☕')) + 1; // mid-character
    const truncated = full.subarray(0, cut);
    writeFileSync(configFile(), truncated);
    expectMovedAside(truncated);
  });

  it('moves an empty file aside', () => {
    writeFileSync(configFile(), Buffer.alloc(0));
    expectMovedAside(Buffer.alloc(0));
  });

  it('moves a whitespace-only file aside', () => {
    const bytes = Buffer.from(' \n\t\n');
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('moves aside a file whose server has a bad id', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [{ ...validServer, id: 'Bad Id!' }] }, null, 2));
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('moves aside a file with an unknown transport type', () => {
    const bytes = Buffer.from(
      JSON.stringify({ schemaVersion: 1, servers: [{ ...validServer, transport: { type: 'websocket', url: 'ws://127.0.0.1:1' } }] }),
    );
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('moves aside a file with duplicate server ids', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [validServer, validServer] }));
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('moves aside a JSON value that is not an object', () => {
    const bytes = Buffer.from('[1,2,3]');
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('moves aside a file written by a newer schema version', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: SETTINGS_SCHEMA_VERSION + 1, servers: [], futureField: true }));
    writeFileSync(configFile(), bytes);
    const loaded = confSettingsStore(dir).load();
    expect(loaded.notices[0]!.message).toMatch(/newer/i);
    // And the rest of the contract, checked on a fresh copy of the same bytes.
    cleanup(dir);
    dir = tempDir();
    writeFileSync(configFile(), bytes);
    expectMovedAside(bytes);
  });

  it('keeps the backup untouched when defaults are saved afterwards', () => {
    const bytes = Buffer.from('{"schemaVersion": 1, "servers": [');
    writeFileSync(configFile(), bytes);
    const store = confSettingsStore(dir);
    store.load();
    store.save(defaultSettings());
    const found = backups();
    expect(found).toHaveLength(1);
    expect(Buffer.compare(readFileSync(join(dir, found[0]!)), bytes)).toBe(0);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual(defaultSettings());
  });

  it('never overwrites an earlier backup, even when the clock gives the same timestamp', () => {
    const fixed = () => new Date('2030-01-02T03:04:05.678Z');
    const first = Buffer.from('{"first":');
    const second = Buffer.from('{"second":');
    writeFileSync(configFile(), first);
    const n1 = confSettingsStore(dir, fixed).load().notices;
    writeFileSync(configFile(), second);
    const n2 = confSettingsStore(dir, fixed).load().notices;
    const found = backups().map((f) => readFileSync(join(dir, f)));
    expect(found).toHaveLength(2);
    expect(found.some((b) => b.equals(first))).toBe(true);
    expect(found.some((b) => b.equals(second))).toBe(true);
    expect(n1[0]!.message).not.toBe(n2[0]!.message);
  });

  it('surfaces the notice through the host (app.info) so the user sees the backup path', async () => {
    writeFileSync(configFile(), '{not json');
    const h = makeHost(dir);
    const info = await call<{ notices: { id: string; message: string }[] }>(h.dispatch, 'app.info', {});
    const found = backups();
    expect(found).toHaveLength(1);
    const notice = info.notices.find((n) => n.id === 'settings-corrupt');
    expect(notice?.message).toContain(join(dir, found[0]!));
  });
});

describe('valid settings file', () => {
  it('starts with defaults and no notice when there is no file', () => {
    const loaded = confSettingsStore(dir).load();
    expect(loaded).toEqual({ settings: defaultSettings(), notices: [] });
  });

  it('round-trips through save and load', () => {
    writeFileSync(
      configFile(),
      JSON.stringify({ schemaVersion: 1, servers: [validServer], approvals: { files: 'abc' }, demoOffered: true }),
    );
    const full = confSettingsStore(dir).load().settings;
    // Defaults were filled in by the schema.
    expect(full.servers[0]!.timeouts.connectSecs).toBe(45);
    expect(full.servers[0]!.lifecycle).toBe('auto');
    confSettingsStore(dir).save(full);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual(full);
    const again = confSettingsStore(dir).load();
    expect(again.notices).toEqual([]);
    expect(again.settings).toEqual(full);
    expect(again.settings.approvals).toEqual({ files: 'abc' });
    expect(again.settings.demoOffered).toBe(true);
    expect(backups()).toEqual([]);
  });

  it('is written with mode 0600', () => {
    if (process.platform === 'win32') return;
    confSettingsStore(dir).save(defaultSettings());
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('tightens a pre-existing world-readable file to 0600 on the next save', () => {
    if (process.platform === 'win32') return;
    writeFileSync(configFile(), JSON.stringify({ schemaVersion: 1, servers: [] }), { mode: 0o644 });
    const store = confSettingsStore(dir);
    const { settings } = store.load();
    store.save(settings);
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('migrates a version-0 file (no schemaVersion) and keeps its servers', () => {
    writeFileSync(configFile(), JSON.stringify({ servers: [validServer] }));
    const loaded = confSettingsStore(dir).load();
    expect(loaded.notices).toEqual([]);
    expect(loaded.settings.schemaVersion).toBe(SETTINGS_SCHEMA_VERSION);
    expect(loaded.settings.servers.map((s) => s.id)).toEqual(['files']);
    expect(backups()).toEqual([]);
  });

  it('host writes what it was given and reads it back after a restart', async () => {
    const a = makeHost(dir);
    await call(a.dispatch, 'servers.add', {
      config: { id: 'remote', name: 'Remote', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Team': 'blue' } } },
    });
    const b = makeHost(dir);
    const list = await call<{ id: string; target: string }[]>(b.dispatch, 'servers.list', {});
    expect(list.map((s) => [s.id, s.target])).toEqual([['remote', 'http://127.0.0.1:9/mcp']]);
  });
});

describe('secret env values', () => {
  it('never reach the settings file, and servers.get masks them', async () => {
    const h = makeHost(dir);
    await call(h.dispatch, 'servers.add', {
      config: {
        id: 'secretive',
        name: 'Secretive',
        transport: {
          type: 'stdio',
          command: 'node',
          args: ['s.js'],
          env: { TOKEN: { secret: true, value: 'CANARY_123' }, PLAIN: 'visible' },
        },
      },
    });
    const bytes = readFileSync(configFile());
    expect(bytes.includes(Buffer.from('CANARY_123'))).toBe(false);
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f)).includes(Buffer.from('CANARY_123'))).toBe(false);
    const onDisk = JSON.parse(bytes.toString('utf8')) as Settings;
    const t = onDisk.servers[0]!.transport;
    expect(t.type === 'stdio' && t.env).toEqual({ TOKEN: { secret: true }, PLAIN: 'visible' });
    expect(await h.credentials.get(envSecretAccount('secretive', 'TOKEN'))).toBe('CANARY_123');

    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'secretive' });
    expect(detail.config.transport.type === 'stdio' && detail.config.transport.env).toEqual({
      TOKEN: { secret: true, isSet: true },
      PLAIN: 'visible',
    });
    expect(JSON.stringify(detail)).not.toContain('CANARY_123');
    const list = await call(h.dispatch, 'servers.list', {});
    expect(JSON.stringify(list)).not.toContain('CANARY_123');
  });

  it('keep the stored secret when an update omits its value, and never write it to disk', async () => {
    const h = makeHost(dir);
    const base = {
      id: 'upd',
      name: 'Upd',
      transport: { type: 'stdio', command: 'node', args: [], env: { TOKEN: { secret: true, value: 'CANARY_456' } } },
    };
    await call(h.dispatch, 'servers.add', { config: base });
    await call(h.dispatch, 'servers.update', {
      id: 'upd',
      config: { ...base, name: 'Renamed', transport: { ...base.transport, env: { TOKEN: { secret: true } } } },
    });
    expect(readFileSync(configFile()).includes(Buffer.from('CANARY_456'))).toBe(false);
    expect(await h.credentials.get(envSecretAccount('upd', 'TOKEN'))).toBe('CANARY_456');
    await call(h.dispatch, 'servers.remove', { id: 'upd' });
    expect(await h.credentials.get(envSecretAccount('upd', 'TOKEN'))).toBeNull();
  });
});
