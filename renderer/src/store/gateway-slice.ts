import type {
  GatewayActivity,
  GatewayClientView,
  GatewayProfile,
  GatewayRequestView,
  GatewaySetupArgs,
  GatewaySetupPreview,
  GatewaySetupResult,
  GatewayStatus,
} from '../../../shared/domains/gateway';
import { AppError } from '../../../shared/errors';
import type { SliceCreator, Store } from './types';
import { api, onEvent } from '../bridge';

/** Activity entries kept in the renderer. */
export const GATEWAY_ACTIVITY_KEPT = 200;

/** A token the core returned once, shown until the person closes it. */
export interface IssuedToken {
  clientId: string;
  name: string;
  token: string;
  /** Added now, or a replacement for an old token. */
  reason: 'added' | 'rotated';
}

/** The result of an action a dialog waits for. */
export type ActionResult = { ok: true } | { ok: false; error: string };

/** Gateway state: on/off and URL, clients, activity, the calls waiting for a decision. */
export interface GatewaySlice {
  gatewayStatus: GatewayStatus | null;
  gatewayClients: GatewayClientView[];
  gatewayActivity: GatewayActivity[];
  gatewayPending: GatewayRequestView[];
  gatewayBusy: boolean;
  gatewayError: string | null;
  gatewayIssuedToken: IssuedToken | null;
  /** Subscribes to the gateway's events (once, at app start) and loads the calls waiting for a decision. */
  startGateway: () => Promise<void>;
  /** Loads status, clients and activity (the Gateway view). */
  loadGateway: () => Promise<void>;
  setGatewayEnabled: (on: boolean, port?: number) => Promise<void>;
  addGatewayClient: (name: string, profile: GatewayProfile) => Promise<ActionResult>;
  updateGatewayClient: (id: string, changes: { name?: string; profile?: GatewayProfile }) => Promise<ActionResult>;
  removeGatewayClient: (id: string) => Promise<ActionResult>;
  rotateGatewayToken: (id: string) => Promise<ActionResult>;
  dismissIssuedToken: () => void;
  decideGateway: (requestId: string, allow: boolean) => Promise<void>;
  previewGatewaySetup: (args: GatewaySetupArgs) => Promise<GatewaySetupPreview>;
  installGatewaySetup: (args: GatewaySetupArgs) => Promise<GatewaySetupResult>;
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

let subscribed = false;
let reloadTimer: ReturnType<typeof setTimeout> | undefined;

export const createGatewaySlice: SliceCreator<GatewaySlice> = (set) => {
  const reloadClients = (): void => {
    if (reloadTimer) return;
    reloadTimer = setTimeout(() => {
      reloadTimer = undefined;
      void Promise.all([api['gateway.clients']({}), api['gateway.status']({})]).then(
        ([gatewayClients, gatewayStatus]) => set({ gatewayClients, gatewayStatus }),
        () => undefined,
      );
    }, 400);
  };
  const run = async (action: () => Promise<void>): Promise<ActionResult> => {
    try {
      await action();
      return { ok: true };
    } catch (err) {
      return { ok: false, error: message(err) };
    }
  };
  return {
    gatewayStatus: null,
    gatewayClients: [],
    gatewayActivity: [],
    gatewayPending: [],
    gatewayBusy: false,
    gatewayError: null,
    gatewayIssuedToken: null,
    startGateway: async () => {
      if (!subscribed) {
        onEvent('gateway.request', ({ pending }) => set({ gatewayPending: pending }));
        onEvent('gateway.activity', (entry) => {
          set((s) => ({ gatewayActivity: [entry, ...s.gatewayActivity].slice(0, GATEWAY_ACTIVITY_KEPT) }));
          reloadClients();
        });
        subscribed = true;
      }
      try {
        const status = await api['gateway.status']({});
        set({ gatewayStatus: status, gatewayPending: status.pending });
      } catch {
        // The view reports errors when it loads.
      }
    },
    loadGateway: async () => {
      try {
        const [status, clients, activity] = await Promise.all([
          api['gateway.status']({}),
          api['gateway.clients']({}),
          api['gateway.activity']({ limit: 100 }),
        ]);
        set({
          gatewayStatus: status,
          gatewayPending: status.pending,
          gatewayClients: clients,
          gatewayActivity: activity,
          gatewayError: null,
        });
      } catch (err) {
        set({ gatewayError: message(err) });
      }
    },
    setGatewayEnabled: async (on, port) => {
      set({ gatewayBusy: true, gatewayError: null });
      try {
        const status = on ? await api['gateway.enable'](port === undefined ? {} : { port }) : await api['gateway.disable']({});
        set({ gatewayStatus: status });
      } catch (err) {
        set({ gatewayError: message(err) });
        const status = await api['gateway.status']({}).catch(() => null);
        if (status) set({ gatewayStatus: status });
      } finally {
        set({ gatewayBusy: false });
      }
    },
    addGatewayClient: (name, profile) =>
      run(async () => {
        const added = await api['gateway.addClient']({ name, profile });
        const { token, ...view } = added;
        set((s) => ({
          gatewayClients: [...s.gatewayClients, view],
          gatewayIssuedToken: { clientId: view.id, name: view.name, token, reason: 'added' },
        }));
        reloadClients();
      }),
    updateGatewayClient: (id, changes) =>
      run(async () => {
        const updated = await api['gateway.updateClient']({ id, ...changes });
        set((s) => ({ gatewayClients: s.gatewayClients.map((c) => (c.id === id ? updated : c)) }));
      }),
    removeGatewayClient: (id) =>
      run(async () => {
        await api['gateway.removeClient']({ id });
        set((s) => ({ gatewayClients: s.gatewayClients.filter((c) => c.id !== id) }));
        reloadClients();
      }),
    rotateGatewayToken: (id) =>
      run(async () => {
        const { token, ...view } = await api['gateway.rotateToken']({ id });
        set({ gatewayIssuedToken: { clientId: view.id, name: view.name, token, reason: 'rotated' } });
      }),
    dismissIssuedToken: () => set({ gatewayIssuedToken: null }),
    decideGateway: async (requestId, allow) => {
      set((s) => ({ gatewayPending: s.gatewayPending.filter((p) => p.requestId !== requestId) }));
      try {
        await api['gateway.decide']({ requestId, allow });
      } catch {
        // It ended meanwhile (deadline or the client gave up); the next gateway.request event says so.
      }
    },
    previewGatewaySetup: (args) => api['gateway.setupPreview'](args),
    installGatewaySetup: (args) => api['gateway.setupInstall'](args),
  };
};

/** The call waiting longest for a decision. */
export const selectCurrentAsk = (s: Store): GatewayRequestView | undefined => s.gatewayPending[0];
/** How many calls wait for a decision. */
export const selectAskCount = (s: Store): number => s.gatewayPending.length;
