// The registry slice: the chosen source is remembered for the next visit; "Sync all" syncs the sources at most
// SYNC_CONCURRENCY at once, each source's progress and result (or error) its own, merged into one report as each
// ends, so one failing source never hides the others' results; a later one-source sync replaces only its own line.
// The preload's side of registry.* is answered by the test, which holds each sync open until it answers it.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IpcEnvelope } from '../../../shared/contract';
import type { RegistrySearchResult, RegistrySource, RegistrySyncReport } from '../../../shared/domains/registry';
import { connectBridge } from '../../../renderer/src/bridge';
import { resetStore, useStore } from '../../../renderer/src/store';
import { rememberedSource, rememberSource, SYNC_CONCURRENCY } from '../../../renderer/src/store/registry-slice';

const SOURCES: RegistrySource[] = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ url: `https://${n}.example`, official: false }));
/** Syncs asked for and not answered yet, by source. */
const open = new Map<string, (envelope: IpcEnvelope<RegistrySyncReport>) => void>();
let sources = SOURCES;
let inFlight = 0;
let mostInFlight = 0;
const ok = <T>(value: T): Promise<IpcEnvelope<T>> => Promise.resolve({ ok: true, value });
const empty: RegistrySearchResult = { servers: [], skipped: [], source: SOURCES[0]!.url };
const preload = {
  invoke: {
    'registry.sources': () => ok(sources),
    'registry.removeSource': (args: { url: string }) => ok((sources = sources.filter((s) => s.url !== args.url))),
    'registry.search': () => ok(empty),
    'registry.sync': (args: { source?: string }) =>
      new Promise<IpcEnvelope<RegistrySyncReport>>((resolve) => {
        if (args.source === undefined) throw new Error('the slice syncs each source by itself');
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        open.set(args.source, (envelope) => {
          inFlight--;
          resolve(envelope);
        });
      }),
  },
  events: {},
};

/** Answers the open sync of `source` with a result, a result naming its error, or a failed call. */
function answer(source: string, how: { updated?: number; error?: string; rejected?: string }): void {
  const resolve = open.get(source);
  if (!resolve) throw new Error(`no open sync of ${source}`);
  open.delete(source);
  if (how.rejected !== undefined) return resolve({ ok: false, error: { code: 'core_unavailable', message: how.rejected } });
  resolve({
    ok: true,
    value: {
      results: [{ source, updated: how.updated ?? 0, removed: 0, ...(how.error !== undefined ? { error: how.error } : { syncedAt: 1 }) }],
      statusChanges:
        how.updated !== undefined ? [{ id: `srv-${source}`, name: 'x/y', source, status: 'deprecated', statusMessage: 'old' }] : [],
    },
  });
}

const state = () => useStore.getState();
const waitOpen = (...urls: string[]) => vi.waitFor(() => expect([...open.keys()].sort()).toEqual(urls.sort()));
const url = (i: number) => SOURCES[i]!.url;

beforeAll(async () => {
  vi.stubGlobal('window', { switchboard: preload });
  await connectBridge();
});

afterEach(() => {
  resetStore();
  open.clear();
  sources = SOURCES;
  inFlight = 0;
  mostInFlight = 0;
  vi.unstubAllGlobals();
  vi.stubGlobal('window', { switchboard: preload });
});

describe('registry slice', () => {
  it('remembers the chosen source for the next visit, and forgets it when that source is removed', async () => {
    const stored = new Map<string, string>();
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
      removeItem: (k: string) => void stored.delete(k),
    });
    expect(rememberedSource()).toBeUndefined();
    rememberSource(url(1));
    expect(rememberedSource()).toBe(url(1));
    await state().loadRegistrySources();
    expect(await state().removeRegistrySource(url(0))).toBeNull();
    expect(rememberedSource()).toBe(url(1));
    expect(await state().removeRegistrySource(url(1))).toBeNull();
    expect(rememberedSource()).toBeUndefined();
    expect(state().registrySources.map((s) => s.url)).toEqual([url(2), url(3), url(4)]);
  });

  it(`syncs every source at most ${SYNC_CONCURRENCY} at once, each with its own progress, result or error`, async () => {
    await state().loadRegistrySources();
    const done = state().syncRegistry();
    await waitOpen(url(0), url(1), url(2));
    expect(state().registrySyncing).toEqual({
      [url(0)]: 'syncing',
      [url(1)]: 'syncing',
      [url(2)]: 'syncing',
      [url(3)]: 'waiting',
      [url(4)]: 'waiting',
    });

    // The second source's call fails: its error is its own line, the first's result stays, the fourth starts.
    answer(url(1), { rejected: 'The core restarted' });
    await waitOpen(url(0), url(2), url(3));
    answer(url(0), { updated: 2 });
    await waitOpen(url(2), url(3), url(4));
    expect(state().registrySync?.results).toEqual([
      { source: url(0), updated: 2, removed: 0, syncedAt: 1 },
      { source: url(1), updated: 0, removed: 0, error: 'The core restarted' },
    ]);
    expect(state().registrySyncing).toEqual({ [url(2)]: 'syncing', [url(3)]: 'syncing', [url(4)]: 'syncing' });
    expect(state().registryFlags.map((f) => f.id)).toEqual([`srv-${url(0)}`]);

    // The rest end out of order; the report keeps the sources' order.
    answer(url(4), { error: 'could not be reached' });
    answer(url(3), {});
    answer(url(2), {});
    await done;
    expect(state().registrySync?.results.map((r) => [r.source, r.error])).toEqual([
      [url(0), undefined],
      [url(1), 'The core restarted'],
      [url(2), undefined],
      [url(3), undefined],
      [url(4), 'could not be reached'],
    ]);
    expect(state().registrySyncing).toEqual({});
    expect(mostInFlight).toBe(SYNC_CONCURRENCY);
  });

  it('merges a one-source sync into the last report, replacing only that source’s result', async () => {
    await state().loadRegistrySources();
    const all = state().syncRegistry();
    for (let i = 0; i < SOURCES.length; i++) {
      await vi.waitFor(() => expect(open.has(url(i))).toBe(true));
      answer(url(i), i === 3 ? { error: 'could not be reached' } : {});
    }
    await all;
    const one = state().syncRegistry(url(3));
    await waitOpen(url(3));
    expect(state().registrySyncing).toEqual({ [url(3)]: 'syncing' });
    answer(url(3), { updated: 1 });
    await one;
    const results = state().registrySync?.results ?? [];
    expect(results.map((r) => r.source)).toEqual(SOURCES.map((s) => s.url));
    expect(results[3]).toEqual({ source: url(3), updated: 1, removed: 0, syncedAt: 1 });
    expect(results.filter((r) => r.error !== undefined)).toEqual([]);
  });
});
