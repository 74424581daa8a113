// Installing from the fixture registry through the contract: prepare (nothing saved, secrets never echoed), install
// (secrets to the credential store and never the settings file, approval still required, origin remembered),
// update checks, the update preview with the changed launch, and applying it (approval required again).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerDetail } from '../../../shared/contract.js';
import type { PreparedInstall, RegistryUpdate, UpdatePreview } from '../../../shared/domains/registry.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { accounts } from '../../../electron/core/auth/credentials.js';
import { envSecretAccount } from '../../../electron/core/servers/secrets.js';
import { startFixtureRegistry, type FixtureRegistry } from '../../fixtures/registry/registry-server.js';
import { EVERYTHING_ENTRY, MULTI_VERSION_ENTRY } from '../../fixtures/registry/entries.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, type RegistryHarness } from './helpers.js';

let dir: string;
let fixture: FixtureRegistry;
let h: RegistryHarness;
beforeEach(async () => {
  dir = tempDir('sb-registry-install-');
  fixture = await startFixtureRegistry();
  h = makeRegistryHost(dir);
  await call(h.dispatch, 'registry.addSource', { url: fixture.url });
});
afterEach(async () => {
  await fixture.close();
  cleanup(dir);
});

const settingsText = () => readFileSync(join(dir, 'config.json'), 'utf8');
async function failure(method: string, args: unknown): Promise<AppErrorData> {
  const env = await h.dispatch(method, args);
  if (env.ok) throw new Error(`${method} unexpectedly succeeded`);
  return env.error;
}

describe('prepare', () => {
  it('returns the definition and its inputs, saves nothing, and never echoes a secret', async () => {
    const prepared = await call<PreparedInstall>(h.dispatch, 'registry.prepare', {
      name: EVERYTHING_ENTRY,
      source: fixture.url,
      values: { 'env:EVERYTHING_API_KEY': 'CANARY_prepare_secret', 'env:EVERYTHING_LOG_LEVEL': 'warn' },
    });
    expect(fixture.requests).toContain(`/v0.1/servers/${encodeURIComponent(EVERYTHING_ENTRY)}/versions/latest?include_deleted=true`);
    expect(prepared.origin).toEqual({ name: EVERYTHING_ENTRY, version: '2026.8.31', source: fixture.url });
    expect(prepared.entry).toMatchObject({ name: EVERYTHING_ENTRY, title: 'Everything (fixture)', status: 'active' });
    expect(prepared.config.transport).toEqual({
      type: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      env: { EVERYTHING_API_KEY: { secret: true }, EVERYTHING_LOG_LEVEL: 'warn' },
    });
    expect(prepared.missing).toEqual([]);
    expect(JSON.stringify(prepared)).not.toContain('CANARY_prepare_secret');
    expect(await call(h.dispatch, 'servers.list', {})).toEqual([]);
  });

  it('prepares a given version, and a pasted server.json', async () => {
    const old = await call<PreparedInstall>(h.dispatch, 'registry.prepare', {
      name: MULTI_VERSION_ENTRY,
      version: '1.0.0',
      source: fixture.url,
    });
    expect(old.origin.version).toBe('1.0.0');
    expect(old.config.transport).toMatchObject({ args: ['-y', '@example/multi-version-mcp@1.0.0'] });
    const serverJson = JSON.stringify({
      name: 'io.github.me/pasted',
      description: 'Pasted',
      version: '0.1.0',
      packages: [{ registryType: 'pypi', identifier: 'pasted-mcp', version: '0.1.0', transport: { type: 'stdio' } }],
    });
    const pasted = await call<PreparedInstall>(h.dispatch, 'registry.prepare', { serverJson });
    expect(pasted.origin).toEqual({ name: 'io.github.me/pasted', version: '0.1.0', source: 'pasted' });
    expect(pasted.config.transport).toMatchObject({ command: 'uvx', args: ['pasted-mcp==0.1.0'] });
    const bad = await failure('registry.prepare', { serverJson: '{"name":"x"}' });
    expect(bad.code).toBe('config_invalid');
    expect(bad.message).toMatch(/Not a valid server\.json/);
    const evil = await failure('registry.prepare', {
      serverJson: JSON.stringify({ ...JSON.parse(serverJson), websiteUrl: 'javascript:alert(1)' }),
    });
    expect(evil.code).toBe('url_refused');
  });

  it('says when the registry has no such entry', async () => {
    const error = await failure('registry.prepare', { name: 'com.example/nope', source: fixture.url });
    expect(error).toMatchObject({ code: 'not_found' });
  });
});

