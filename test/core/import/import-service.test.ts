// Import and export end to end: dispatcher → handlers → Host → import service → real
// conf-backed settings file in a temp dir, with secrets in a memory credential store.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportEntry, ImportFormat, ImportPreview, ImportResult, ServerDetail, ServerSummary } from '../../../shared/contract.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { envSecretAccount } from '../../../electron/core/servers/secrets.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let h: HostHarness;
beforeEach(() => {
  dir = tempDir();
  h = makeHost(dir);
});
afterEach(() => cleanup(dir));

const configFile = () => join(dir, 'config.json');
const fileBytes = () => (existsSync(configFile()) ? readFileSync(configFile()) : null);
const byKey = (p: ImportPreview) => new Map(p.entries.map((e) => [e.key, e]));
const entry = (p: ImportPreview, key: string): ImportEntry => {
  const e = byKey(p).get(key);
  if (!e) throw new Error(`no entry ${key} in ${JSON.stringify(p.entries.map((x) => x.key))}`);
  return e;
};
const ids = async () => (await call<ServerSummary[]>(h.dispatch, 'servers.list', {})).map((s) => s.id).sort();

async function failure(method: string, args: unknown): Promise<AppErrorData> {
  const env = await h.dispatch(method, args);
  if (env.ok) throw new Error(`${method} unexpectedly succeeded`);
  return env.error;
}

const claudeText = JSON.stringify({
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { LOG: 'debug' } },
    'No Command': { args: ['x'] },
    'bad-args': { command: 'node', args: 'server.js' },
    'empty-command': { command: '   ' },
    'not-an-object': 42,
    'bad-env': { command: 'node', env: { COUNT: 3 } },
  },
});

describe('Claude Desktop format (mcpServers)', () => {
  it('previews valid and invalid entries with reasons, and saves nothing', async () => {
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text: claudeText });
    expect(preview.format).toBe('claude');
    expect(preview.entries.map((e) => e.key)).toEqual([
      'filesystem',
      'No Command',
      'bad-args',
      'empty-command',
      'not-an-object',
      'bad-env',
    ]);
    const fs = entry(preview, 'filesystem');
    expect(fs).toMatchObject({ id: 'filesystem', status: 'valid', reasons: [], transport: 'stdio', secretPrompts: [] });
    expect(fs.target).toBe('npx -y @modelcontextprotocol/server-filesystem /tmp');
    expect(entry(preview, 'No Command')).toMatchObject({ status: 'invalid', id: 'no-command' });
    expect(entry(preview, 'No Command').reasons.join(' ')).toMatch(/neither a "command" nor a "url"/);
    expect(entry(preview, 'bad-args').status).toBe('invalid');
    expect(entry(preview, 'bad-args').reasons.join(' ')).toMatch(/args/);
    expect(entry(preview, 'empty-command').status).toBe('invalid');
    expect(entry(preview, 'not-an-object').status).toBe('invalid');
    expect(entry(preview, 'bad-env').reasons.join(' ')).toMatch(/env COUNT/);
    expect(fileBytes()).toBeNull();
    expect(await ids()).toEqual([]);
  });

  it('applies only the valid entries and reports the rest as skipped', async () => {
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text: claudeText });
    expect(result.added).toEqual(['filesystem']);
    expect(result.skipped.map((s) => s.key).sort()).toEqual(['No Command', 'bad-args', 'bad-env', 'empty-command', 'not-an-object'].sort());
    expect(await ids()).toEqual(['filesystem']);
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'filesystem' });
    expect(detail.config.transport).toMatchObject({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      env: { LOG: 'debug' },
    });
    // Persisted: a fresh host on the same folder sees it.
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).servers.map((s: { id: string }) => s.id)).toEqual(['filesystem']);
  });

  it('imports only the chosen keys', async () => {
    const text = JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } });
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text, keys: ['b'] });
    expect(result).toEqual({ added: ['b'], skipped: [] });
    expect(await ids()).toEqual(['b']);
  });

  it('reports an id clash with an existing server and does not overwrite it', async () => {
    await call(h.dispatch, 'servers.add', {
      config: { id: 'filesystem', name: 'Mine', transport: { type: 'stdio', command: 'my-own', args: ['--keep'] } },
    });
    const before = fileBytes();
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text: claudeText });
    expect(entry(preview, 'filesystem').status).toBe('clash');
    expect(entry(preview, 'filesystem').reasons.join(' ')).toMatch(/already exists/);
    expect(fileBytes()!.equals(before!)).toBe(true);
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text: claudeText, keys: ['filesystem'] });
    expect(result.added).toEqual([]);
    expect(result.skipped).toEqual([{ key: 'filesystem', reason: expect.stringMatching(/already exists/) as unknown as string }]);
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'filesystem' });
    expect(detail.name).toBe('Mine');
    expect(detail.config.transport).toMatchObject({ command: 'my-own', args: ['--keep'] });
  });

  it('reports two entries that slug to the same id; only the first is created', async () => {
    const text = JSON.stringify({
      mcpServers: { 'My Server': { command: 'one' }, 'my-server': { command: 'two' }, MY_SERVER: { command: 'three' } },
    });
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text });
    expect(preview.entries.map((e) => [e.key, e.id, e.status])).toEqual([
      ['My Server', 'my-server', 'valid'],
      ['my-server', 'my-server', 'clash'],
      ['MY_SERVER', 'my_server', 'valid'],
    ]);
    expect(entry(preview, 'my-server').reasons.join(' ')).toMatch(/Another entry/);
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text });
    expect(result.added).toEqual(['my-server', 'my_server']);
    expect(result.skipped.map((s) => s.key)).toEqual(['my-server']);
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'my-server' });
    expect(detail.config.transport).toMatchObject({ command: 'one' });
  });

  it('turns text that is not JSON into a config_invalid error and saves nothing', async () => {
    for (const text of ['{"mcpServers": {', 'not json at all', '[]', '{"other": {}}']) {
      const err = await failure('servers.importPreview', { text });
      expect(err.code).toBe('config_invalid');
      const err2 = await failure('servers.import', { text });
      expect(err2.code).toBe('config_invalid');
    }
    expect(fileBytes()).toBeNull();
  });
});

