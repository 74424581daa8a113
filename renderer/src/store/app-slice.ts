import type { AppInfo, AppNotice, LeftoverProcess } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { SliceCreator, Store } from './types';
import { api, connectBridge, onDisconnect, onEvent } from '../bridge';

/** App-wide state: connection to the core, app facts, notices. */
export interface AppSlice {
  info: AppInfo | null;
  notices: AppNotice[];
  bridgeState: 'connecting' | 'connected' | 'lost' | 'failed';
  bridgeError: string | null;
  start: () => Promise<void>;
  dismissNotice: (id: string) => Promise<void>;
  /** Opens an http(s) link the person clicked, through the core's safe opener; a refusal is announced. */
  openLink: (url: string) => Promise<void>;
  /** Server processes from an earlier run still running (null until loaded). */
  leftovers: LeftoverProcess[] | null;
  /** Loads the leftovers from the core. */
  loadLeftovers: () => Promise<void>;
  /** Ends every listed leftover; the outcome is announced and the list reloaded. */
  endLeftovers: () => Promise<void>;
}

export const appInitialState = {
  info: null,
  notices: [],
  bridgeState: 'connecting',
  bridgeError: null,
  leftovers: null,
} satisfies Partial<AppSlice>;

export const createAppSlice: SliceCreator<AppSlice> = (set, get) => ({
  ...appInitialState,
  start: async () => {
    try {
      await connectBridge();
      onDisconnect(() => set({ bridgeState: 'lost' }));
      onEvent('app.notices', ({ notices }) => set({ notices }));
      onEvent('servers.changed', ({ servers }) => get().applyServerList(servers));
      onEvent('servers.status', ({ id, status }) => get().applyStatus(id, status));
      onEvent('servers.log', ({ id, entry }) => get().applyLog(id, entry));
      await api['app.listening']({});
      const info = await api['app.info']({});
      set({ info, notices: info.notices, bridgeState: 'connected' });
      await get().loadServers();
      await get().startRegistry();
    } catch (err) {
      set({ bridgeState: 'failed', bridgeError: err instanceof AppError ? err.message : 'Could not reach the Switchboard core' });
    }
  },
  dismissNotice: async (id) => {
    set({ notices: get().notices.filter((n) => n.id !== id) });
    await api['app.dismissNotice']({ id });
  },
  loadLeftovers: async () => {
    try {
      set({ leftovers: await api['app.leftovers']({}) });
    } catch {
      set({ leftovers: [] });
    }
  },
  endLeftovers: async () => {
    const pgids = (get().leftovers ?? []).map((l) => l.pgid);
    if (pgids.length === 0) return;
    try {
      const { ended, remaining } = await api['app.endLeftovers']({ pgids });
      const done = ended.length === 1 ? 'Ended 1 process group' : `Ended ${ended.length} process groups`;
      get().announce(remaining.length > 0 ? `${done}; ${remaining.length} could not be ended` : done);
    } catch (err) {
      get().announce(err instanceof AppError ? err.message : 'The processes could not be ended');
    }
    await get().loadLeftovers();
  },
  openLink: async (url) => {
    try {
      await api['app.openLink']({ url });
      get().announce(get().info?.mode === 'headless' ? `Link printed by the Switchboard host: ${url}` : `Opened ${url} in your browser`);
    } catch (err) {
      get().announce(err instanceof AppError ? err.message : 'The link could not be opened');
    }
  },
});

/** Notices currently shown. */
export const selectNotices = (s: Store): AppNotice[] => s.notices;

/** Server processes from an earlier run still running (null until loaded). */
export const selectLeftovers = (s: Store): LeftoverProcess[] | null => s.leftovers;

/** Facts about the running app (null until connected). */
export const selectAppInfo = (s: Store): AppInfo | null => s.info;