describe('install', () => {
  it('adds the server with its secret in the credential store only; the stdio launch still needs approval', async () => {
    const detail = await call<ServerDetail>(h.dispatch, 'registry.install', {
      name: EVERYTHING_ENTRY,
      source: fixture.url,
      values: { 'env:EVERYTHING_API_KEY': 'CANARY_install_secret' },
    });
    expect(detail).toMatchObject({ id: 'everything-fixture', name: 'Everything (fixture)', needsApproval: true });
    expect(detail.approval).toMatchObject({
      required: true,
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'],
      envKeys: ['EVERYTHING_API_KEY', 'EVERYTHING_LOG_LEVEL'],
    });
    expect(await h.credentials.get(envSecretAccount('everything-fixture', 'EVERYTHING_API_KEY'))).toBe('CANARY_install_secret');
    expect(settingsText()).not.toContain('CANARY_install_secret');
    expect(JSON.stringify(detail)).not.toContain('CANARY_install_secret');
    const installs = readFileSync(join(dir, 'registry-installs.json'), 'utf8');
    expect(JSON.parse(installs)).toEqual({
      v: 1,
      installs: { 'everything-fixture': { name: EVERYTHING_ENTRY, version: '2026.8.31', source: fixture.url, choice: 0, values: {} } },
    });
    expect(installs).not.toContain('CANARY_install_secret');
  });

  it('refuses to install with required values missing, or over an existing id', async () => {
    const missing = await failure('registry.install', { name: EVERYTHING_ENTRY, source: fixture.url });
    expect(missing).toMatchObject({ code: 'config_invalid' });
    expect(missing.message).toMatch(/Fill in EVERYTHING_API_KEY/);
    await call(h.dispatch, 'registry.install', { name: EVERYTHING_ENTRY, source: fixture.url, values: { 'env:EVERYTHING_API_KEY': 'a' } });
    const clash = await failure('registry.install', {
      name: EVERYTHING_ENTRY,
      source: fixture.url,
      id: 'everything-fixture',
      values: { 'env:EVERYTHING_API_KEY': 'b' },
    });
    expect(clash.code).toBe('id_conflict');
    expect(await h.credentials.get(envSecretAccount('everything-fixture', 'EVERYTHING_API_KEY'))).toBe('a');
    // Without an id, a second install gets a fresh one.
    const second = await call<ServerDetail>(h.dispatch, 'registry.install', {
      name: EVERYTHING_ENTRY,
      source: fixture.url,
      values: { 'env:EVERYTHING_API_KEY': 'b' },
    });
    expect(second.id).toBe('everything-fixture-2');
  });

  it('stores a remote Authorization secret as the bearer token, never in the settings file', async () => {
    const detail = await call<ServerDetail>(h.dispatch, 'registry.install', {
      name: 'com.example.cloud/tenant-mcp',
      source: fixture.url,
      values: { 'url:var:tenant': 'acme', 'header:Authorization:var:token': 'CANARY_bearer' },
    });
    expect(detail.config.transport).toEqual({
      type: 'http',
      url: 'https://acme.mcp.cloud.example.com/mcp',
      headers: { 'X-Client': 'switchboard' },
      allowInsecureHttp: false,
    });
    expect(await h.credentials.get(accounts.bearer(detail.id))).toBe('CANARY_bearer');
    expect(settingsText()).not.toContain('CANARY_bearer');
  });
});

