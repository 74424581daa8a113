// Registry sources and search against the fixture registry through the contract: paging, search, statuses, which
// options can run here, malformed entries skipped with reasons, hostile answers refused (50 MiB at the cap, not JSON,
// redirects to another host), and the on-disk cache when the registry is down.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OFFICIAL_REGISTRY_URL,
  type RegistryEntry,
  type RegistrySearchResult,
  type RegistrySource,
} from '../../../shared/domains/registry.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { REGISTRY_MAX_BYTES } from '../../../electron/core/registry/registry-http.js';
import { PrintingUrlOpener } from '../../../electron/core/elicitation/url-opener.js';
import { startFixtureRegistry, type FixtureRegistry } from '../../fixtures/registry/registry-server.js';
import { EVERYTHING_ENTRY, MULTI_VERSION_ENTRY } from '../../fixtures/registry/entries.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, type RegistryHarness } from './helpers.js';

let dir: string;
let fixture: FixtureRegistry;
let h: RegistryHarness;
beforeEach(async () => {
  dir = tempDir('sb-registry-');
  fixture = await startFixtureRegistry();
  h = makeRegistryHost(dir);
});
afterEach(async () => {
  await fixture.close();
  cleanup(dir);
});

async function failure(method: string, args: unknown): Promise<AppErrorData> {
  const env = await h.dispatch(method, args);
  if (env.ok) throw new Error(`${method} unexpectedly succeeded: ${JSON.stringify(env.value).slice(0, 300)}`);
  return env.error;
}
const search = (args: Record<string, unknown>) => call<RegistrySearchResult>(h.dispatch, 'registry.search', args);
const byName = (r: RegistrySearchResult, name: string): RegistryEntry => {
  const e = r.servers.find((s) => s.name === name);
  if (!e) throw new Error(`no ${name} in ${r.servers.map((s) => s.name).join(', ')}`);
  return e;
};

describe('registry sources', () => {
  it('starts with the official registry, adds and removes sub-registries, and persists them', async () => {
    expect(await call<RegistrySource[]>(h.dispatch, 'registry.sources', {})).toEqual([{ url: OFFICIAL_REGISTRY_URL, official: true }]);
    const added = await call<RegistrySource[]>(h.dispatch, 'registry.addSource', { url: `${fixture.url}/` });
    expect(added).toEqual([
      { url: OFFICIAL_REGISTRY_URL, official: true },
      { url: fixture.url, official: false },
    ]);
    const file = JSON.parse(readFileSync(join(dir, 'registry-sources.json'), 'utf8')) as { sources: string[] };
    expect(file.sources).toEqual([OFFICIAL_REGISTRY_URL, fixture.url]);
    expect(await call(h.dispatch, 'registry.removeSource', { url: OFFICIAL_REGISTRY_URL })).toEqual([
      { url: fixture.url, official: false },
    ]);
    // A fresh service over the same folder reads the same list.
    const again = makeRegistryHost(dir);
    expect(await call(again.dispatch, 'registry.sources', {})).toEqual([{ url: fixture.url, official: false }]);
  });

  it('refuses URLs that are not https (or http on loopback), carry credentials, or are not URLs', async () => {
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'http://registry.example.com',
      'https://user:pw@registry.example.com',
      'not a url',
      'https://r.example.com/?q=1',
    ]) {
      const error = await failure('registry.addSource', { url });
      expect(error.code, url).toBe('url_refused');
    }
    expect(await call<RegistrySource[]>(h.dispatch, 'registry.sources', {})).toHaveLength(1);
  });

  it('only searches sources the person added', async () => {
    const error = await failure('registry.search', { query: '', source: fixture.url });
    expect(error).toMatchObject({ code: 'not_found' });
    expect(error.message).toMatch(/not one of your registry sources/);
    expect(fixture.requests).toEqual([]);
  });
});

