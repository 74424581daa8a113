import type { CatalogQuery, GroupCard, ToolDetail, ToolSummary } from '../../../shared/domains/catalog';
import { AppError } from '../../../shared/errors';
import { catalogService } from '../services/catalog';
import type { SliceCreator, Store } from './types';

/** Rows fetched per request while scrolling. */
export const CATALOG_PAGE = 200;

/** Annotation filter values. */
export type AnnotationFilter = NonNullable<CatalogQuery['annotation']>;

/** The current search results: a sparse row array the virtualized list fills page by page. */
export interface CatalogResults {
  /** Identity of the query (text, filters, revision) the rows belong to. */
  key: string;
  total: number;
  rows: (ToolSummary | undefined)[];
  /** Page indexes requested (loaded or in flight). */
  pages: Set<number>;
}

/** Catalog state: groups, the search with its filters, the open tool. */
export interface CatalogSlice {
  catalogRevision: number;
  groups: GroupCard[];
  catalogQuery: string;
  catalogServer: string | null;
  catalogAnnotation: AnnotationFilter | null;
  results: CatalogResults;
  catalogLoading: boolean;
  catalogError: string | null;
  selectedTool: string | null;
  toolDetail: ToolDetail | null;
  toolError: string | null;
  approving: boolean;
  refreshing: boolean;
  /** Loads groups and the first page. */
  loadCatalog: () => Promise<void>;
  setCatalogQuery: (query: string) => void;
  setCatalogServer: (id: string | null) => void;
  setCatalogAnnotation: (a: AnnotationFilter | null) => void;
  /** Sets every filter at once (from a deep link), reloading once and only when something changed. */
  setCatalogFilters: (f: { query: string; server: string | null; annotation: AnnotationFilter | null }) => void;
  /** Makes sure rows [start, end] are loaded. */
  ensureRows: (start: number, end: number) => void;
  openTool: (name: string | null) => Promise<void>;
  approveTool: (name: string, fingerprint: string) => Promise<void>;
  refreshCatalog: (id?: string) => Promise<void>;
  applyCatalogChanged: (revision: number) => void;
  /** One server's tools matching a filter (the server page's Tools tab keeps its own list). */
  fetchServerTools: (serverId: string, query: string) => Promise<ToolSummary[]>;
  /** One tool's detail, without touching the catalog view's selection. */
  fetchTool: (name: string) => Promise<ToolDetail>;
  /** Approves a tool's current definition, without touching the catalog view's selection. */
  approveToolDefinition: (name: string, fingerprint: string) => Promise<ToolDetail>;
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');
const emptyResults = (): CatalogResults => ({ key: '', total: 0, rows: [], pages: new Set() });

function queryOf(s: Store, offset: number): CatalogQuery {
  return {
    query: s.catalogQuery,
    ...(s.catalogServer ? { serverIds: [s.catalogServer] } : {}),
    ...(s.catalogAnnotation ? { annotation: s.catalogAnnotation } : {}),
    offset,
    limit: CATALOG_PAGE,
    includeGroups: false,
    // Tools of a server that lost its secrets are listed too, marked unavailable with the fix.
    includeUnavailable: true,
  };
}

function keyOf(s: Store): string {
  return JSON.stringify([s.catalogQuery, s.catalogServer, s.catalogAnnotation, s.catalogRevision]);
}

export const createCatalogSlice: SliceCreator<CatalogSlice> = (set, get) => {
  /** Loads one page for the current key; responses for an older key are dropped. */
  const loadPage = async (page: number): Promise<void> => {
    const state = get();
    const key = keyOf(state);
    let results = state.results.key === key ? state.results : { ...emptyResults(), key };
    if (results.pages.has(page)) return;
    results = { ...results, pages: new Set(results.pages).add(page) };
    set({ results, ...(page === 0 ? { catalogLoading: true } : {}) });
    try {
      const res = await catalogService.search(queryOf(state, page * CATALOG_PAGE));
      const now = get().results;
      if (now.key !== key) return;
      const rows = now.rows.length === res.total ? now.rows.slice() : Array.from({ length: res.total }, (_, i) => now.rows[i]);
      res.tools.forEach((t, i) => (rows[page * CATALOG_PAGE + i] = t));
      set({ results: { ...now, total: res.total, rows }, catalogLoading: false, catalogError: null });
    } catch (err) {
      if (get().results.key === key) {
        const pages = new Set(get().results.pages);
        pages.delete(page);
        set({ results: { ...get().results, pages }, catalogLoading: false, catalogError: message(err) });
      }
    }
  };
  /** New key: keep showing the old rows until the first page of the new results arrives (no flicker). */
  const reload = (): void => {
    const old = get().results;
    set({ results: { key: keyOf(get()), total: old.total, rows: old.rows, pages: new Set() } });
    void loadPage(0);
  };
  return {
    catalogRevision: 0,
    groups: [],
    catalogQuery: '',
    catalogServer: null,
    catalogAnnotation: null,
    results: emptyResults(),
    catalogLoading: false,
    catalogError: null,
    selectedTool: null,
    toolDetail: null,
    toolError: null,
    approving: false,
    refreshing: false,
    loadCatalog: async () => {
      try {
        const groups = await catalogService.groups();
        set({ groups });
      } catch (err) {
        set({ catalogError: message(err) });
      }
      reload();
    },
    setCatalogQuery: (catalogQuery) => {
      set({ catalogQuery });
      reload();
    },
    setCatalogServer: (catalogServer) => {
      set({ catalogServer });
      reload();
    },
    setCatalogAnnotation: (catalogAnnotation) => {
      set({ catalogAnnotation });
      reload();
    },
    setCatalogFilters: ({ query, server, annotation }) => {
      const s = get();
      if (s.catalogQuery === query && s.catalogServer === server && s.catalogAnnotation === annotation) return;
      set({ catalogQuery: query, catalogServer: server, catalogAnnotation: annotation });
      reload();
    },
    ensureRows: (start, end) => {
      const first = Math.floor(Math.max(0, start) / CATALOG_PAGE);
      const last = Math.floor(Math.max(0, end) / CATALOG_PAGE);
      for (let p = first; p <= last; p++) void loadPage(p);
    },
    openTool: async (name) => {
      set({ selectedTool: name, toolDetail: null, toolError: null });
      if (name === null) return;
      try {
        const toolDetail = await catalogService.tool(name);
        if (get().selectedTool === name) set({ toolDetail });
      } catch (err) {
        if (get().selectedTool === name) set({ toolError: message(err) });
      }
    },
    approveTool: async (name, fingerprint) => {
      set({ approving: true, toolError: null });
      try {
        const toolDetail = await catalogService.approve(name, fingerprint);
        if (get().selectedTool === name) set({ toolDetail });
      } catch (err) {
        set({ toolError: message(err) });
        await get().openTool(name);
      } finally {
        set({ approving: false });
      }
    },
    refreshCatalog: async (id) => {
      set({ refreshing: true, catalogError: null });
      try {
        const report = await catalogService.refresh(id);
        const failed = report.servers.filter((s) => !s.ok);
        if (failed.length > 0) set({ catalogError: failed.map((f) => `${f.id}: ${f.error ?? 'failed'}`).join('; ') });
      } catch (err) {
        set({ catalogError: message(err) });
      } finally {
        set({ refreshing: false });
      }
    },
    fetchServerTools: async (serverId, query) =>
      (await catalogService.search({ query, serverIds: [serverId], limit: 25_000, includeGroups: false, includeUnavailable: true })).tools,
    fetchTool: (name) => catalogService.tool(name),
    approveToolDefinition: (name, fingerprint) => catalogService.approve(name, fingerprint),
    applyCatalogChanged: (revision) => {
      set({ catalogRevision: revision });
      void catalogService.groups().then(
        (groups) => set({ groups }),
        () => undefined,
      );
      reload();
      const open = get().selectedTool;
      if (open) {
        void catalogService.tool(open).then(
          (toolDetail) => {
            if (get().selectedTool === open) set({ toolDetail });
          },
          () => {
            if (get().selectedTool === open) set({ toolDetail: null, toolError: 'This tool is no longer offered.' });
          },
        );
      }
    },
  };
};

/** Groups for the directory. */
export const selectGroups = (s: Store): GroupCard[] => s.groups;
/** The open tool's detail. */
export const selectToolDetail = (s: Store): ToolDetail | null => s.toolDetail;
