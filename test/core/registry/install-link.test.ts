// Install links and pasted definitions through the contract: a preview only (nothing saved, approved or connected),
// a definition that differs from an existing server is shown with its differences and gets a fresh id (never an
// overwrite), javascript: and file: URLs refuse the whole text, and links are bounded.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerDetail, ServerSummary } from '../../../shared/contract.js';
import type { InstallPreview } from '../../../shared/domains/registry.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { buildInstallLink, MAX_LINK_CHARS } from '../../../electron/core/registry/install-link.js';
import { startFixtureRegistry, type FixtureRegistry } from '../../fixtures/registry/registry-server.js';
import { EVERYTHING_ENTRY } from '../../fixtures/registry/entries.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, type RegistryHarness } from './helpers.js';

let dir: string;
let fixture: FixtureRegistry;
let h: RegistryHarness;
beforeEach(async () => {
  dir = tempDir('sb-registry-link-');
  fixture = await startFixtureRegistry();
  h = makeRegistryHost(dir);
});
afterEach(async () => {
  await fixture.close();
  cleanup(dir);
});

const parse = (text: string) => call<InstallPreview>(h.dispatch, 'registry.parseInstall', { text });
async function failure(text: string): Promise<AppErrorData> {
  const env = await h.dispatch('registry.parseInstall', { text });
  if (env.ok) throw new Error(`parseInstall unexpectedly succeeded: ${JSON.stringify(env.value).slice(0, 300)}`);
  return env.error;
}
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const serverIds = async () => (await call<ServerSummary[]>(h.dispatch, 'servers.list', {})).map((s) => s.id);

describe('switchboard://install links', () => {
  it('previews a stdio definition and saves nothing', async () => {
    const link = buildInstallLink('Notes', { command: 'npx', args: ['-y', '@example/notes-mcp@1.0.0'], env: { NOTES_DIR: '/tmp/notes' } });
    const preview = await parse(link);
    expect(preview.kind).toBe('link');
    // The importer hands back the whole definition (defaults filled in): the parts the link gave must be there.
    expect(preview.candidates).toMatchObject([
      {
        key: 'Notes',
        problems: [],
        secretPrompts: [],
        config: {
          id: 'notes',
          name: 'Notes',
          enabled: true,
          transport: { type: 'stdio', command: 'npx', args: ['-y', '@example/notes-mcp@1.0.0'], env: { NOTES_DIR: '/tmp/notes' } },
        },
      },
    ]);
    expect(await serverIds()).toEqual([]);
  });

  it('accepts URL-encoded JSON too, and remote definitions', async () => {
    const config = encodeURIComponent(JSON.stringify({ type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'blue' } }));
    const preview = await parse(`switchboard://install?name=Remote&config=${config}`);
    expect(preview.candidates[0]?.config?.transport).toMatchObject({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Team': 'blue' },
    });
  });

  it('shows how a definition differs from an existing server, gives it a fresh id, and never overwrites', async () => {
    await call(h.dispatch, 'servers.add', {
      config: {
        id: 'notes',
        name: 'Notes',
        transport: { type: 'stdio', command: 'node', args: ['notes.js'], env: { NOTES_DIR: '/home/me' } },
      },
    });
    const before = await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'notes' });
    const preview = await parse(
      buildInstallLink('Notes', { command: 'npx', args: ['-y', 'evil-notes'], env: { NOTES_DIR: '/', EXTRA: '1' } }),
    );
    const candidate = preview.candidates[0]!;
    expect(candidate.existing).toEqual({
      id: 'notes',
      differs: true,
      changes: ['Command: node notes.js → npx -y evil-notes', 'Environment: adds EXTRA', 'Environment: NOTES_DIR changes'],
    });
    expect(candidate.config?.id).toBe('notes-2');
    // Adding it makes a second server; the existing one is untouched.
    await call(h.dispatch, 'servers.add', { config: candidate.config });
    expect(await serverIds()).toEqual(['notes', 'notes-2']);
    expect(await call<ServerDetail>(h.dispatch, 'servers.get', { id: 'notes' })).toEqual(before);
    // Adding it under the existing id is refused: replacing takes an explicit servers.update.
    const env = await h.dispatch('servers.add', { config: { ...candidate.config, id: 'notes' } });
    expect(env.ok).toBe(false);
    if (!env.ok) expect(env.error.code).toBe('id_conflict');
    // The same definition as the existing one is recognised as no change.
    const same = await parse(buildInstallLink('Notes', { command: 'node', args: ['notes.js'], env: { NOTES_DIR: '/home/me' } }));
    expect(same.candidates[0]?.existing).toEqual({ id: 'notes', differs: false, changes: [] });
  });

  it('refuses a link carrying a javascript: or file: URL anywhere', async () => {
    const cases = [
      buildInstallLink('X', { type: 'http', url: 'javascript:alert(1)' }),
      buildInstallLink('X', { command: 'node', args: ['file:///etc/passwd'] }),
      `switchboard://install?server=${b64({ name: 'a.b/c', version: '1', websiteUrl: 'JavaScript:alert(1)', packages: [] })}`,
      `switchboard://install?name=${encodeURIComponent('javascript:alert(1)')}&config=${b64({ command: 'node' })}`,
      buildInstallLink('X', { type: 'sse', url: ' file:///tmp/x' }),
    ];
    for (const link of cases) expect((await failure(link)).code, link).toBe('url_refused');
    expect(await serverIds()).toEqual([]);
  });

  it('refuses other schemes, unknown actions, oversized and deeply nested links', async () => {
    expect((await failure('https://example.com/install?config=x')).code).toBe('url_refused');
    expect((await failure('switchboard://uninstall?config=e30')).message).toMatch(/only install links exist/);
    expect((await failure(`switchboard://install?config=${'A'.repeat(MAX_LINK_CHARS)}`)).code).toBe('limit_exceeded');
    let deep: unknown = { command: 'node' };
    for (let i = 0; i < 40; i++) deep = { x: deep };
    expect((await failure(`switchboard://install?config=${b64(deep)}`)).message).toMatch(/nests deeper/);
    expect((await failure('switchboard://install?config=%%%')).code).toBe('config_invalid');
    expect((await failure(`switchboard://install?config=${b64({ command: 'a' })}&server=${b64({})}`)).message).toMatch(/exactly one/);
  });

  it('prepares a registry reference from one of the person’s sources, and declines an unknown source', async () => {
    await call(h.dispatch, 'registry.addSource', { url: fixture.url });
    const link = `switchboard://install?registry=${encodeURIComponent(EVERYTHING_ENTRY)}&source=${encodeURIComponent(fixture.url)}`;
    const preview = await parse(link);
    const c = preview.candidates[0]!;
    expect(c.prepared?.origin).toEqual({ name: EVERYTHING_ENTRY, version: '2026.8.31', source: fixture.url });
    expect(c.prepared?.inputs.map((i) => i.key)).toEqual(['env:EVERYTHING_API_KEY', 'env:EVERYTHING_LOG_LEVEL']);
    expect(c.problems).toEqual([]);
    expect(c.target).toEqual({ name: EVERYTHING_ENTRY, source: fixture.url });
    expect(c.prepared?.missing).toEqual(['env:EVERYTHING_API_KEY']);
    const other = await parse(`switchboard://install?registry=a.b%2Fc&source=${encodeURIComponent('https://registry.evil.example')}`);
    expect(other.candidates[0]?.problems[0]).toMatch(/not one of your sources/);
    expect(fixture.requests.filter((r) => r.includes('a.b'))).toEqual([]);
  });

  it('keeps links the OS hands over until the renderer takes them, and announces each', async () => {
    const seen: unknown[] = [];
    h.host.events.subscribe((event, payload) => {
      if (event === 'registry.linkReceived') seen.push(payload);
    });
    h.registry.receiveLink('switchboard://install?config=e30');
    h.registry.receiveLink('https://not-ours.example');
    expect(seen).toEqual([{ count: 1 }]);
    expect(await call(h.dispatch, 'registry.takeLinks', {})).toEqual(['switchboard://install?config=e30']);
    expect(await call(h.dispatch, 'registry.takeLinks', {})).toEqual([]);
  });
});

