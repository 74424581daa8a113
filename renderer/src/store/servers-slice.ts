import type { ServerConfigInput } from '../../../shared/config';
import type {
  ImportFormat,
  ImportPreview,
  ImportResult,
  InvokeArgs,
  InvokeResult,
  LogEntry,
  ServerDetail,
  ServerStatus,
  ServerSummary,
} from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { serversService } from '../services/servers';
import { routes } from '../router/route';
import { statusText } from '../ui/StatusBadge';
import type { SliceCreator, Store } from './types';

const MAX_LOGS = 1000;

/** What a connected server offers, counted for its overview (absent: not known yet or not offered). */
export interface ServerCounts {
  /** Tools in the catalog. */
  tools?: number;
  /** Resources on the first page. */
  resources?: number;
  /** More resources exist beyond the first page. */
  moreResources?: boolean;
  /** Prompts. */
  prompts?: number;
}

/** What the server page shows beyond a server's summary: its definition, launch approval and identity. */
export type ServerFacts = Pick<ServerDetail, 'id' | 'config' | 'approval' | 'identity'>;

/** Servers: each held once by id (with its one live status), the selected server's facts and the logs. */
export interface ServersSlice {
  /** Counts per server id, for the overview and the tab labels. */
  counts: Record<string, ServerCounts>;
  /** Counts a connected server's tools, resources and prompts (the latter two only when `caps` lists them). */
  loadCounts: (id: string, caps: readonly string[]) => Promise<void>;
  /** Every server's summary by id; its status is the only copy of the server's status. */
  serversById: Record<string, ServerSummary>;
  /** Server ids in the core's order. */
  serverIds: string[];
  loaded: boolean;
  selectedId: string | null;
  /** The selected server's facts, once loaded (its summary is in `serversById`). */
  selectedFacts: ServerFacts | null;
  logs: Record<string, LogEntry[]>;
  actionError: string | null;
  loadServers: () => Promise<void>;
  select: (id: string | null) => Promise<void>;
  refreshDetail: () => Promise<void>;
  addServer: (config: ServerConfigInput, bearerToken?: string) => Promise<ServerDetail>;
  updateServer: (id: string, config: ServerConfigInput) => Promise<ServerDetail>;
  removeServer: (id: string, deleteCredentials: boolean) => Promise<void>;
  addDemo: () => Promise<void>;
  runServerAction: (id: string, action: 'connect' | 'disconnect' | 'restart') => Promise<void>;
  approve: (id: string, fingerprint: string) => Promise<void>;
  /** Reads a client's config text and says what importing it would add. */
  previewImport: (text: string, format?: ImportFormat) => Promise<ImportPreview>;
  /** Imports the chosen entries of a client's config text; the list reloads. */
  importServers: (args: InvokeArgs<'servers.import'>) => Promise<ImportResult>;
  /** The launches of just-imported servers that wait for approval, each in full. */
  pendingLaunches: (ids: readonly string[]) => Promise<ServerDetail[]>;
  /** Approves each launch exactly as it was shown; one refused launch does not stop the others. */
  approveLaunches: (launches: readonly { id: string; fingerprint: string }[]) => Promise<{ id: string; error?: string }[]>;
  /** The servers written as a client's config file. */
  exportServers: (format: ImportFormat) => Promise<InvokeResult<'servers.export'>>;
  applyServerList: (servers: ServerSummary[]) => void;
  applyStatus: (id: string, status: ServerStatus) => void;
  applyLog: (id: string, entry: LogEntry) => void;
}

export const serversInitialState = {
  counts: {},
  serversById: {},
  serverIds: [],
  loaded: false,
  selectedId: null,
  selectedFacts: null,
  logs: {},
  actionError: null,
} satisfies Partial<ServersSlice>;

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

/** A server's detail as the store holds it: the summary (with the status) apart from the page's facts. */
function split(detail: ServerDetail): { summary: ServerSummary; facts: ServerFacts } {
  const { config, approval, identity, ...summary } = detail;
  return {
    summary,
    facts: { id: detail.id, config, ...(approval !== undefined ? { approval } : {}), ...(identity !== undefined ? { identity } : {}) },
  };
}

function byId(servers: ServerSummary[]): Pick<ServersSlice, 'serversById' | 'serverIds'> {
  return { serversById: Object.fromEntries(servers.map((s) => [s.id, s])), serverIds: servers.map((s) => s.id) };
}

