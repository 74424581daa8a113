// Incremental sync of the cached listings against the fixture registry (which lists deleted entries only when asked,
// as the official one does): `updated_since` and `include_deleted` are sent, a changed entry replaces its cached
// copy, a deleted one disappears from what is shown offline, and installed servers whose entry changed are named.
import { describe, expect, it } from 'vitest';
import type { RegistrySearchResult, RegistrySource, RegistrySyncReport, RegistryUpdate } from '../../../shared/domains/registry.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { startFixtureRegistry } from '../../fixtures/registry/registry-server.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, useFixtureRegistry } from './helpers.js';

const MEMORY = 'io.github.modelcontextprotocol/memory';
const WEATHER = 'io.github.example/weather-mcp';
const REMOVED = 'io.github.example/removed-server';

const world = useFixtureRegistry('sb-registry-sync-', { officialDeleted: true, maxLimit: 5 });

const search = (query: string) =>
  call<RegistrySearchResult>(world.h.dispatch, 'registry.search', { query, source: world.fixture.url, limit: 100 });
const sync = (source?: string) => call<RegistrySyncReport>(world.h.dispatch, 'registry.sync', source !== undefined ? { source } : {});
const sinceOf = (request: string): string => new URL(request, 'http://x').searchParams.get('updated_since')!;
const syncRequests = (): string[] => world.fixture.requests.filter((r) => r.includes('updated_since='));

describe('incremental cache sync', () => {
  it('asks for changes since the cached listing, including deleted entries, and applies them', async () => {
    const first = await search('');
    const names = first.servers.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining([MEMORY, WEATHER]));
    // Deleted entries are listed only when asked for, as by the official registry.
    expect(names).not.toContain(REMOVED);

    world.fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    world.fixture.setStatus(WEATHER, 'deprecated', 'Use weather-2');
    const report = await sync(world.fixture.url);
    expect(report.results).toEqual([{ source: world.fixture.url, syncedAt: expect.any(Number), updated: 1, removed: 1 }]);
    expect(report.statusChanges).toEqual([]);
    const asked = syncRequests();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('include_deleted=true');

    // Offline, the cached listing no longer has the deleted entry and shows the new status of the changed one.
    await world.fixture.close();
    const offline = await search('');
    expect(offline.offline).toBeDefined();
    expect(offline.servers.map((s) => s.name)).not.toContain(MEMORY);
    expect(offline.servers.find((s) => s.name === WEATHER)).toMatchObject({ status: 'deprecated', statusMessage: 'Use weather-2' });
  });

  it('a deleted entry’s saved copy goes too, so it cannot be prepared offline from this machine', async () => {
    await search('');
    await call(world.h.dispatch, 'registry.prepare', { name: MEMORY, source: world.fixture.url });
    world.fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    expect((await sync(world.fixture.url)).results[0]).toMatchObject({ removed: 1 });
    await world.fixture.close();
    const env = await world.h.dispatch('registry.prepare', { name: MEMORY, source: world.fixture.url });
    expect(env.ok ? undefined : (env.error as AppErrorData).code).toBe('connect_failed');
  });

  it('the next sync starts from the newest change the registry reported, and a change seen twice counts once', async () => {
    await search('');
    await sync(world.fixture.url);
    const firstSince = sinceOf(syncRequests()[0]!);
    world.fixture.setStatus(MEMORY, 'deprecated', 'Moved');
    expect((await sync(world.fixture.url)).results[0]).toMatchObject({ updated: 1, removed: 0 });
    const changedAt = Date.parse(sinceOf(syncRequests()[1]!));
    expect(changedAt).toBeGreaterThanOrEqual(Date.parse(firstSince));
    // The third sync asks from the change's own time (the registry's clock); the fixture answers inclusively, so the
    // same change comes back, and it is not counted again.
    expect((await sync(world.fixture.url)).results[0]).toMatchObject({ updated: 0, removed: 0 });
    const third = sinceOf(syncRequests()[2]!);
    expect(Date.parse(third)).toBeGreaterThanOrEqual(changedAt);
  });

  it('pages through a long answer with the registry’s cursor', async () => {
    // Two cached pages of five; seven of their entries change, which the sync reads in two pages.
    const first = await search('');
    const second = await call<RegistrySearchResult>(world.h.dispatch, 'registry.search', {
      query: '',
      source: world.fixture.url,
      cursor: first.nextCursor!,
    });
    const changed = [...first.servers, ...second.servers].map((s) => s.name).slice(0, 7);
    expect(changed).toHaveLength(7);
    for (const name of changed) world.fixture.setStatus(name, 'deprecated', 'Bulk');
    const report = await sync(world.fixture.url);
    expect(report.results[0]).toMatchObject({ updated: 7, removed: 0 });
    expect(report.results[0]!.error).toBeUndefined();
    const asked = syncRequests();
    expect(asked).toHaveLength(2);
    expect(asked[1]).toContain('cursor=');
    await world.fixture.close();
    const offline = [...(await search('')).servers];
    const offlineSecond = await call<RegistrySearchResult>(world.h.dispatch, 'registry.search', {
      query: '',
      source: world.fixture.url,
      cursor: first.nextCursor!,
    });
    offline.push(...offlineSecond.servers);
    for (const name of changed) expect(offline.find((s) => s.name === name)?.status, name).toBe('deprecated');
  });

  it('names installed servers whose entry changed status, and an entry active again clears the flag', async () => {
    const installed = await call<{ id: string }>(world.h.dispatch, 'registry.install', { name: MEMORY, source: world.fixture.url });
    await search('');
    world.fixture.setStatus(MEMORY, 'deprecated', 'Moved to memory-2');
    expect((await sync()).statusChanges).toEqual([
      { id: installed.id, name: MEMORY, source: world.fixture.url, status: 'deprecated', statusMessage: 'Moved to memory-2' },
    ]);
    world.fixture.setStatus(MEMORY, 'active');
    expect((await sync()).statusChanges).toEqual([{ id: installed.id, name: MEMORY, source: world.fixture.url, status: 'active' }]);
  });

  it('a deleted installed entry stays flagged by the update check once its registry cannot be reached', async () => {
    const installed = await call<{ id: string }>(world.h.dispatch, 'registry.install', { name: MEMORY, source: world.fixture.url });
    await search('');
    world.fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    expect((await sync()).statusChanges[0]).toMatchObject({ id: installed.id, status: 'deleted', statusMessage: 'Withdrawn' });
    await world.fixture.close();
    const [update] = await call<RegistryUpdate[]>(world.h.dispatch, 'registry.updates', {});
    expect(update).toMatchObject({ id: installed.id, status: 'deleted', statusMessage: 'Withdrawn', updateAvailable: false });
    expect(update!.error).toMatch(/could not be reached/);
  });

  it('the sources carry when each was last synced, pushed with registry.sourcesChanged', async () => {
    const pushed: RegistrySource[][] = [];
    world.h.host.events.subscribe((name, payload) => {
      if (name === 'registry.sourcesChanged') pushed.push((payload as { sources: RegistrySource[] }).sources);
    });
    const before = await call<RegistrySource[]>(world.h.dispatch, 'registry.sources', {});
    expect(before.find((s) => s.url === world.fixture.url)?.lastSyncedAt).toBeUndefined();
    // Nothing cached yet: the sync still asks (from now), so "last synced" means the registry answered.
    const report = await sync(world.fixture.url);
    expect(syncRequests()).toHaveLength(1);
    const after = await call<RegistrySource[]>(world.h.dispatch, 'registry.sources', {});
    expect(after.find((s) => s.url === world.fixture.url)?.lastSyncedAt).toBe(report.results[0]!.syncedAt);
    expect(pushed.at(-1)?.find((s) => s.url === world.fixture.url)?.lastSyncedAt).toBe(report.results[0]!.syncedAt);
  });

  it('runs with the update check, and a registry that cannot be reached keeps the cache and its last sync time', async () => {
    await search('');
    await call(world.h.dispatch, 'registry.updates', {});
    expect(syncRequests()).toHaveLength(1);
    const synced = (await call<RegistrySource[]>(world.h.dispatch, 'registry.sources', {})).find((s) => s.url === world.fixture.url);
    await world.fixture.close();
    const [result] = (await sync(world.fixture.url)).results;
    expect(result).toEqual({ source: world.fixture.url, updated: 0, removed: 0, error: expect.stringMatching(/could not be reached/) });
    expect((await search('')).servers.map((s) => s.name)).toContain(MEMORY);
    const still = (await call<RegistrySource[]>(world.h.dispatch, 'registry.sources', {})).find((s) => s.url === world.fixture.url);
    expect(still?.lastSyncedAt).toBe(synced?.lastSyncedAt);
  });

  it('refuses a source that is not one of yours, and unknown arguments', async () => {
    const unknown = await world.h.dispatch('registry.sync', { source: 'https://elsewhere.example' });
    expect(unknown.ok ? undefined : (unknown.error as AppErrorData).code).toBe('not_found');
    const extra = await world.h.dispatch('registry.sync', { source: world.fixture.url, since: '2020-01-01' });
    expect(extra.ok ? undefined : (extra.error as AppErrorData).code).toBe('invalid_request');
  });
});

