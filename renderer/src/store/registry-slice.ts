// The registry browser's state: sources, the current search and its pages, update checks, and install links the OS
// handed over. Install flows are store actions returning what the core prepared; secrets pass through, never kept.
import type { ServerDetail } from '../../../shared/contract';
import type {
  InstalledStatusChange,
  InstallPreview,
  InstallValues,
  PreparedInstall,
  PrepareTarget,
  RegistrySearchResult,
  RegistrySource,
  RegistrySyncReport,
  RegistrySyncResult,
  RegistryUpdate,
  UpdatePreview,
} from '../../../shared/domains/registry';
import { AppError } from '../../../shared/errors';
import { registryService } from '../services/registry';
import type { SliceCreator, Store } from './types';

/** The source value that searches every registry at once. */
export const ALL_SOURCES = '*';
const SOURCE_KEY = 'switchboard.browse.source';

/** The registry chosen on an earlier visit (this renderer's storage), if any. */
export function rememberedSource(): string | undefined {
  try {
    return globalThis.localStorage?.getItem(SOURCE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the chosen registry for the next visit. */
export function rememberSource(source: string | undefined): void {
  try {
    if (source === undefined || source === '') globalThis.localStorage?.removeItem(SOURCE_KEY);
    else globalThis.localStorage?.setItem(SOURCE_KEY, source);
  } catch {
    // Storage may be unavailable (private mode); the choice then lasts only for this visit.
  }
}

/** Entries "All sources" shows at most, however often "Load more" is pressed (narrow the search past that). */
export const ALL_SOURCES_MAX_ENTRIES = 500;

/** Where "Load more" goes on for one source of an "All sources" search. */
export interface MoreCursor {
  /** Source URL. */
  source: string;
  /** Its next page's cursor. */
  cursor: string;
}

/**
 * One page from each of `asks` (every source's first, or each source's next), each entry keeping its source; a
 * source that fails is reported, not fatal, and keeps its cursor so the next "Load more" asks it again.
 */
async function searchEach(
  query: string,
  asks: { source: string; cursor?: string }[],
  limit: number,
): Promise<{ result: RegistrySearchResult; more: MoreCursor[]; failed: number }> {
  const pages = await Promise.allSettled(
    asks.map((a) => registryService.search({ query, limit, source: a.source, ...(a.cursor !== undefined ? { cursor: a.cursor } : {}) })),
  );
  const result: RegistrySearchResult = { servers: [], skipped: [], source: ALL_SOURCES };
  const more: MoreCursor[] = [];
  const problems: string[] = [];
  let failed = 0;
  pages.forEach((page, i) => {
    const { source: url, cursor } = asks[i]!;
    if (page.status === 'rejected') {
      failed++;
      problems.push(`${url}: ${message(page.reason)}`);
      if (cursor !== undefined) more.push({ source: url, cursor });
      return;
    }
    result.servers.push(...page.value.servers);
    result.skipped.push(...page.value.skipped.map((k) => ({ ...k, reason: `${url}: ${k.reason}` })));
    if (page.value.offline) problems.push(`${url}: ${page.value.offline.message}`);
    if (page.value.nextCursor !== undefined) more.push({ source: url, cursor: page.value.nextCursor });
  });
  if (problems.length > 0) result.offline = { message: problems.join('; ') };
  return { result, more, failed };
}

/** `base` with `next`'s entries appended (an entry already shown, by source and name, is not repeated), bounded. */
function appendPage(base: RegistrySearchResult, next: RegistrySearchResult): RegistrySearchResult {
  const seen = new Set(base.servers.map((e) => `${e.source}\n${e.name}`));
  const fresh = next.servers.filter((e) => !seen.has(`${e.source}\n${e.name}`));
  return {
    ...base,
    servers: [...base.servers, ...fresh].slice(0, ALL_SOURCES_MAX_ENTRIES),
    skipped: [...base.skipped, ...next.skipped].slice(0, ALL_SOURCES_MAX_ENTRIES),
    ...(next.offline !== undefined ? { offline: next.offline } : base.offline !== undefined ? { offline: base.offline } : {}),
  };
}

/** Sources synced at once by "Sync all" (each its own registry.sync, so each shows its progress on its own). */
export const SYNC_CONCURRENCY = 3;

/** Where one source of a running sync is: waiting for a free slot, or being synced. */
export type SourceSyncState = 'waiting' | 'syncing';

/** Runs `work` on every item, at most `limit` at once, in the items' order as slots free up. */
async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** `report` with `results` in place of the results it had for the same sources (one per source, in `order`). */
function mergeResults(report: RegistrySyncReport | null, results: RegistrySyncResult[], order: readonly string[]): RegistrySyncReport {
  const bySource = new Map((report?.results ?? []).map((r) => [r.source, r] as const));
  for (const r of results) bySource.set(r.source, r);
  const rank = new Map(order.map((url, i) => [url, i] as const));
  const merged = [...bySource.values()].sort((a, b) => (rank.get(a.source) ?? order.length) - (rank.get(b.source) ?? order.length));
  return { results: merged, statusChanges: report?.statusChanges ?? [] };
}

/** Entries per page of the browser. */
export const BROWSE_PAGE_SIZE = 20;

/** The browser's search: query, source, the cursors of the pages visited, and the page shown. */
export interface BrowseState {
  /** Search text the page was asked for. */
  query: string;
  /** Source searched (undefined: the first source). */
  source: string | undefined;
  /** Cursor of each page visited so far (undefined for the first); the last one is the page shown. */
  cursors: (string | undefined)[];
  /** The page shown ("All sources": every page loaded so far, each entry with its source). */
  result: RegistrySearchResult | null;
  /** "All sources": each source that has more, with its next cursor (empty: nothing more, or the bound reached). */
  more: MoreCursor[];
  /** A search is running. */
  loading: boolean;
  /** Why the last search failed. */
  error: string | null;
}

/** Registry state and actions. */
export interface RegistrySlice {
  registrySources: RegistrySource[];
  browse: BrowseState;
  registryUpdates: RegistryUpdate[] | null;
  /** Installed servers whose registry entry is deprecated or deleted, from the last update check and syncs since. */
  registryFlags: InstalledStatusChange[];
  /** Each source's last sync result (merged as each source's sync ends), shown beside the Sync action. */
  registrySync: RegistrySyncReport | null;
  /** Sources of the sync running now that have not finished, by URL. */
  registrySyncing: Record<string, SourceSyncState>;
  /** Shows the install link the OS handed over last (received before the renderer attached, or just now). */
  showInstallLinks: () => Promise<void>;
  /** The registry sources changed (registry.sourcesChanged). */
  applyRegistrySources: (sources: RegistrySource[]) => void;
  loadRegistrySources: () => Promise<void>;
  /** Adds a source; resolves with the error message, or null when added. */
  addRegistrySource: (url: string) => Promise<string | null>;
  removeRegistrySource: (url: string) => Promise<string | null>;
  /** Searches from the first page. */
  searchRegistry: (query: string, source?: string) => Promise<void>;
  nextRegistryPage: () => Promise<void>;
  /** "All sources": the next page of every source that has one, appended. */
  loadMoreRegistry: () => Promise<void>;
  /**
   * Syncs the cached listings of a source (default: every source, `SYNC_CONCURRENCY` at once), then searches again.
   * Each source's result or error is merged into `registrySync` as it ends; one failing never hides the others'.
   */
  syncRegistry: (source?: string) => Promise<void>;
  previousRegistryPage: () => Promise<void>;
  prepareInstall: (target: PrepareTarget, choice?: number, values?: InstallValues) => Promise<PreparedInstall>;
  installFromRegistry: (
    target: PrepareTarget,
    opts: { choice?: number; values?: InstallValues; id?: string; displayName?: string },
  ) => Promise<ServerDetail>;
  checkRegistryUpdates: () => Promise<void>;
  previewRegistryUpdate: (id: string) => Promise<UpdatePreview>;
  applyRegistryUpdate: (id: string, version: string, values?: InstallValues) => Promise<ServerDetail>;
  parseInstallText: (text: string) => Promise<InstallPreview>;
  openRegistryLink: (url: string) => Promise<void>;
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

export const registryInitialState = {
  registrySources: [],
  browse: { query: '', source: undefined, cursors: [undefined], result: null, more: [], loading: false, error: null },
  registryUpdates: null,
  registryFlags: [],
  registrySync: null,
  registrySyncing: {},
} satisfies Partial<RegistrySlice>;

export const createRegistrySlice: SliceCreator<RegistrySlice> = (set, get) => {
  // The newest search wins over an older answer.
  let searchSeq = 0;
  /** Loads one page; a newer search wins over an older answer. */
  const load = async (query: string, source: string | undefined, cursors: (string | undefined)[]): Promise<void> => {
    const seq = ++searchSeq;
    set({ browse: { ...get().browse, query, source, cursors, loading: true, error: null } });
    try {
      const cursor = cursors[cursors.length - 1];
      if (source === ALL_SOURCES) {
        const sources = get().registrySources.length > 0 ? get().registrySources : await registryService.sources();
        const { result, more, failed } = await searchEach(
          query,
          sources.map((s) => ({ source: s.url })),
          BROWSE_PAGE_SIZE,
        );
        if (failed === sources.length && sources.length > 0) throw new AppError('connect_failed', result.offline?.message ?? '');
        if (seq === searchSeq) set({ browse: { query, source, cursors, result, more, loading: false, error: null } });
        return;
      }
      const result = await registryService.search({
        query,
        limit: BROWSE_PAGE_SIZE,
        ...(source !== undefined ? { source } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      if (seq === searchSeq) set({ browse: { query, source, cursors, result, more: [], loading: false, error: null } });
    } catch (err) {
      if (seq === searchSeq) set({ browse: { ...get().browse, result: null, more: [], loading: false, error: message(err) } });
    }
  };
  /** Replaces the flags of the servers a sync or an update check named (an active entry clears its flag). */
  const applyFlags = (changes: InstalledStatusChange[]): void => {
    if (changes.length === 0) return;
    const named = new Set(changes.map((c) => c.id));
    const registryFlags = [...get().registryFlags.filter((f) => !named.has(f.id)), ...changes.filter((c) => c.status !== 'active')];
    const byId = new Map(changes.map((c) => [c.id, c]));
    const updates = get().registryUpdates?.map((u): RegistryUpdate => {
      const c = byId.get(u.id);
      if (c === undefined) return u;
      const { status: _s, statusMessage: _m, ...rest } = u;
      return c.status === 'active'
        ? rest
        : {
            ...rest,
            status: c.status,
            ...(c.statusMessage !== undefined ? { statusMessage: c.statusMessage } : {}),
            ...(c.status === 'deleted' ? { updateAvailable: false } : {}),
          };
    });
    set({ registryFlags, ...(updates !== undefined ? { registryUpdates: updates } : {}) });
  };
  return {
    ...registryInitialState,
    showInstallLinks: async () => {
      const links = await registryService.takeLinks();
      const last = links[links.length - 1];
      if (last !== undefined) get().openDialog({ kind: 'installPaste', text: last });
    },
    applyRegistrySources: (sources) => set({ registrySources: sources }),
    loadRegistrySources: async () => {
      set({ registrySources: await registryService.sources() });
    },
    addRegistrySource: async (url) => {
      try {
        set({ registrySources: await registryService.addSource(url) });
        return null;
      } catch (err) {
        return message(err);
      }
    },
    removeRegistrySource: async (url) => {
      try {
        const sources = await registryService.removeSource(url);
        set({ registrySources: sources });
        if (rememberedSource() === url) rememberSource(undefined);
        if (get().browse.source === url) await get().searchRegistry(get().browse.query, undefined);
        return null;
      } catch (err) {
        return message(err);
      }
    },
    searchRegistry: (query, source) => load(query, source, [undefined]),
    nextRegistryPage: async () => {
      const { browse } = get();
      const next = browse.result?.nextCursor;
      if (next === undefined || browse.loading) return;
      await load(browse.query, browse.source, [...browse.cursors, next]);
    },
    loadMoreRegistry: async () => {
      const { browse } = get();
      if (browse.source !== ALL_SOURCES || browse.loading || browse.more.length === 0 || browse.result === null) return;
      if (browse.result.servers.length >= ALL_SOURCES_MAX_ENTRIES) return;
      const seq = ++searchSeq;
      set({ browse: { ...browse, loading: true, error: null } });
      const { result, more } = await searchEach(browse.query, browse.more, BROWSE_PAGE_SIZE);
      if (seq !== searchSeq) return;
      const merged = appendPage(browse.result, result);
      // At the bound nothing more is offered: the count line says to narrow the search.
      const bounded = merged.servers.length >= ALL_SOURCES_MAX_ENTRIES ? [] : more;
      set({ browse: { ...get().browse, result: merged, more: bounded, loading: false, error: null } });
    },
    syncRegistry: async (source) => {
      const sources = get().registrySources.length > 0 ? get().registrySources : await registryService.sources();
      const order = sources.map((s) => s.url);
      const targets = source !== undefined ? [source] : order;
      set({ registrySyncing: { ...get().registrySyncing, ...Object.fromEntries(targets.map((t) => [t, 'waiting' as const])) } });
      await eachBounded(targets, SYNC_CONCURRENCY, async (target) => {
        set({ registrySyncing: { ...get().registrySyncing, [target]: 'syncing' } });
        let results: RegistrySyncResult[];
        try {
          const report = await registryService.sync(target);
          results = report.results;
          applyFlags(report.statusChanges);
        } catch (err) {
          // The call itself failed (the core's answer names a source it could not reach in its result instead).
          results = [{ source: target, updated: 0, removed: 0, error: message(err) }];
        }
        const { [target]: _done, ...rest } = get().registrySyncing;
        set({ registrySync: mergeResults(get().registrySync, results, order), registrySyncing: rest });
      });
      // The sources' last sync times also arrive by registry.sourcesChanged; asking keeps this answer's order.
      set({ registrySources: await registryService.sources().catch(() => get().registrySources) });
      const { browse } = get();
      await load(browse.query, browse.source, [undefined]);
    },
    previousRegistryPage: async () => {
      const { browse } = get();
      if (browse.cursors.length <= 1 || browse.loading) return;
      await load(browse.query, browse.source, browse.cursors.slice(0, -1));
    },
    prepareInstall: (target, choice, values) => registryService.prepare(target, choice, values),
    installFromRegistry: async (target, opts) => {
      const detail = await registryService.install(target, opts);
      await get().loadServers();
      return detail;
    },
    checkRegistryUpdates: async () => {
      const updates = await registryService.updates();
      set({ registryUpdates: updates });
      // The check's answer about every installed server replaces the flags it names.
      set({ registryFlags: [] });
      applyFlags(
        updates.map((u) => ({
          id: u.id,
          name: u.name,
          source: u.source,
          status: u.status ?? 'active',
          ...(u.statusMessage !== undefined ? { statusMessage: u.statusMessage } : {}),
        })),
      );
    },
    previewRegistryUpdate: (id) => registryService.previewUpdate(id),
    applyRegistryUpdate: async (id, version, values) => {
      const detail = await registryService.applyUpdate(id, version, values);
      await get().loadServers();
      set({ registryUpdates: await registryService.updates().catch(() => get().registryUpdates) });
      return detail;
    },
    parseInstallText: (text) => registryService.parseInstall(text),
    openRegistryLink: (url) => registryService.openLink(url),
  };
};

/** The browser's search state. */
export const selectBrowse = (s: Store): BrowseState => s.browse;
/** Installed servers whose entry is no longer active at its registry. */
export const selectRegistryFlags = (s: Store): InstalledStatusChange[] => s.registryFlags;
/** The registry sources. */
export const selectRegistrySources = (s: Store): RegistrySource[] => s.registrySources;
/** Update state of one installed server, when checked. */
export const selectUpdateFor =
  (id: string) =>
  (s: Store): RegistryUpdate | undefined =>
    s.registryUpdates?.find((u) => u.id === id);