const vscodeText = `{
  // VS Code mcp.json: comments and trailing commas are allowed
  "inputs": [
    { "type": "promptString", "id": "gh-token", "description": "GitHub personal access token", "password": true },
  ],
  "servers": {
    "github": {
      "type": "stdio",
      "command": "docker",
      "args": ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "\${input:gh-token}", "MODE": "ro" },
    },
    /* block comment */
    "remote": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "X-Team": "blue" } },
    "plain-http-remote": { "type": "http", "url": "http://api.example.com/mcp" },
    "auth-header": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer abc" } },
    "weird": { "type": "websocket", "url": "https://api.example.com/ws" },
  },
}`;

describe('VS Code format (servers + inputs, JSONC)', () => {
  it('detects the format, turns inputs into secret prompts and validates each entry', async () => {
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text: vscodeText });
    expect(preview.format).toBe('vscode');
    const gh = entry(preview, 'github');
    expect(gh.status).toBe('valid');
    expect(gh.secretPrompts).toEqual([
      { envKey: 'GITHUB_PERSONAL_ACCESS_TOKEN', inputId: 'gh-token', description: 'GitHub personal access token' },
    ]);
    expect(entry(preview, 'remote')).toMatchObject({ status: 'valid', transport: 'http', target: 'https://api.example.com/mcp' });
    expect(entry(preview, 'plain-http-remote').status).toBe('invalid');
    expect(entry(preview, 'plain-http-remote').reasons.join(' ')).toMatch(/Plain http/);
    // An Authorization: Bearer header is taken as the server's bearer token (see bearer-import.test.ts).
    expect(entry(preview, 'auth-header')).toMatchObject({ status: 'valid', bearerToken: true });
    expect(entry(preview, 'weird').status).toBe('invalid');
    expect(entry(preview, 'weird').reasons.join(' ')).toMatch(/Unknown transport type/);
    expect(fileBytes()).toBeNull();
  });

  it('requires a value for every prompted secret before creating the server', async () => {
    const without = await call<ImportResult>(h.dispatch, 'servers.import', { text: vscodeText, keys: ['github'] });
    expect(without.added).toEqual([]);
    expect(without.skipped).toEqual([
      { key: 'github', reason: expect.stringMatching(/Missing secret value for GITHUB_PERSONAL_ACCESS_TOKEN/) as unknown as string },
    ]);
    expect(await ids()).toEqual([]);
    expect(fileBytes()).toBeNull();

    const withSecret = await call<ImportResult>(h.dispatch, 'servers.import', {
      text: vscodeText,
      secrets: { github: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_CANARY_789' } },
    });
    expect(withSecret.added.sort()).toEqual(['auth-header', 'github', 'remote']);
    expect(withSecret.skipped.map((s) => s.key).sort()).toEqual(['plain-http-remote', 'weird']);
    expect(await h.credentials.get(envSecretAccount('github', 'GITHUB_PERSONAL_ACCESS_TOKEN'))).toBe('ghp_CANARY_789');
    expect(readFileSync(configFile()).includes(Buffer.from('ghp_CANARY_789'))).toBe(false);
    const detail = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'github' });
    expect(detail.config.transport.type === 'stdio' && detail.config.transport.env).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: { secret: true, isSet: true },
      MODE: 'ro',
    });
  });

  it('finds servers nested under "mcp" in a settings.json', async () => {
    const text = '{ "editor.fontSize": 12, "mcp": { "servers": { "x": { "command": "x" } } } }';
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text });
    expect(preview.format).toBe('vscode');
    expect(preview.entries.map((e) => [e.id, e.status])).toEqual([['x', 'valid']]);
  });
});