describe('registry search', () => {
  beforeEach(async () => {
    await call(h.dispatch, 'registry.addSource', { url: fixture.url });
  });

  it('pages through latest versions with the cursor, and asks with search, limit, cursor and version=latest', async () => {
    const first = await search({ query: '', source: fixture.url, limit: 20 });
    expect(first.servers).toHaveLength(20 - first.skipped.length);
    expect(first.nextCursor).toBeDefined();
    expect(fixture.requests[0]).toBe('/v0.1/servers?limit=20&version=latest');
    const second = await search({ query: '', source: fixture.url, limit: 20, cursor: first.nextCursor });
    expect(fixture.requests[1]).toBe(`/v0.1/servers?limit=20&version=latest&cursor=${first.nextCursor}`);
    const names = [...first.servers, ...second.servers].map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain(EVERYTHING_ENTRY);
    expect(names).toContain('io.github.fixture/tool-14');
    // Malformed entries (on the second page) are skipped, each with its reason.
    const skipped = [...first.skipped, ...second.skipped];
    expect(skipped).toHaveLength(4);
    expect(skipped.map((s) => s.reason).join('\n')).toMatch(/name/);
    expect(skipped.find((s) => s.name === 'com.example/bad-packages')?.reason).toMatch(/packages/);
    expect(skipped.some((s) => /no "server" object/.test(s.reason))).toBe(true);
    // The multi-version entry appears once, at its latest version.
    expect(names.filter((n) => n === MULTI_VERSION_ENTRY)).toHaveLength(1);
    const all = [...first.servers, ...second.servers];
    expect(all.find((s) => s.name === MULTI_VERSION_ENTRY)?.version).toBe('2.0.0');
  });

  it('searches by name and shows title, description, version, repository, status and what can run here', async () => {
    const r = await search({ query: 'weather', source: fixture.url });
    expect(fixture.requests.at(-1)).toBe('/v0.1/servers?search=weather&limit=30&version=latest');
    expect(r.servers.map((s) => s.name).sort()).toEqual(['io.github.example/old-weather', 'io.github.example/weather-mcp']);
    const weather = byName(r, 'io.github.example/weather-mcp');
    expect(weather).toMatchObject({
      title: 'Weather',
      version: '0.5.0',
      status: 'active',
      source: fixture.url,
      repositoryUrl: 'https://github.com/example/weather-mcp',
    });
    expect(weather.options).toEqual([
      expect.objectContaining({
        kind: 'package',
        registryType: 'pypi',
        identifier: 'weather-mcp-server',
        transport: 'stdio',
        runnable: true,
      }),
    ]);
    expect(weather.options[0]?.runtime).toEqual({ command: 'uvx', path: join(dir, 'bin', 'uvx') });
    const old = byName(r, 'io.github.example/old-weather');
    expect(old).toMatchObject({ status: 'deprecated', statusMessage: 'Use io.github.example/weather-mcp instead' });
  });

  it('marks deleted entries and options this machine cannot run, with the reason', async () => {
    const all = await search({ query: '', source: fixture.url, limit: 100 });
    expect(byName(all, 'io.github.example/removed-server')).toMatchObject({
      status: 'deleted',
      statusMessage: 'Withdrawn by its publisher',
    });
    const db = byName(all, 'io.github.example/database-manager').options[0];
    expect(db).toMatchObject({ registryType: 'oci', runnable: false });
    expect(db?.reason).toMatch(/docker was not found on your PATH/);
    expect(byName(all, 'io.github.joelverhagen/knapcode-samplemcpserver').options[0]).toMatchObject({
      runnable: false,
      reason: 'Switchboard cannot run nuget packages',
    });
    expect(byName(all, 'com.example/local-http').options[0]?.reason).toMatch(/serves HTTP on this machine/);
    expect(byName(all, 'com.example/hostile-dash').options[0]?.reason).toMatch(/begins with "-"/);
    expect(byName(all, 'com.example/hostile-range').options[0]?.reason).toMatch(/is a range/);
    const hybrid = byName(all, 'io.github.example/hybrid-mcp').options;
    expect(hybrid.map((o) => [o.kind, o.transport, o.runnable])).toEqual([
      ['package', 'stdio', true],
      ['remote', 'sse', true],
      ['remote', 'http', true],
    ]);
  });

  it('shows server text inert: control, ANSI and bidi characters removed, only https links kept', async () => {
    const r = await search({ query: 'hostile-text', source: fixture.url });
    const e = byName(r, 'com.example/hostile-text');
    expect(e.title).toBe('Hostile text evil');
    expect(e.description).toBe('<script>alert(1)</script> with  bell and  zero-width');
    expect(e.repositoryUrl).toBeUndefined();
    expect(e.websiteUrl).toBeUndefined();
  });

  it('opens only the links of entries it showed, through the safe opener', async () => {
    const opener = new PrintingUrlOpener(() => undefined);
    await h.host.shutdown();
    h = makeRegistryHost(dir, { ports: { urlOpener: opener } });
    const before = await h.dispatch('registry.openLink', { url: 'https://github.com/example/weather-mcp' });
    expect(before.ok).toBe(false);
    const r = await search({ query: 'weather', source: fixture.url });
    const link = byName(r, 'io.github.example/weather-mcp').repositoryUrl!;
    await call(h.dispatch, 'registry.openLink', { url: link });
    expect(opener.opened).toEqual([link]);
    for (const url of ['https://evil.example/', 'javascript:alert(1)', 'file:///etc/passwd']) {
      const env = await h.dispatch('registry.openLink', { url });
      expect(env.ok, url).toBe(false);
      if (!env.ok) expect(env.error.code).toBe('url_refused');
    }
    expect(opener.opened).toEqual([link]);
  });

  it('refuses a 50 MiB answer at the cap while it streams', async () => {
    // A generous timeout: under load, reading 8 MiB must not be mistaken for a slow registry.
    h = makeRegistryHost(dir, { timeoutMs: 60_000 });
    await call(h.dispatch, 'registry.addSource', { url: fixture.hugeUrl });
    const error = await failure('registry.search', { query: '', source: fixture.hugeUrl });
    expect(error.code).toBe('limit_exceeded');
    expect(error.message).toMatch(/larger than 8 MiB/);
    await expect.poll(() => fixture.hugeBytesWritten(), { timeout: 10_000 }).toBeGreaterThan(0);
    // The connection was dropped near the cap: far less than the 50 MiB the server meant to send went out.
    expect(fixture.hugeBytesWritten()).toBeLessThan(REGISTRY_MAX_BYTES + 8 * 1024 * 1024);
  });

  it('reports an answer that is not JSON', async () => {
    await call(h.dispatch, 'registry.addSource', { url: fixture.malformedUrl });
    const error = await failure('registry.search', { query: '', source: fixture.malformedUrl });
    expect(error).toMatchObject({ code: 'server_error' });
    expect(error.message).toMatch(/not valid JSON/);
  });

  it('refuses a redirect to another host', async () => {
    await call(h.dispatch, 'registry.addSource', { url: fixture.redirectUrl });
    const error = await failure('registry.search', { query: '', source: fixture.redirectUrl });
    expect(error.code).toBe('redirect_refused');
    expect(error.message).toMatch(/to http:\/\/localhost:\d+\/v0\.1\/servers; redirects to another host are refused/);
    expect(fixture.requests.filter((r) => r.startsWith('/v0.1/'))).toEqual([]);
  });

  it('says when a registry does not answer in time', async () => {
    const slow = makeRegistryHost(tempDir('sb-registry-slow-'), { timeoutMs: 300 });
    await call(slow.dispatch, 'registry.addSource', { url: fixture.slowUrl });
    const env = await slow.dispatch('registry.search', { query: '', source: fixture.slowUrl });
    expect(env.ok).toBe(false);
    if (!env.ok) expect(env.error).toMatchObject({ code: 'timeout' });
    cleanup(slow.dir);
  });

  it('offline: shows the last cached listing with a clear message, and filters it for a new query', async () => {
    const online = await search({ query: '', source: fixture.url, limit: 100 });
    expect(online.offline).toBeUndefined();
    await h.registry.flush();
    await fixture.close();
    // A fresh service over the same folder: the cache came from disk.
    const later = makeRegistryHost(dir);
    const offline = await call<RegistrySearchResult>(later.dispatch, 'registry.search', { query: '', source: fixture.url, limit: 100 });
    expect(offline.offline?.message).toMatch(
      /could not be reached: the connection was refused\. Showing the last listing saved on this machine/,
    );
    expect(offline.offline?.cachedAt).toBeGreaterThan(0);
    expect(offline.servers.map((s) => s.name)).toEqual(online.servers.map((s) => s.name));
    const filtered = await call<RegistrySearchResult>(later.dispatch, 'registry.search', { query: 'memory', source: fixture.url });
    expect(filtered.offline).toBeDefined();
    expect(filtered.servers.map((s) => s.name)).toEqual(['io.github.modelcontextprotocol/memory']);
    // Nothing cached for this source and query: the error itself.
    const nothing = await later.dispatch('registry.search', { query: 'zzz-nothing', source: fixture.url });
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) expect(nothing.error).toMatchObject({ code: 'connect_failed' });
    fixture = await startFixtureRegistry();
  });
});
