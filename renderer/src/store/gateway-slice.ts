import type {
  GatewayActivity,
  GatewayClientView,
  GatewayProfile,
  GatewayRequestArguments,
  GatewayRequestView,
  GatewaySetupArgs,
  GatewaySetupPreview,
  GatewaySetupResult,
  GatewayStatus,
} from '../../../shared/domains/gateway';
import { AppError } from '../../../shared/errors';
import { gatewayService } from '../services/gateway';
import type { SliceCreator, Store } from './types';

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
  /** Loads the gateway's status with the calls waiting for a decision (at app start). */
  loadGatewayPending: () => Promise<void>;
  /** The calls waiting for a decision changed (gateway.request). */
  applyGatewayRequest: (pending: GatewayRequestView[]) => void;
  /** A gateway client did something (gateway.activity). */
  applyGatewayActivity: (entry: GatewayActivity) => void;
  /** Loads status, clients and activity (the Gateway view). */
  loadGateway: () => Promise<void>;
  /** Reads the status and clients again (live session counts change without an event). */
  refreshGatewayLive: () => Promise<void>;
  setGatewayEnabled: (on: boolean, port?: number) => Promise<void>;
  addGatewayClient: (name: string, profile: GatewayProfile) => Promise<ActionResult>;
  updateGatewayClient: (id: string, changes: { name?: string; profile?: GatewayProfile }) => Promise<ActionResult>;
  removeGatewayClient: (id: string) => Promise<ActionResult>;
  rotateGatewayToken: (id: string) => Promise<ActionResult>;
  dismissIssuedToken: () => void;
  /** Answers a waiting call; `always` also allows the tool for that client from now on. */
  decideGateway: (requestId: string, allow: boolean, always?: boolean) => Promise<void>;
  /** Allows a tool for a client without asking (pinned to its current definition), or takes that back. */
  trustGatewayTool: (id: string, tool: string, trusted: boolean) => Promise<ActionResult>;
  previewGatewaySetup: (args: GatewaySetupArgs) => Promise<GatewaySetupPreview>;
  installGatewaySetup: (args: GatewaySetupArgs) => Promise<GatewaySetupResult>;
  /** The whole arguments of a waiting call (a shortened one may be allowed once they were opened). */
  openGatewayArguments: (requestId: string) => Promise<GatewayRequestArguments>;
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

export const gatewayInitialState = {
  gatewayStatus: null,
  gatewayClients: [],
  gatewayActivity: [],
  gatewayPending: [],
  gatewayBusy: false,
  gatewayError: null,
  gatewayIssuedToken: null,
} satisfies Partial<GatewaySlice>;

export const createGatewaySlice: SliceCreator<GatewaySlice> = (set) => {
  // Activity comes in bursts; the clients' last-seen times are reloaded once per burst.
  let reloadTimer: ReturnType<typeof setTimeout> | undefined;
  const reloadClients = (): void => {
    if (reloadTimer) return;
    reloadTimer = setTimeout(() => {
      reloadTimer = undefined;
      void Promise.all([gatewayService.clients(), gatewayService.status()]).then(
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
    ...gatewayInitialState,
    applyGatewayRequest: (pending) => set({ gatewayPending: pending }),
    applyGatewayActivity: (entry) => {
      set((s) => ({ gatewayActivity: [entry, ...s.gatewayActivity].slice(0, GATEWAY_ACTIVITY_KEPT) }));
      reloadClients();
    },
    refreshGatewayLive: async () => {
      try {
        const [gatewayClients, gatewayStatus] = await Promise.all([gatewayService.clients(), gatewayService.status()]);
        set({ gatewayClients, gatewayStatus, gatewayPending: gatewayStatus.pending });
      } catch (err) {
        set({ gatewayError: message(err) });
      }
    },
    loadGatewayPending: async () => {
      try {
        const status = await gatewayService.status();
        set({ gatewayStatus: status, gatewayPending: status.pending });
      } catch {
        // The view reports errors when it loads.
      }
    },
    loadGateway: async () => {
      try {
        const [status, clients, activity] = await Promise.all([
          gatewayService.status(),
          gatewayService.clients(),
          gatewayService.activity(100),
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
        const status = on ? await gatewayService.enable(port) : await gatewayService.disable();
        set({ gatewayStatus: status });
      } catch (err) {
        set({ gatewayError: message(err) });
        const status = await gatewayService.status().catch(() => null);
        if (status) set({ gatewayStatus: status });
      } finally {
        set({ gatewayBusy: false });
      }
    },
    addGatewayClient: (name, profile) =>
      run(async () => {
        const added = await gatewayService.addClient(name, profile);
        const { token, ...view } = added;
        set((s) => ({
          gatewayClients: [...s.gatewayClients, view],
          gatewayIssuedToken: { clientId: view.id, name: view.name, token, reason: 'added' },
        }));
        reloadClients();
      }),
    updateGatewayClient: (id, changes) =>
      run(async () => {
        const updated = await gatewayService.updateClient(id, changes);
        set((s) => ({ gatewayClients: s.gatewayClients.map((c) => (c.id === id ? updated : c)) }));
      }),
    removeGatewayClient: (id) =>
      run(async () => {
        await gatewayService.removeClient(id);
        set((s) => ({ gatewayClients: s.gatewayClients.filter((c) => c.id !== id) }));
        reloadClients();
      }),
    rotateGatewayToken: (id) =>
      run(async () => {
        const { token, ...view } = await gatewayService.rotateToken(id);
        set((s) => ({
          gatewayIssuedToken: { clientId: view.id, name: view.name, token, reason: 'rotated' },
          gatewayClients: s.gatewayClients.map((c) => (c.id === view.id ? view : c)),
        }));
      }),
    dismissIssuedToken: () => set({ gatewayIssuedToken: null }),
    trustGatewayTool: (id, tool, trusted) =>
      run(async () => {
        const updated = await gatewayService.trustTool(id, tool, trusted);
        set((s) => ({ gatewayClients: s.gatewayClients.map((c) => (c.id === id ? updated : c)) }));
      }),
    decideGateway: async (requestId, allow, always = false) => {
      set((s) => ({ gatewayPending: s.gatewayPending.filter((p) => p.requestId !== requestId) }));
      try {
        await gatewayService.decide(requestId, allow, always);
        if (always) reloadClients();
      } catch {
        // It ended meanwhile (deadline or the client gave up); the next gateway.request event says so.
      }
    },
    previewGatewaySetup: (args) => gatewayService.setupPreview(args),
    installGatewaySetup: (args) => gatewayService.setupInstall(args),
    openGatewayArguments: (requestId) => gatewayService.requestArguments(requestId),
  };
};

/** The call waiting longest for a decision. */
export const selectCurrentAsk = (s: Store): GatewayRequestView | undefined => s.gatewayPending[0];
/** How many calls wait for a decision. */
export const selectAskCount = (s: Store): number => s.gatewayPending.length;