const cursorText = JSON.stringify({
  mcpServers: {
    linear: { url: 'https://mcp.linear.app/sse' },
    local: { url: 'http://127.0.0.1:3845/mcp', headers: { 'X-Api-Version': '2' } },
    'local-sse': { url: 'http://localhost:8080/sse/' },
    insecure: { url: 'http://10.0.0.5:8080/mcp' },
    'with-cookie': { url: 'https://example.com/mcp', headers: { Cookie: 'a=b' } },
    'bad-url': { url: 'not a url' },
    'creds-in-url': { url: 'https://user:pw@example.com/mcp' },
    stdio: { command: 'uvx', args: ['mcp-server-git'] },
  },
});

describe('Cursor format (mcpServers with url entries)', () => {
  it('maps /sse URLs to sse, others to http, and refuses unsafe URLs and headers', async () => {
    const preview = await call<ImportPreview>(h.dispatch, 'servers.importPreview', { text: cursorText, format: 'cursor' });
    expect(preview.format).toBe('cursor');
    expect(entry(preview, 'linear')).toMatchObject({ status: 'valid', transport: 'sse' });
    expect(entry(preview, 'local')).toMatchObject({ status: 'valid', transport: 'http' });
    expect(entry(preview, 'local-sse')).toMatchObject({ status: 'valid', transport: 'sse' });
    expect(entry(preview, 'stdio')).toMatchObject({ status: 'valid', transport: 'stdio' });
    for (const bad of ['insecure', 'with-cookie', 'bad-url', 'creds-in-url']) {
      expect(entry(preview, bad).status, bad).toBe('invalid');
      expect(entry(preview, bad).reasons.length, bad).toBeGreaterThan(0);
    }
    expect(fileBytes()).toBeNull();
  });

  it('applies the valid entries with their transport kinds', async () => {
    const result = await call<ImportResult>(h.dispatch, 'servers.import', { text: cursorText, format: 'cursor' });
    expect(result.added.sort()).toEqual(['linear', 'local', 'local-sse', 'stdio']);
    const list = await call<ServerSummary[]>(h.dispatch, 'servers.list', {});
    expect(Object.fromEntries(list.map((s) => [s.id, s.transport]))).toEqual({
      linear: 'sse',
      local: 'http',
      'local-sse': 'sse',
      stdio: 'stdio',
    });
    const local = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'local' });
    expect(local.config.transport).toMatchObject({ type: 'http', url: 'http://127.0.0.1:3845/mcp', headers: { 'X-Api-Version': '2' } });
  });
});

