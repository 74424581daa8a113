import type { AppInfo, AppNotice, LeftoverProcess } from '../../../shared/contract';
import type { CoreStatus } from '../../../shared/domains/app';
import { AppError } from '../../../shared/errors';
import { appService } from '../services/app';
import type { SliceCreator, Store } from './types';
import { wireCoreEvents, type CoreEvents } from './wiring';

/** App-wide state: connection to the core, app facts, notices. */
export interface AppSlice {
  info: AppInfo | null;
  notices: AppNotice[];
  /** `stale`: this tab's headless link is from an earlier run (the page says where the new one is). */
  bridgeState: 'connecting' | 'connected' | 'lost' | 'failed' | 'stale';
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
  /** Loads what waited for a window before this one attached: questions, sampling requests, gateway asks, traffic. */
  loadPending: () => void;
  /** Where the core process stands (null until the shell has said: a core that never stopped). */
  coreStatus: CoreStatus | null;
  /** The shell reports the core stopped, was restarted, or could not be (app.coreStatus). */
  applyCoreStatus: (status: CoreStatus) => void;
  /** Reads everything afresh from a new core: facts, notices, servers, what waits for the person. */
  resync: () => Promise<void>;
  /** The app's notices changed (app.notices). */
  applyNotices: (notices: AppNotice[]) => void;
  /** The connection to the core was lost. */
  applyBridgeLost: () => void;
  /** Unsubscribes the store from the core's events (null: not wired). */
  coreWiring: (() => void) | null;
  /** Subscribes the store to every core event; a second call while wired does nothing. */
  wireCore: (events: CoreEvents) => void;
  /** Unsubscribes from the core's events. */
  unwireCore: () => void;
}

export const appInitialState = {
  info: null,
  notices: [],
  bridgeState: 'connecting',
  bridgeError: null,
  leftovers: null,
  coreWiring: null,
  coreStatus: null,
} satisfies Partial<AppSlice>;

export const createAppSlice: SliceCreator<AppSlice> = (set, get) => ({
  ...appInitialState,
  start: async () => {
    try {
      // Every subscription is attached before the shell is told we listen (Electron holds events until then).
      get().wireCore(await appService.connect());
      await appService.listening();
      const info = await appService.info();
      set({ info, notices: info.notices, bridgeState: 'connected' });
      get().loadPending();
      await get().loadServers();
      await get().showInstallLinks();
    } catch (err) {
      set({
        bridgeState: err instanceof AppError && err.code === 'stale_link' ? 'stale' : 'failed',
        bridgeError: err instanceof AppError ? err.message : 'Could not reach the Switchboard core',
      });
    }
  },
  dismissNotice: async (id) => {
    set({ notices: get().notices.filter((n) => n.id !== id) });
    await appService.dismissNotice(id);
  },
  loadLeftovers: async () => {
    try {
      set({ leftovers: await appService.leftovers() });
    } catch {
      set({ leftovers: [] });
    }
  },
  endLeftovers: async () => {
    const pgids = (get().leftovers ?? []).map((l) => l.pgid);
    if (pgids.length === 0) return;
    try {
      const { ended, remaining } = await appService.endLeftovers(pgids);
      const done = ended.length === 1 ? 'Ended 1 process group' : `Ended ${ended.length} process groups`;
      get().announce(remaining.length > 0 ? `${done}; ${remaining.length} could not be ended` : done);
    } catch (err) {
      get().announce(err instanceof AppError ? err.message : 'The processes could not be ended');
    }
    await get().loadLeftovers();
  },
  loadPending: () => {
    // Each queue also fills from its events; a failed first load leaves it to them rather than failing start-up.
    void get()
      .loadPendingElicitations()
      .catch(() => undefined);
    void get()
      .loadProtocol()
      .catch(() => undefined);
    void get().loadGatewayPending();
  },
  applyCoreStatus: (status) => {
    const before = get().coreStatus;
    set({ coreStatus: status });
    // A new core knows nothing of what this page showed: read it again (no reload, the route and drafts stay).
    if (status.state === 'running' && before !== null && before.state !== 'running') void get().resync();
  },
  resync: async () => {
    try {
      const info = await appService.info();
      set({ info, notices: info.notices });
      get().loadPending();
      await get().loadServers();
    } catch (err) {
      get().announce(err instanceof AppError ? err.message : 'Switchboard could not read the restarted core');
    }
  },
  applyNotices: (notices) => set({ notices }),
  applyBridgeLost: () => set({ bridgeState: 'lost' }),
  wireCore: (events) => {
    if (get().coreWiring) return;
    set({ coreWiring: wireCoreEvents(events, get) });
  },
  unwireCore: () => {
    get().coreWiring?.();
    set({ coreWiring: null });
  },
  openLink: async (url) => {
    try {
      await appService.openLink(url);
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

/** Where the core process stands (null: running since start-up). */
export const selectCoreStatus = (s: Store): CoreStatus | null => s.coreStatus;

/** Facts about the running app (null until connected). */
export const selectAppInfo = (s: Store): AppInfo | null => s.info;
