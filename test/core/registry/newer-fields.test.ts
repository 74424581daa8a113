// The newer server.json fields through the contract against the fixture registry: post-install steps (shown, never
// run), remote URLs that start with a template variable, and remotes that need a secret header.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerDetail } from '../../../shared/contract.js';
import { headerSecretAccount } from '../../../electron/core/servers/secrets.js';
import type { PreparedInstall } from '../../../shared/domains/registry.js';
import { LEADING_VARIABLE_ENTRY, POST_INSTALL_ENTRY, SECRET_HEADER_ENTRY } from '../../fixtures/registry/entries.js';
import { call } from '../../shared/support/harness.js';
import { useFixtureRegistry } from './helpers.js';

const world = useFixtureRegistry('sb-registry-newer-');

describe('post-install instructions', () => {
  it('are returned as steps with commands as text and https links only', async () => {
    const prepared = await call<PreparedInstall>(world.h.dispatch, 'registry.prepare', {
      name: POST_INSTALL_ENTRY,
      source: world.fixture.url,
    });
    expect(prepared.postInstall).toEqual([
      { description: 'Register the companion service', command: 'mind-map service install --addr 127.0.0.1:4242', optional: false },
      { description: 'Read how the <b>web UI</b> works', documentation: 'https://example.com/mind-map#service', optional: true },
      { description: 'A link that is not https is dropped', optional: true },
    ]);
  });

  it('are never part of the launch', async () => {
    const prepared = await call<PreparedInstall>(world.h.dispatch, 'registry.prepare', {
      name: POST_INSTALL_ENTRY,
      source: world.fixture.url,
    });
    expect(JSON.stringify(prepared.config)).not.toContain('mind-map service');
  });
});

describe('a remote URL that starts with a template variable', () => {
  const prepare = (baseUrl?: string) =>
    call<PreparedInstall>(world.h.dispatch, 'registry.prepare', {
      name: LEADING_VARIABLE_ENTRY,
      source: world.fixture.url,
      ...(baseUrl !== undefined ? { values: { 'url:var:baseUrl': baseUrl } } : {}),
    });

  it('asks for the variable like any other input', async () => {
    const prepared = await prepare();
    expect(prepared.inputs).toEqual([
      expect.objectContaining({ key: 'url:var:baseUrl', kind: 'url', label: 'baseUrl', required: true, secret: false }),
    ]);
    expect(prepared.missing).toEqual(['url:var:baseUrl']);
  });

  it('builds the URL from an http(s) value', async () => {
    const prepared = await prepare('https://mcp.example.com');
    expect(prepared.missing).toEqual([]);
    expect(prepared.config.transport).toMatchObject({ type: 'http', url: 'https://mcp.example.com/mcp' });
  });

  it.each(['javascript:alert(1)//', 'file:///etc', 'ftp://example.com', 'data:text/html,x'])(
    'blocks a value giving another scheme: %s',
    async (value) => {
      const prepared = await prepare(value);
      expect(prepared.missing).toEqual(['url:var:baseUrl']);
      expect(prepared.warnings.join('\n')).toMatch(/URL: (Only http and https URLs are allowed|Not a valid URL)/);
      const env = await world.h.dispatch('registry.install', {
        name: LEADING_VARIABLE_ENTRY,
        source: world.fixture.url,
        values: { 'url:var:baseUrl': value },
      });
      expect(env.ok).toBe(false);
      expect(await call(world.h.dispatch, 'servers.list', {})).toEqual([]);
    },
  );
});

describe('a remote with a secret header', () => {
  it('asks for the header like the Add dialog does, with no dead end', async () => {
    const prepared = await call<PreparedInstall>(world.h.dispatch, 'registry.prepare', {
      name: SECRET_HEADER_ENTRY,
      source: world.fixture.url,
    });
    expect(prepared.inputs).toEqual([
      expect.objectContaining({ key: 'header:X-Notes-Key', kind: 'header', required: true, secret: true }),
      expect.objectContaining({ key: 'header:X-Notes-Region', kind: 'header', secret: false, value: 'eu' }),
    ]);
    expect(prepared.missing).toEqual(['header:X-Notes-Key']);
    expect(prepared.warnings.join('\n')).not.toMatch(/cannot be stored/);
    expect(prepared.config.transport).toMatchObject({ headers: { 'X-Notes-Key': { secret: true }, 'X-Notes-Region': 'eu' } });
  });

  it('installs with the secret in the credential store, never in the settings file or an export', async () => {
    const secret = 'CANARY_notes_key_5f2c';
    const detail = await call<ServerDetail>(world.h.dispatch, 'registry.install', {
      name: SECRET_HEADER_ENTRY,
      source: world.fixture.url,
      values: { 'header:X-Notes-Key': secret },
    });
    expect(detail.config.transport).toMatchObject({
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Notes-Key': { secret: true }, 'X-Notes-Region': 'eu' },
    });
    expect(await world.h.credentials.get(headerSecretAccount(detail.id, 'X-Notes-Key'))).toBe(secret);
    expect(readFileSync(join(world.dir, 'config.json'), 'utf8')).not.toContain(secret);
    for (const format of ['vscode', 'claude', 'cursor'] as const) {
      const exported = await call<{ text: string }>(world.h.dispatch, 'servers.export', { format });
      expect(exported.text).toContain('X-Notes-Region');
      expect(exported.text).not.toContain(secret);
    }
    expect(JSON.stringify(await call(world.h.dispatch, 'servers.list', {}))).not.toContain(secret);
  });

  it('keeps the stored secret header through an update', async () => {
    const detail = await call<ServerDetail>(world.h.dispatch, 'registry.install', {
      name: SECRET_HEADER_ENTRY,
      source: world.fixture.url,
      values: { 'header:X-Notes-Key': 'CANARY_kept' },
    });
    const preview = await call<{ prepared: PreparedInstall }>(world.h.dispatch, 'registry.previewUpdate', { id: detail.id });
    expect(preview.prepared.missing).toEqual([]);
    expect(await world.h.credentials.get(headerSecretAccount(detail.id, 'X-Notes-Key'))).toBe('CANARY_kept');
  });
});
