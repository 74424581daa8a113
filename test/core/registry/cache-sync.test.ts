// Incremental sync of the cached listings against the fixture registry: `updated_since` and `include_deleted` are
// sent, a changed entry replaces its cached copy, and a deleted one disappears from what is shown offline.
import { describe, expect, it } from 'vitest';
import type { RegistrySearchResult } from '../../../shared/domains/registry.js';
import { call } from '../../shared/support/harness.js';
import { useFixtureRegistry } from './helpers.js';

const MEMORY = 'io.github.modelcontextprotocol/memory';
const WEATHER = 'io.github.example/weather-mcp';

const world = useFixtureRegistry('sb-registry-sync-');

const search = (query: string) =>
  call<RegistrySearchResult>(world.h.dispatch, 'registry.search', { query, source: world.fixture.url, limit: 100 });

describe('incremental cache sync', () => {
  it('asks for changes since the cached listing, including deleted entries, and applies them', async () => {
    const first = await search('');
    expect(first.servers.map((s) => s.name)).toEqual(expect.arrayContaining([MEMORY, WEATHER]));

    world.fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    world.fixture.setStatus(WEATHER, 'deprecated', 'Use weather-2');
    const results = await world.h.registry.syncCache();
    expect(results).toEqual([{ source: world.fixture.url, updated: 1, removed: 1 }]);
    const asked = world.fixture.requests.filter((r) => r.includes('updated_since='));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('include_deleted=true');

    // Offline, the cached listing no longer has the deleted entry and shows the new status of the changed one.
    await world.fixture.close();
    const offline = await search('');
    expect(offline.offline).toBeDefined();
    const names = offline.servers.map((s) => s.name);
    expect(names).not.toContain(MEMORY);
    expect(offline.servers.find((s) => s.name === WEATHER)).toMatchObject({ status: 'deprecated', statusMessage: 'Use weather-2' });
  });

  it('the next sync starts where the last one did, so nothing already applied is asked again', async () => {
    await search('');
    await world.h.registry.syncCache();
    const firstSince = new URL(
      world.fixture.requests.find((r) => r.includes('updated_since='))!,
      'http://x',
    ).searchParams.get('updated_since');
    world.fixture.setStatus(MEMORY, 'deleted');
    expect(await world.h.registry.syncCache()).toEqual([{ source: world.fixture.url, updated: 0, removed: 1 }]);
    const sinces = world.fixture.requests
      .filter((r) => r.includes('updated_since='))
      .map((r) => new URL(r, 'http://x').searchParams.get('updated_since')!);
    expect(sinces).toHaveLength(2);
    expect(Date.parse(sinces[1]!)).toBeGreaterThanOrEqual(Date.parse(firstSince!));
  });

  it('runs with the update check, and a registry that cannot be reached keeps the cache as it was', async () => {
    await search('');
    await call(world.h.dispatch, 'registry.updates', {});
    expect(world.fixture.requests.some((r) => r.includes('updated_since='))).toBe(true);
    await world.fixture.close();
    const [result] = await world.h.registry.syncCache();
    expect(result).toMatchObject({
      source: world.fixture.url,
      updated: 0,
      removed: 0,
      error: expect.stringMatching(/could not be reached/),
    });
    expect((await search('')).servers.map((s) => s.name)).toContain(MEMORY);
  });
});
