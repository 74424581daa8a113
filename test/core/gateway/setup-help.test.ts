// "Use from another app": the exact entries for Claude Desktop, Cursor and VS Code, a preview of the file, and the
// write itself: other entries and comments kept, the old file backed up, an unreadable file never overwritten,
// tokens in a file only where the person chose HTTP for Cursor.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultConfigFile } from '../../../electron/core/gateway/setup-help.js';
import type { GatewaySetupPreview, GatewaySetupResult, GatewayStatus } from '../../../shared/domains/gateway.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let apps: string;
let h: HostHarness;
let id = '';
let token = '';
let url = '';

beforeEach(async () => {
  dir = tempDir('sb-gw-setup-');
  apps = tempDir('sb-gw-apps-');
  h = makeHost(dir);
  url = (await call<GatewayStatus>(h.dispatch, 'gateway.enable', {})).url!;
  ({ id, token } = await call<{ id: string; token: string }>(h.dispatch, 'gateway.addClient', {
    name: 'My Laptop',
    profile: { mode: 'all' },
  }));
});
afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
  cleanup(apps);
});

describe('default config files', () => {
  it('follow each app on each platform', () => {
    const ctx = { home: '/home/u', env: {}, platform: 'linux' as const };
    expect(defaultConfigFile('claude', ctx)).toBe('/home/u/.config/Claude/claude_desktop_config.json');
    expect(defaultConfigFile('vscode', ctx)).toBe('/home/u/.config/Code/User/mcp.json');
    expect(defaultConfigFile('cursor', ctx)).toBe('/home/u/.cursor/mcp.json');
    expect(defaultConfigFile('claude', { home: '/Users/u', env: {}, platform: 'darwin' })).toBe(
      '/Users/u/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(defaultConfigFile('vscode', { home: 'C:\\Users\\u', env: { APPDATA: '/appdata' }, platform: 'win32' })).toMatch(
      /appdata.Code.User.mcp\.json$/,
    );
  });
});

describe('stdio entries', () => {
  it('for Claude Desktop: previewed, then written beside the other entries, the old file backed up', async () => {
    const file = join(apps, 'claude_desktop_config.json');
    const before = { mcpServers: { other: { command: 'npx', args: ['-y', 'thing'], env: { KEEP: '1' } } }, globalShortcut: 'Ctrl+Space' };
    writeFileSync(file, JSON.stringify(before, null, 2), { mode: 0o640 });
    const preview = await call<GatewaySetupPreview>(h.dispatch, 'gateway.setupPreview', { id, app: 'claude', transport: 'stdio', file });
    expect(preview).toMatchObject({ app: 'claude', file, exists: true, entryName: 'switchboard', replaces: false });
    const entry = JSON.parse(preview.entry) as { switchboard: { command: string; args: string[] } };
    expect(entry.switchboard.command).toBe('switchboard-gateway');
    expect(entry.switchboard.args).toEqual(['--client', 'My Laptop', '--data-dir', dir]);
    expect(preview.preview).not.toContain(token);
    expect(readFileSync(file, 'utf8')).toBe(JSON.stringify(before, null, 2));

    const result = await call<GatewaySetupResult>(h.dispatch, 'gateway.setupInstall', { id, app: 'claude', transport: 'stdio', file });
    const written = JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: Record<string, unknown>; globalShortcut: string };
    expect(written.mcpServers['other']).toEqual(before.mcpServers.other);
    expect(written.globalShortcut).toBe('Ctrl+Space');
    expect(written.mcpServers['switchboard']).toEqual(entry.switchboard);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(JSON.parse(readFileSync(result.backup!, 'utf8'))).toEqual(before);
  });

  it('for VS Code: JSONC comments and other entries kept', async () => {
    const file = join(apps, 'mcp.json');
    const text =
      '{\n  // my servers\n  "servers": {\n    "gh": { "type": "http", "url": "https://api.example/mcp" }, // trailing\n  },\n}\n';
    writeFileSync(file, text);
    await call(h.dispatch, 'gateway.setupInstall', { id, app: 'vscode', transport: 'stdio', file });
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('// my servers');
    expect(after).toContain('// trailing');
    const parsed = parseJsonc(after) as { servers: Record<string, { type: string }> };
    expect(parsed.servers['gh']).toEqual({ type: 'http', url: 'https://api.example/mcp' });
    expect(parsed.servers['switchboard']).toMatchObject({ type: 'stdio', command: 'switchboard-gateway' });
  });

  it('creates a missing file (and its folder), without a backup', async () => {
    const file = join(apps, 'new', '.cursor', 'mcp.json');
    const result = await call<GatewaySetupResult>(h.dispatch, 'gateway.setupInstall', { id, app: 'cursor', transport: 'stdio', file });
    expect(result.backup).toBeUndefined();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      mcpServers: { switchboard: { args: ['--client', 'My Laptop', '--data-dir', dir] } },
    });
  });
});