export const createServersSlice: SliceCreator<ServersSlice> = (set, get) => {
  /** Takes a fresh detail of the selected server: its summary goes to the list, its facts to the page. */
  const applyDetail = (detail: ServerDetail, extra: Partial<ServersSlice> = {}): void => {
    if (get().selectedId !== detail.id) return;
    const { summary, facts } = split(detail);
    set({ serversById: { ...get().serversById, [detail.id]: summary }, selectedFacts: facts, ...extra });
  };
  return {
    ...serversInitialState,
    loadServers: async () => {
      const servers = await serversService.list();
      set({ ...byId(servers), loaded: true });
    },
    select: async (id) => {
      set({ selectedId: id, selectedFacts: null, actionError: null });
      if (id === null) return;
      const [detail, logs] = await Promise.all([serversService.get(id), serversService.logs(id)]);
      applyDetail(detail, { logs: { ...get().logs, [id]: logs } });
    },
    refreshDetail: async () => {
      const id = get().selectedId;
      if (!id) return;
      try {
        applyDetail(await serversService.get(id));
      } catch {
        // the server may have been removed meanwhile
      }
    },
    loadCounts: async (id, caps) => {
      const settle = <T>(p: Promise<T>): Promise<T | undefined> =>
        p.then(
          (v) => v,
          () => undefined,
        );
      const [tools, resources, prompts] = await Promise.all([
        settle(serversService.toolCount(id)),
        caps.includes('resources') ? settle(serversService.resourcePage(id)) : Promise.resolve(undefined),
        caps.includes('prompts') ? settle(serversService.promptCount(id)) : Promise.resolve(undefined),
      ]);
      const counts: ServerCounts = {
        ...(tools !== undefined ? { tools } : {}),
        ...(resources !== undefined ? { resources: resources.count, moreResources: resources.more } : {}),
        ...(prompts !== undefined ? { prompts } : {}),
      };
      set({ counts: { ...get().counts, [id]: counts } });
    },
    addServer: async (config, bearerToken) => {
      const detail = await serversService.add(config, bearerToken);
      await get().loadServers();
      return detail;
    },
    updateServer: async (id, config) => {
      const detail = await serversService.update(id, config);
      applyDetail(detail);
      return detail;
    },
    removeServer: async (id, deleteCredentials) => {
      await serversService.remove(id, deleteCredentials);
      if (get().selectedId === id) get().navigate(routes.servers(), { replace: true });
      await get().loadServers();
    },
    addDemo: async () => {
      try {
        const detail = await serversService.addDemo();
        await get().loadServers();
        get().navigate(routes.servers(detail.id));
      } catch (err) {
        set({ actionError: message(err) });
      }
    },
    runServerAction: async (id, action) => {
      set({ actionError: null });
      try {
        await serversService[action](id);
      } catch (err) {
        set({ actionError: message(err) });
      }
      await get().refreshDetail();
    },
    approve: async (id, fingerprint) => {
      set({ actionError: null });
      try {
        applyDetail(await serversService.approve(id, fingerprint));
      } catch (err) {
        set({ actionError: message(err) });
      }
    },
    previewImport: (text, format) => serversService.importPreview(text, format),
    importServers: async (args) => {
      const result = await serversService.import(args);
      await get().loadServers();
      return result;
    },
    pendingLaunches: async (ids) => {
      const details = await Promise.all(ids.map((id) => serversService.get(id)));
      return details.filter((d) => d.approval?.required === true);
    },
    approveLaunches: async (launches) => {
      const outcomes: { id: string; error?: string }[] = [];
      for (const { id, fingerprint } of launches) {
        try {
          await serversService.approve(id, fingerprint);
          outcomes.push({ id });
        } catch (err) {
          outcomes.push({ id, error: message(err) });
        }
      }
      await get().loadServers();
      return outcomes;
    },
    exportServers: (format) => serversService.export(format),
    applyServerList: (servers) => {
      set({ ...byId(servers), loaded: true });
      void get().refreshDetail();
    },
    applyStatus: (id, status) => {
      const before = get().serversById[id];
      if (!before) return;
      set({ serversById: { ...get().serversById, [id]: { ...before, status } } });
      if (before.status.state !== status.state) get().announce(`${before.name}: ${statusText({ ...before, status })}`);
      // Connecting or disconnecting changes what the server said about itself.
      if (get().selectedFacts?.id === id && (status.state === 'connected' || status.state === 'disconnected')) void get().refreshDetail();
    },
    applyLog: (id, entry) => {
      const list = get().logs[id];
      if (!list) return;
      const next = list.length >= MAX_LOGS ? [...list.slice(list.length - MAX_LOGS + 1), entry] : [...list, entry];
      set({ logs: { ...get().logs, [id]: next } });
    },
  };
};

/** The server list in the core's order (a new array: select it with useShallow). */
export const selectServerList = (s: Store): ServerSummary[] =>
  s.serverIds.flatMap((id) => {
    const server = s.serversById[id];
    return server ? [server] : [];
  });
/** How many servers there are. */
export const selectServerCount = (s: Store): number => s.serverIds.length;
/** One server's summary by id. */
export const selectServer =
  (id: string) =>
  (s: Store): ServerSummary | undefined =>
    s.serversById[id];
/** The selected server's summary. */
export const selectSelectedSummary = (s: Store): ServerSummary | undefined =>
  s.selectedId !== null ? s.serversById[s.selectedId] : undefined;
/** The selected server's detail, its summary and facts together (a new object: select it with useShallow). */
export const selectSelectedDetail = (s: Store): ServerDetail | null => {
  const facts = s.selectedFacts;
  const summary = facts ? s.serversById[facts.id] : undefined;
  return facts && summary ? { ...summary, ...facts } : null;
};
/** Logs of the selected server. */
export const selectSelectedLogs = (s: Store): LogEntry[] => (s.selectedId ? (s.logs[s.selectedId] ?? []) : []);
/** A server's display name by id (the id itself when the server is unknown). */
export const selectServerName =
  (id: string) =>
  (s: Store): string =>
    s.serversById[id]?.name ?? id;
