// The registry browser's state: sources, the current search and its pages, update checks, and install links the OS
// handed over. Install flows are store actions returning what the core prepared; secrets pass through, never kept.
import type { ServerDetail } from '../../../shared/contract';
import type {
  InstallPreview,
  InstallValues,
  PreparedInstall,
  PrepareTarget,
  RegistrySearchResult,
  RegistrySource,
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

/** One first page from every source, each entry keeping its source; a source that fails is reported, not fatal. */
async function searchAll(query: string, sources: RegistrySource[], limit: number): Promise<RegistrySearchResult> {
  const pages = await Promise.allSettled(sources.map((s) => registryService.search({ query, limit, source: s.url })));
  const result: RegistrySearchResult = { servers: [], skipped: [], source: ALL_SOURCES };
  const problems: string[] = [];
  pages.forEach((page, i) => {
    const url = sources[i]!.url;
    if (page.status === 'rejected') {
      problems.push(`${url}: ${message(page.reason)}`);
      return;
    }
    result.servers.push(...page.value.servers);
    result.skipped.push(...page.value.skipped.map((k) => ({ ...k, reason: `${url}: ${k.reason}` })));
    if (page.value.offline) problems.push(`${url}: ${page.value.offline.message}`);
  });
  if (problems.length === sources.length && result.servers.length === 0 && sources.length > 0)
    throw new AppError('connect_failed', problems.join('; '));
  if (problems.length > 0) result.offline = { message: problems.join('; ') };
  return result;
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
  /** The page shown. */
  result: RegistrySearchResult | null;
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
  browse: { query: '', source: undefined, cursors: [undefined], result: null, loading: false, error: null },
  registryUpdates: null,
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
        const result = await searchAll(query, sources, BROWSE_PAGE_SIZE);
        if (seq === searchSeq) set({ browse: { query, source, cursors, result, loading: false, error: null } });
        return;
      }
      const result = await registryService.search({
        query,
        limit: BROWSE_PAGE_SIZE,
        ...(source !== undefined ? { source } : {}),
        ...(cursor !== undefined ? { cursor } : {}),
      });
      if (seq === searchSeq) set({ browse: { query, source, cursors, result, loading: false, error: null } });
    } catch (err) {
      if (seq === searchSeq) set({ browse: { ...get().browse, result: null, loading: false, error: message(err) } });
    }
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
      set({ registryUpdates: await registryService.updates() });
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
/** The registry sources. */
export const selectRegistrySources = (s: Store): RegistrySource[] => s.registrySources;
/** Update state of one installed server, when checked. */
export const selectUpdateFor =
  (id: string) =>
  (s: Store): RegistryUpdate | undefined =>
    s.registryUpdates?.find((u) => u.id === id);
