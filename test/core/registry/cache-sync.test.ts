// Incremental sync of the cached listings against the fixture registry: `updated_since` and `include_deleted` are
// sent, a changed entry replaces its cached copy, and a deleted one disappears from what is shown offline.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RegistrySearchResult } from '../../../shared/domains/registry.js';
import { startFixtureRegistry, type FixtureRegistry } from '../../fixtures/registry/registry-server.js';
import { call, cleanup, tempDir } from '../../shared/support/harness.js';
import { makeRegistryHost, type RegistryHarness } from './helpers.js';

const MEMORY = 'io.github.modelcontextprotocol/memory';
const WEATHER = 'io.github.example/weather-mcp';

let dir: string;
let fixture: FixtureRegistry;
let h: RegistryHarness;
beforeEach(async () => {
  dir = tempDir('sb-registry-sync-');
  fixture = await startFixtureRegistry();
  h = makeRegistryHost(dir);
  await call(h.dispatch, 'registry.addSource', { url: fixture.url });
});
afterEach(async () => {
  await fixture.close();
  cleanup(dir);
});

const search = (query: string) => call<RegistrySearchResult>(h.dispatch, 'registry.search', { query, source: fixture.url, limit: 100 });

describe('incremental cache sync', () => {
  it('asks for changes since the cached listing, including deleted entries, and applies them', async () => {
    const first = await search('');
    expect(first.servers.map((s) => s.name)).toEqual(expect.arrayContaining([MEMORY, WEATHER]));

    fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    fixture.setStatus(WEATHER, 'deprecated', 'Use weather-2');
    const results = await h.registry.syncCache();
    expect(results).toEqual([{ source: fixture.url, updated: 1, removed: 1 }]);
    const asked = fixture.requests.filter((r) => r.includes('updated_since='));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('include_deleted=true');

    // Offline, the cached listing no longer has the deleted entry and shows the new status of the changed one.
    await fixture.close();
    const offline = await search('');
    expect(offline.offline).toBeDefined();
    const names = offline.servers.map((s) => s.name);
    expect(names).not.toContain(MEMORY);
    expect(offline.servers.find((s) => s.name === WEATHER)).toMatchObject({ status: 'deprecated', statusMessage: 'Use weather-2' });
  });

  it('the next sync starts where the last one did, so nothing already applied is asked again', async () => {
    await search('');
    await h.registry.syncCache();
    const firstSince = new URL(
      fixture.requests.find((r) => r.includes('updated_since='))!,
      'http://x',
    ).searchParams.get('updated_since');
    fixture.setStatus(MEMORY, 'deleted');
    expect(await h.registry.syncCache()).toEqual([{ source: fixture.url, updated: 0, removed: 1 }]);
    const sinces = fixture.requests
      .filter((r) => r.includes('updated_since='))
      .map((r) => new URL(r, 'http://x').searchParams.get('updated_since')!);
    expect(sinces).toHaveLength(2);
    expect(Date.parse(sinces[1]!)).toBeGreaterThanOrEqual(Date.parse(firstSince!));
  });

  it('runs with the update check, and a registry that cannot be reached keeps the cache as it was', async () => {
    await search('');
    await call(h.dispatch, 'registry.updates', {});
    expect(fixture.requests.some((r) => r.includes('updated_since='))).toBe(true);
    await fixture.close();
    const [result] = await h.registry.syncCache();
    expect(result).toMatchObject({ source: fixture.url, updated: 0, removed: 0, error: expect.stringMatching(/could not be reached/) });
    expect((await search('')).servers.map((s) => s.name)).toContain(MEMORY);
  });
});
