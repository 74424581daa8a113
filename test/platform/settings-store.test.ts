// The settings file on disk: a file that cannot be used at all is moved aside byte for byte with a notice; a file
// with some bad parts keeps every good part (the original kept verbatim as the backup, the notice naming what was left
// out); a BOM is accepted; temp files of interrupted writes are removed; valid files round-trip, writes are
// owner-only, old files migrate, and secret env values never reach the file.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, SETTINGS_SCHEMA_VERSION, type Settings } from '../../shared/config.js';
import type { AppNotice, ServerDetail } from '../../shared/contract.js';
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

const servers = (): string[] => (JSON.parse(readFileSync(configFile(), 'utf8')) as Settings).servers.map((x) => x.id);

function expectPartial(original: Buffer, left: string[], kept: string[]): AppNotice {
  const loaded = confSettingsStore(dir).load();
  expect(loaded.settings.servers.map((x) => x.id)).toEqual(kept);
  // The live file now holds the good parts only; the original is kept byte for byte as the backup.
  expect(servers()).toEqual(kept);
  const found = backups();
  expect(found).toHaveLength(1);
  expect(Buffer.compare(readFileSync(join(dir, found[0]!)), original)).toBe(0);
  expect(loaded.notices).toHaveLength(1);
  const notice = loaded.notices[0]!;
  expect(notice).toMatchObject({ id: 'settings-partial', level: 'warning' });
  expect(notice.message).toContain(join(dir, found[0]!));
  for (const what of left) expect(notice.message).toContain(what);
  // A second start finds a clean file: no new backup, no notice.
  expect(confSettingsStore(dir).load().notices).toEqual([]);
  expect(backups()).toHaveLength(1);
  return notice;
}

describe('a settings file with some bad parts keeps the good ones', () => {
  const other = { ...validServer, id: 'other', name: 'Other' };

  it('leaves out one server with a bad id and keeps the others', () => {
    const bytes = Buffer.from(
      JSON.stringify({ schemaVersion: 1, servers: [validServer, { ...validServer, id: 'Bad Id!', name: 'Broken' }, other] }, null, 2),
    );
    writeFileSync(configFile(), bytes);
    const notice = expectPartial(bytes, ['server "Bad Id!" (Broken)', 'id:'], ['files', 'other']);
    expect(notice.message).toMatch(/lowercase/);
  });

  it('leaves out a server with an unknown transport type', () => {
    const bytes = Buffer.from(
      JSON.stringify({
        schemaVersion: 1,
        servers: [{ ...validServer, id: 'ws', transport: { type: 'websocket', url: 'ws://127.0.0.1:1' } }, other],
      }),
    );
    writeFileSync(configFile(), bytes);
    expectPartial(bytes, ['server "ws" (Files)', 'transport'], ['other']);
  });

  it('keeps the first of two servers with the same id', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [validServer, { ...validServer, name: 'Second' }] }));
    writeFileSync(configFile(), bytes);
    const notice = expectPartial(bytes, ['server "files" (Second)', 'already used'], ['files']);
    expect(confSettingsStore(dir).load().settings.servers[0]!.name).toBe('Files');
    expect(notice.level).toBe('warning');
  });

  it('leaves out an unknown top-level key and keeps every server', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [validServer, other], theme: 'dark' }));
    writeFileSync(configFile(), bytes);
    expectPartial(bytes, ['unknown setting "theme"'], ['files', 'other']);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).not.toHaveProperty('theme');
  });

  it('keeps the valid approvals when one is malformed, and defaults a bad flag', () => {
    const bytes = Buffer.from(
      JSON.stringify({ schemaVersion: 1, servers: [validServer], approvals: { files: 'abc', other: 42 }, demoOffered: 'yes' }),
    );
    writeFileSync(configFile(), bytes);
    const loaded = confSettingsStore(dir).load();
    expect(loaded.settings.approvals).toEqual({ files: 'abc' });
    expect(loaded.settings.demoOffered).toBe(false);
    expect(loaded.settings.servers.map((x) => x.id)).toEqual(['files']);
    expect(loaded.notices[0]!.message).toContain('approvals entry "other"');
    expect(loaded.notices[0]!.message).toContain('setting "demoOffered"');
  });

  it('names a server without an id by its position, and escapes control characters from the file', () => {
    const bytes = Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [{ name: 'No id\u001b[31m' }, validServer] }));
    writeFileSync(configFile(), bytes);
    const notice = expectPartial(bytes, ['server entry 1 (No id)'], ['files']);
    expect(notice.message).not.toContain('\u001b');
  });

  it('accepts a UTF-8 byte order mark', () => {
    writeFileSync(
      configFile(),
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ schemaVersion: 1, servers: [validServer] }))]),
    );
    const loaded = confSettingsStore(dir).load();
    expect(loaded.notices).toEqual([]);
    expect(loaded.settings.servers.map((x) => x.id)).toEqual(['files']);
    expect(backups()).toEqual([]);
  });

  it("removes temp files left by interrupted writes (ours and the older writer's) at start", () => {
    writeFileSync(configFile(), JSON.stringify({ schemaVersion: 1, servers: [validServer] }));
    const leftovers = ['config.json.tmp-1733000000abc123', 'config.json.tmp-2147483646-1733000000000-1'];
    for (const name of leftovers) writeFileSync(join(dir, name), '{"half":');
    writeFileSync(join(dir, 'other.json.tmp-1'), 'not ours');
    const loaded = confSettingsStore(dir).load();
    expect(loaded.settings.servers.map((x) => x.id)).toEqual(['files']);
    expect(readdirSync(dir).sort()).toEqual(['config.json', 'other.json.tmp-1']);
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
