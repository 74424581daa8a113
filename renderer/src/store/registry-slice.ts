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
import type { SliceCreator, Store } from './types';
import { api, onEvent } from '../bridge';

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
  /** Subscribes to registry events and shows install links received before the renderer attached. */
  startRegistry: () => Promise<void>;
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
let searchSeq = 0;
let subscribed = false;

export const registryInitialState = {
  registrySources: [],
  browse: { query: '', source: undefined, cursors: [undefined], result: null, loading: false, error: null },
  registryUpdates: null,
} satisfies Partial<RegistrySlice>;

export const createRegistrySlice: SliceCreator<RegistrySlice> = (set, get) => {
  /** Loads one page; a newer search wins over an older answer. */
  const load = async (query: string, source: string | undefined, cursors: (string | undefined)[]): Promise<void> => {
    const seq = ++searchSeq;
    set({ browse: { ...get().browse, query, source, cursors, loading: true, error: null } });
    try {
      const cursor = cursors[cursors.length - 1];
      const result = await api['registry.search']({
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
  const showLinks = async (): Promise<void> => {
    const links = await api['registry.takeLinks']({});
    const last = links[links.length - 1];
    if (last !== undefined) get().openDialog({ kind: 'installPaste', text: last });
  };
  return {
    ...registryInitialState,
    startRegistry: async () => {
      if (!subscribed) {
        onEvent('registry.linkReceived', () => void showLinks());
        onEvent('registry.sourcesChanged', ({ sources }) => set({ registrySources: sources }));
        subscribed = true;
      }
      await showLinks();
    },
    loadRegistrySources: async () => {
      set({ registrySources: await api['registry.sources']({}) });
    },
    addRegistrySource: async (url) => {
      try {
        set({ registrySources: await api['registry.addSource']({ url }) });
        return null;
      } catch (err) {
        return message(err);
      }
    },
    removeRegistrySource: async (url) => {
      try {
        const sources = await api['registry.removeSource']({ url });
        set({ registrySources: sources });
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
    prepareInstall: (target, choice, values) =>
      api['registry.prepare']({ ...target, ...(choice !== undefined ? { choice } : {}), ...(values ? { values } : {}) }),
    installFromRegistry: async (target, opts) => {
      const detail = await api['registry.install']({ ...target, ...opts });
      await get().loadServers();
      return detail;
    },
    checkRegistryUpdates: async () => {
      set({ registryUpdates: await api['registry.updates']({}) });
    },
    previewRegistryUpdate: (id) => api['registry.previewUpdate']({ id }),
    applyRegistryUpdate: async (id, version, values) => {
      const detail = await api['registry.applyUpdate']({ id, version, ...(values ? { values } : {}) });
      await get().loadServers();
      set({ registryUpdates: await api['registry.updates']({}).catch(() => get().registryUpdates) });
      return detail;
    },
    parseInstallText: (text) => api['registry.parseInstall']({ text }),
    openRegistryLink: (url) => api['registry.openLink']({ url }),
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
