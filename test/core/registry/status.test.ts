// Entry status from the fixture registry: a deprecated entry installs only after its warning, a deleted one is
// refused with a typed error, and an installed server whose entry became deprecated or deleted is flagged.
import { describe, expect, it } from 'vitest';
import type { PreparedInstall, RegistryEntry, RegistrySearchResult, RegistryUpdate } from '../../../shared/domains/registry.js';
import type { AppErrorData } from '../../../shared/errors.js';
import { call } from '../../shared/support/harness.js';
import { useFixtureRegistry } from './helpers.js';

const DEPRECATED = 'io.github.example/old-weather';
const DELETED = 'io.github.example/removed-server';
const MEMORY = 'io.github.modelcontextprotocol/memory';

const world = useFixtureRegistry('sb-registry-status-');

async function failure(method: string, args: unknown): Promise<AppErrorData> {
  const env = await world.h.dispatch(method, args);
  if (env.ok) throw new Error(`${method} unexpectedly succeeded`);
  return env.error;
}

describe('entry status', () => {
  it('carries the status, its message and when it changed on search results', async () => {
    const r = await call<RegistrySearchResult>(world.h.dispatch, 'registry.search', { query: 'e', source: world.fixture.url, limit: 100 });
    const find = (name: string): RegistryEntry | undefined => r.servers.find((s) => s.name === name);
    expect(find(DEPRECATED)).toMatchObject({
      status: 'deprecated',
      statusMessage: 'Use io.github.example/weather-mcp instead',
      statusChangedAt: '2025-11-25T09:00:00Z',
    });
    expect(find(DELETED)).toMatchObject({ status: 'deleted', statusChangedAt: '2025-11-26T09:00:00Z' });
  });

  it('warns before installing a deprecated entry, first among the warnings, and still installs it', async () => {
    const prepared = await call<PreparedInstall>(world.h.dispatch, 'registry.prepare', { name: DEPRECATED, source: world.fixture.url });
    expect(prepared.entry.status).toBe('deprecated');
    expect(prepared.warnings[0]).toBe('This entry is deprecated by its registry: Use io.github.example/weather-mcp instead');
    const detail = await call<{ id: string }>(world.h.dispatch, 'registry.install', { name: DEPRECATED, source: world.fixture.url });
    expect(detail.id).toBe('old-weather');
  });

  it('refuses a deleted entry with entry_deleted, in prepare and install, and saves nothing', async () => {
    for (const method of ['registry.prepare', 'registry.install']) {
      const err = await failure(method, { name: DELETED, source: world.fixture.url });
      expect(err.code).toBe('entry_deleted');
      expect(err.message).toContain('Withdrawn by its publisher');
    }
    expect(await call(world.h.dispatch, 'servers.list', {})).toEqual([]);
  });

  it('flags an installed server whose entry became deprecated, then deleted (and offers no update to it)', async () => {
    await call(world.h.dispatch, 'registry.install', { name: MEMORY, source: world.fixture.url });
    const before = await call<RegistryUpdate[]>(world.h.dispatch, 'registry.updates', {});
    expect(before).toHaveLength(1);
    expect(before[0]!.status).toBeUndefined();

    world.fixture.setStatus(MEMORY, 'deprecated', 'Moved to io.github.example/memory-2');
    const deprecated = await call<RegistryUpdate[]>(world.h.dispatch, 'registry.updates', {});
    expect(deprecated[0]).toMatchObject({ status: 'deprecated', statusMessage: 'Moved to io.github.example/memory-2' });

    world.fixture.setStatus(MEMORY, 'deleted', 'Withdrawn');
    const deleted = await call<RegistryUpdate[]>(world.h.dispatch, 'registry.updates', {});
    expect(deleted[0]).toMatchObject({ status: 'deleted', statusMessage: 'Withdrawn', updateAvailable: false });
    expect(deleted[0]!.error).toBeUndefined();
    const id = deleted[0]!.id;
    expect((await failure('registry.previewUpdate', { id })).code).toBe('entry_deleted');
  });
});