describe('pasted definitions', () => {
  it('reads a Claude/Cursor mcp.json, a bare entry and a VS Code file with prompted secrets', async () => {
    const claude = await parse(
      JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'x'] }, web: { url: 'https://w.example.com/mcp' } } }),
    );
    expect(claude.kind).toBe('config');
    expect(claude.candidates.map((c) => [c.key, c.config?.transport.type])).toEqual([
      ['fs', 'stdio'],
      ['web', 'http'],
    ]);
    const bare = await parse('{ "command": "uvx", "args": ["mcp-server-fetch"], }');
    expect(bare.candidates[0]?.config).toMatchObject({ id: 'server', transport: { command: 'uvx', args: ['mcp-server-fetch'] } });
    const vscode = await parse(
      JSON.stringify({
        inputs: [{ type: 'promptString', id: 'key', description: 'Your API key', password: true }],
        servers: { gh: { type: 'stdio', command: 'gh-mcp', env: { GH_TOKEN: '${input:key}' } } },
      }),
    );
    expect(vscode.candidates[0]).toMatchObject({
      key: 'gh',
      secretPrompts: [{ envKey: 'GH_TOKEN', description: 'Your API key' }],
      config: { transport: { env: { GH_TOKEN: { secret: true } } } },
    });
    const invalid = await parse(JSON.stringify({ mcpServers: { broken: { command: 'node', args: 'x' } } }));
    expect(invalid.candidates[0]?.problems).toEqual(['"args" must be an array of strings']);
  });

  it('reads a pasted server.json as a prepared install', async () => {
    const preview = await parse(
      JSON.stringify({
        name: 'io.github.me/tool',
        description: 'T',
        version: '1.0.0',
        packages: [{ registryType: 'npm', identifier: '@me/tool', version: '1.0.0', transport: { type: 'stdio' } }],
      }),
    );
    expect(preview.kind).toBe('server.json');
    expect(preview.candidates[0]?.prepared?.config.transport).toMatchObject({ command: 'npx', args: ['-y', '@me/tool@1.0.0'] });
  });

  it('refuses text that is not a definition', async () => {
    expect((await failure('hello')).code).toBe('config_invalid');
    expect((await failure('{"foo": 1}')).message).toMatch(/No server definition found/);
    expect((await failure('javascript:alert(1)')).code).toBe('url_refused');
  });
});