describe('updates', () => {
  it('shows an update when the registry lists a newer version, previews the changed launch and needs approval again', async () => {
    await call(h.dispatch, 'registry.install', {
      name: MULTI_VERSION_ENTRY,
      version: '1.0.0',
      source: fixture.url,
      values: { 'env:MV_TOKEN': 'CANARY_mv' },
    });
    const id = 'multi-version';
    const approval = (await call<ServerDetail>(h.dispatch, 'servers.get', { id })).approval!;
    await call(h.dispatch, 'servers.approve', { id, fingerprint: approval.fingerprint });
    expect((await call<ServerDetail>(h.dispatch, 'servers.get', { id })).needsApproval).toBe(false);

    const updates = await call<RegistryUpdate[]>(h.dispatch, 'registry.updates', {});
    expect(updates).toEqual([
      { id, name: MULTI_VERSION_ENTRY, source: fixture.url, installed: '1.0.0', latest: '2.0.0', updateAvailable: true },
    ]);

    const preview = await call<UpdatePreview>(h.dispatch, 'registry.previewUpdate', { id });
    expect(preview).toMatchObject({ id, from: '1.0.0', to: '2.0.0' });
    expect(preview.changes).toEqual([
      'Command: npx -y @example/multi-version-mcp@1.0.0 → npx -y @example/multi-version-mcp@2.0.0 --cache on serve',
    ]);
    expect(preview.prepared.missing).toEqual([]);
    // Nothing changed yet.
    expect((await call<ServerDetail>(h.dispatch, 'servers.get', { id })).approval?.args).toEqual([
      '-y',
      '@example/multi-version-mcp@1.0.0',
    ]);

    const updated = await call<ServerDetail>(h.dispatch, 'registry.applyUpdate', { id, version: '2.0.0' });
    expect(updated.needsApproval).toBe(true);
    expect(updated.approval?.args).toEqual(['-y', '@example/multi-version-mcp@2.0.0', '--cache', 'on', 'serve']);
    // The stored secret was kept, and the settings the person chose survive.
    expect(await h.credentials.get(envSecretAccount(id, 'MV_TOKEN'))).toBe('CANARY_mv');
    expect(updated.config.transport).toMatchObject({ env: { MV_TOKEN: { secret: true, isSet: true } } });
    expect(await call<RegistryUpdate[]>(h.dispatch, 'registry.updates', {})).toEqual([
      { id, name: MULTI_VERSION_ENTRY, source: fixture.url, installed: '2.0.0', latest: '2.0.0', updateAvailable: false },
    ]);
  });

  it('shows installed versions on search results', async () => {
    await call(h.dispatch, 'registry.install', {
      name: MULTI_VERSION_ENTRY,
      version: '1.1.0',
      source: fixture.url,
      values: { 'env:MV_TOKEN': 'x' },
    });
    const r = await call<{ servers: { name: string; installed?: unknown }[] }>(h.dispatch, 'registry.search', {
      query: 'multi',
      source: fixture.url,
    });
    expect(r.servers.find((s) => s.name === MULTI_VERSION_ENTRY)?.installed).toEqual([
      { id: 'multi-version', version: '1.1.0', updateAvailable: true },
    ]);
  });

  it('forgets the origin of a removed server', async () => {
    await call(h.dispatch, 'registry.install', { name: MULTI_VERSION_ENTRY, source: fixture.url, values: { 'env:MV_TOKEN': 'x' } });
    await call(h.dispatch, 'servers.remove', { id: 'multi-version' });
    expect(await call(h.dispatch, 'registry.updates', {})).toEqual([]);
    const error = await failure('registry.previewUpdate', { id: 'multi-version' });
    expect(error.code).toBe('not_found');
  });
});