describe('export', () => {
  async function seed(): Promise<void> {
    await call(h.dispatch, 'servers.add', {
      config: {
        id: 'github',
        name: 'GitHub',
        transport: {
          type: 'stdio',
          command: 'docker',
          args: ['run', '-i', 'ghcr.io/github/github-mcp-server'],
          env: { GITHUB_TOKEN: { secret: true, value: 'EXPORT_CANARY_1' }, MODE: 'ro' },
        },
      },
    });
    await call(h.dispatch, 'servers.add', {
      config: {
        id: 'remote',
        name: 'Remote',
        transport: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Team': 'blue' } },
      },
    });
    await call(h.dispatch, 'servers.add', {
      config: { id: 'legacy', name: 'Legacy', transport: { type: 'sse', url: 'http://127.0.0.1:9000/sse' } },
    });
  }

  it.each(['claude', 'vscode', 'cursor'] as ImportFormat[])('writes %s format without secret values', async (format) => {
    await seed();
    const out = await call<{ format: ImportFormat; fileName: string; text: string }>(h.dispatch, 'servers.export', { format });
    expect(out.format).toBe(format);
    expect(out.fileName).toBe(format === 'claude' ? 'claude_desktop_config.json' : 'mcp.json');
    expect(out.text).not.toContain('EXPORT_CANARY_1');
    const doc = JSON.parse(out.text) as Record<string, Record<string, { command?: string; url?: string; env?: Record<string, string> }>>;
    const servers = format === 'vscode' ? doc['servers']! : doc['mcpServers']!;
    expect(Object.keys(servers).sort()).toEqual(['github', 'legacy', 'remote']);
    expect(servers['github']!.env!['MODE']).toBe('ro');
    expect(servers['remote']!.url).toBe('https://api.example.com/mcp');
    if (format === 'vscode') expect(servers['github']!.env!['GITHUB_TOKEN']).toMatch(/^\$\{input:[^}]+\}$/);
  });

  it('exports only the requested ids', async () => {
    await seed();
    const out = await call<{ text: string }>(h.dispatch, 'servers.export', { format: 'claude', ids: ['remote'] });
    expect(Object.keys((JSON.parse(out.text) as { mcpServers: object }).mcpServers)).toEqual(['remote']);
  });

  it('round-trips a vscode export through import into a fresh host', async () => {
    await seed();
    const out = await call<{ text: string }>(h.dispatch, 'servers.export', { format: 'vscode' });
    const otherDir = tempDir();
    try {
      const other = makeHost(otherDir);
      const preview = await call<ImportPreview>(other.dispatch, 'servers.importPreview', { text: out.text });
      expect(preview.format).toBe('vscode');
      expect(preview.entries.map((e) => [e.id, e.status]).sort()).toEqual([
        ['github', 'valid'],
        ['legacy', 'valid'],
        ['remote', 'valid'],
      ]);
      expect(entry(preview, 'github').secretPrompts.map((p) => p.envKey)).toEqual(['GITHUB_TOKEN']);
      const result = await call<ImportResult>(other.dispatch, 'servers.import', {
        text: out.text,
        secrets: { github: { GITHUB_TOKEN: 'NEW_VALUE' } },
      });
      expect(result.added.sort()).toEqual(['github', 'legacy', 'remote']);
      expect(result.skipped).toEqual([]);
      for (const id of ['github', 'remote', 'legacy']) {
        const a = await call<ServerDetail>(h.dispatch, 'servers.get', { id });
        const b = await call<ServerDetail>(other.dispatch, 'servers.get', { id });
        expect(b.config.transport, id).toEqual(a.config.transport);
        expect(b.config.enabled, id).toBe(a.config.enabled);
      }
      expect(await other.credentials.get(envSecretAccount('github', 'GITHUB_TOKEN'))).toBe('NEW_VALUE');
    } finally {
      cleanup(otherDir);
    }
  });

  it('round-trips a claude export (secret values blanked) back into valid entries', async () => {
    await seed();
    const out = await call<{ text: string }>(h.dispatch, 'servers.export', { format: 'claude' });
    const otherDir = tempDir();
    try {
      const other = makeHost(otherDir);
      const preview = await call<ImportPreview>(other.dispatch, 'servers.importPreview', { text: out.text });
      expect(preview.entries.every((e) => e.status === 'valid')).toBe(true);
      expect(entry(preview, 'legacy').transport).toBe('sse');
    } finally {
      cleanup(otherDir);
    }
  });
});