describe('HTTP entries', () => {
  it('Cursor gets the URL and header; the token only when given, and it must be this client’s', async () => {
    const file = join(apps, 'mcp.json');
    const preview = await call<GatewaySetupPreview>(h.dispatch, 'gateway.setupPreview', { id, app: 'cursor', transport: 'http', file });
    expect(JSON.parse(preview.entry)).toEqual({ switchboard: { url, headers: { Authorization: 'Bearer <paste this client’s token>' } } });
    expect(preview.notes.join(' ')).toMatch(/plain text/);
    const noToken = await h.dispatch('gateway.setupInstall', { id, app: 'cursor', transport: 'http', file });
    expect(noToken).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const wrong = await h.dispatch('gateway.setupInstall', {
      id,
      app: 'cursor',
      transport: 'http',
      file,
      token: `${token.slice(0, -2)}xx`,
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(existsSync(file)).toBe(false);
    await call(h.dispatch, 'gateway.setupInstall', { id, app: 'cursor', transport: 'http', file, token });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      mcpServers: { switchboard: { url, headers: { Authorization: `Bearer ${token}` } } },
    });
  });

  it('VS Code gets an input reference, never the token; Claude Desktop has no HTTP entry', async () => {
    const file = join(apps, 'mcp.json');
    writeFileSync(file, JSON.stringify({ inputs: [{ type: 'promptString', id: 'other', description: 'x' }], servers: {} }));
    await call(h.dispatch, 'gateway.setupInstall', { id, app: 'vscode', transport: 'http', file, token });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token);
    const parsed = JSON.parse(text) as { inputs: { id: string }[]; servers: Record<string, { headers: Record<string, string> }> };
    expect(parsed.inputs.map((i) => i.id)).toEqual(['other', `switchboard-${id}-token`]);
    expect(parsed.servers['switchboard']!.headers['Authorization']).toBe(`Bearer \${input:switchboard-${id}-token}`);
    // Writing again replaces our entry and input; nothing duplicates.
    await call(h.dispatch, 'gateway.setupInstall', { id, app: 'vscode', transport: 'http', file });
    expect((JSON.parse(readFileSync(file, 'utf8')) as { inputs: unknown[] }).inputs).toHaveLength(2);
    const claude = await h.dispatch('gateway.setupPreview', {
      id,
      app: 'claude',
      transport: 'http',
      file: join(apps, 'claude_desktop_config.json'),
    });
    expect(claude).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(/only starts stdio servers/) },
    });
  });
});

describe('what is never written', () => {
  it('an unreadable file, a file of another name, a relative path', async () => {
    const file = join(apps, 'mcp.json');
    writeFileSync(file, '{ "mcpServers": [ oops');
    const broken = await h.dispatch('gateway.setupInstall', { id, app: 'cursor', transport: 'stdio', file });
    expect(broken).toMatchObject({ ok: false, error: { code: 'config_invalid' } });
    expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": [ oops');
    mkdirSync(join(apps, 'x'));
    for (const f of [join(apps, 'x', 'settings.json'), 'mcp.json', join(apps, 'x', 'claude_desktop_config.json')]) {
      const r = await h.dispatch('gateway.setupInstall', { id, app: 'cursor', transport: 'stdio', file: f });
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });
});
