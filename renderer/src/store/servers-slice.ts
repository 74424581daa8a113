import type { ServerConfigInput } from '../../../shared/config';
import type { LogEntry, ServerDetail, ServerStatus, ServerSummary } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { serversService } from '../services/servers';
import { routes } from '../router/route';
import { statusText } from '../ui/StatusBadge';
import type { SliceCreator, Store } from './types';
import { api } from '../bridge';

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

/** Servers: the list, the selected server's detail and its logs. */
export interface ServersSlice {
  /** Counts per server id, for the overview and the tab labels. */
  counts: Record<string, ServerCounts>;
  /** Counts a connected server's tools, resources and prompts (the latter two only when `caps` lists them). */
  loadCounts: (id: string, caps: readonly string[]) => Promise<void>;
  servers: ServerSummary[];
  loaded: boolean;
  selectedId: string | null;
  detail: ServerDetail | null;
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
  applyServerList: (servers: ServerSummary[]) => void;
  applyStatus: (id: string, status: ServerStatus) => void;
  applyLog: (id: string, entry: LogEntry) => void;
}

export const serversInitialState = {
  counts: {},
  servers: [],
  loaded: false,
  selectedId: null,
  detail: null,
  logs: {},
  actionError: null,
} satisfies Partial<ServersSlice>;

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

export const createServersSlice: SliceCreator<ServersSlice> = (set, get) => ({
  ...serversInitialState,
  loadServers: async () => {
    const servers = await api['servers.list']({});
    set({ servers, loaded: true });
  },
  select: async (id) => {
    set({ selectedId: id, detail: null, actionError: null });
    if (id === null) return;
    const [detail, logs] = await Promise.all([api['servers.get']({ id }), api['servers.logs']({ id })]);
    if (get().selectedId === id) set({ detail, logs: { ...get().logs, [id]: logs } });
  },
  refreshDetail: async () => {
    const id = get().selectedId;
    if (!id) return;
    try {
      const detail = await api['servers.get']({ id });
      if (get().selectedId === id) set({ detail });
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
    const detail = await api['servers.add']({ config, ...(bearerToken !== undefined ? { bearerToken } : {}) });
    await get().loadServers();
    return detail;
  },
  updateServer: async (id, config) => {
    const detail = await api['servers.update']({ id, config });
    if (get().selectedId === id) set({ detail });
    return detail;
  },
  removeServer: async (id, deleteCredentials) => {
    await api['servers.remove']({ id, deleteCredentials });
    if (get().selectedId === id) get().navigate(routes.servers(), { replace: true });
    await get().loadServers();
  },
  addDemo: async () => {
    try {
      const detail = await api['servers.addDemo']({});
      await get().loadServers();
      get().navigate(routes.servers(detail.id));
    } catch (err) {
      set({ actionError: message(err) });
    }
  },
  runServerAction: async (id, action) => {
    set({ actionError: null });
    try {
      await api[`servers.${action}`]({ id });
    } catch (err) {
      set({ actionError: message(err) });
    }
    await get().refreshDetail();
  },
  approve: async (id, fingerprint) => {
    set({ actionError: null });
    try {
      const detail = await api['servers.approve']({ id, fingerprint });
      set({ detail });
    } catch (err) {
      set({ actionError: message(err) });
    }
  },
  applyServerList: (servers) => {
    set({ servers, loaded: true });
    void get().refreshDetail();
  },
  applyStatus: (id, status) => {
    const before = get().servers.find((s) => s.id === id);
    set({ servers: get().servers.map((s) => (s.id === id ? { ...s, status } : s)) });
    if (before && before.status.state !== status.state) get().announce(`${before.name}: ${statusText({ ...before, status })}`);
    const detail = get().detail;
    if (detail?.id === id) {
      set({ detail: { ...detail, status } });
      if (status.state === 'connected' || status.state === 'disconnected') void get().refreshDetail();
    }
  },
  applyLog: (id, entry) => {
    const list = get().logs[id];
    if (!list) return;
    const next = list.length >= MAX_LOGS ? [...list.slice(list.length - MAX_LOGS + 1), entry] : [...list, entry];
    set({ logs: { ...get().logs, [id]: next } });
  },
});

/** The server list. */
export const selectServers = (s: Store): ServerSummary[] => s.servers;
/** The selected server's summary. */
export const selectSelectedSummary = (s: Store): ServerSummary | undefined => s.servers.find((x) => x.id === s.selectedId);
/** Logs of the selected server. */
export const selectSelectedLogs = (s: Store): LogEntry[] => (s.selectedId ? (s.logs[s.selectedId] ?? []) : []);
/** A server's display name by id (the id itself when the server is unknown). */
export const selectServerName =
  (id: string) =>
  (s: Store): string =>
    s.servers.find((x) => x.id === id)?.name ?? id;