describe('a sync of every source', () => {
  it('syncs the sources side by side: the first source’s answer can wait for the second’s request', async () => {
    const dir = tempDir('sb-registry-sync-all-');
    const first = await startFixtureRegistry({ officialDeleted: true });
    const second = await startFixtureRegistry({ officialDeleted: true });
    // The first registry answers a sync only once the second has been asked: one after another, the first would
    // wait for it until its timeout; side by side both answer.
    let secondAsked!: () => void;
    const asked = new Promise<void>((resolve) => (secondAsked = resolve));
    const gated: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      // Only the fixtures: the built-in official source is not contacted from a test.
      if (!url.startsWith('http://127.0.0.1:')) throw new TypeError('fetch failed: not a fixture registry');
      if (url.startsWith(second.url) && url.includes('updated_since=')) secondAsked();
      if (url.startsWith(first.url) && url.includes('updated_since=')) {
        await new Promise<void>((resolve, reject) => {
          void asked.then(resolve);
          init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error), { once: true });
        });
      }
      return fetch(input, init);
    };
    const h = makeRegistryHost(dir, { fetch: gated });
    try {
      await call(h.dispatch, 'registry.addSource', { url: first.url });
      await call(h.dispatch, 'registry.addSource', { url: second.url });
      const report = await call<RegistrySyncReport>(h.dispatch, 'registry.sync', {});
      const mine = report.results.filter((r) => r.source === first.url || r.source === second.url);
      expect(mine.map((r) => [r.source, r.error])).toEqual([
        [first.url, undefined],
        [second.url, undefined],
      ]);
    } finally {
      await first.close();
      await second.close();
      cleanup(dir);
    }
  });
});
