import type {
  ClientFeaturesView,
  ElicitationConsent,
  RootInput,
  SamplingReply,
  SamplingRequestView,
  ServerTaskView,
  TrafficEntry,
} from '../../../shared/domains/protocol';
import { protocolService } from '../services/protocol';
import type { SliceCreator, Store } from './types';
import { TRAFFIC_RING_SIZE, trimTraffic } from '../../../shared/domains/traffic-ring';

/** Entries the renderer keeps per server (the core keeps the same bound, event notifications to the same share). */
export const TRAFFIC_KEPT_PER_SERVER = TRAFFIC_RING_SIZE;

/** The protocol view's traffic, each server's client features and the sampling dialog queue. */
export interface ProtocolSlice {
  /** Recorded traffic per server, oldest first. */
  traffic: Record<string, TrafficEntry[]>;
  /** Whether the traffic was loaded from the core once. */
  trafficLoaded: boolean;
  /** Client features per server, once loaded. */
  features: Record<string, ClientFeaturesView>;
  /** Sampling requests waiting for the person, oldest first (one dialog at a time). */
  samplingQueue: SamplingRequestView[];
  /** Loads the recorded traffic and the sampling requests already waiting. */
  loadProtocol: () => Promise<void>;
  /** New traffic was recorded (protocol.traffic). */
  applyTraffic: (entries: TrafficEntry[]) => void;
  /** Recorded traffic was forgotten, of one server or all (protocol.cleared). */
  applyTrafficCleared: (serverId?: string) => void;
  /** A server's client features changed (protocol.featuresChanged). */
  applyFeatures: (view: ClientFeaturesView) => void;
  /** A server asks for a sampling answer (sampling.requested). */
  applySamplingRequested: (request: SamplingRequestView) => void;
  /** A sampling request was answered or withdrawn (sampling.settled). */
  applySamplingSettled: (requestId: string) => void;
  /** Forgets recorded traffic (one server or all). */
  clearTraffic: (serverId?: string) => Promise<void>;
  /** Loads a server's client features. */
  loadFeatures: (id: string) => Promise<void>;
  /** Changes feature switches (a live session reconnects). */
  setFeatures: (id: string, patch: { elicitation?: boolean; sampling?: boolean; roots?: boolean; tasks?: boolean }) => Promise<void>;
  /** Records the consent to questions from a server. */
  setConsent: (id: string, consent: ElicitationConsent) => Promise<void>;
  /** Replaces the folders shared with a server. */
  setRoots: (id: string, roots: RootInput[]) => Promise<void>;
  /** The last tasks/list answer per server. */
  serverTasks: Record<string, { supported: boolean; tasks: ServerTaskView[]; at: number }>;
  /** Reads a server's tasks (2025-11-25 tasks/list). */
  loadServerTasks: (id: string) => Promise<void>;
  /** Answers (or declines) a sampling request. */
  respondSampling: (requestId: string, action: 'accept' | 'decline', reply?: SamplingReply) => Promise<void>;
}

export const protocolInitialState = {
  traffic: {},
  trafficLoaded: false,
  features: {},
  samplingQueue: [],
  serverTasks: {},
} satisfies Partial<ProtocolSlice>;

function append(current: Record<string, TrafficEntry[]>, entries: TrafficEntry[]): Record<string, TrafficEntry[]> {
  const next = { ...current };
  const touched = new Set<string>();
  for (const e of entries) {
    if (!touched.has(e.serverId)) {
      next[e.serverId] = [...(current[e.serverId] ?? [])];
      touched.add(e.serverId);
    }
    let list = next[e.serverId]!;
    const last = list[list.length - 1];
    // A server removed and added again starts counting anew.
    if (last && e.seq === 1 && list[0]!.seq !== 1) list = next[e.serverId] = [];
    if (list.length === 0 || list[list.length - 1]!.seq < e.seq) list.push(e);
  }
  for (const id of touched) {
    next[id] = trimTraffic(next[id]!);
  }
  return next;
}

export const createProtocolSlice: SliceCreator<ProtocolSlice> = (set, get) => ({
  ...protocolInitialState,
  applyTraffic: (entries) => set({ traffic: append(get().traffic, entries) }),
  applyTrafficCleared: (serverId) => {
    if (serverId === undefined) set({ traffic: {} });
    else {
      const next = { ...get().traffic };
      delete next[serverId];
      set({ traffic: next });
    }
  },
  applyFeatures: (view) => set({ features: { ...get().features, [view.serverId]: view } }),
  applySamplingRequested: (request) => {
    if (get().samplingQueue.some((r) => r.requestId === request.requestId)) return;
    set({ samplingQueue: [...get().samplingQueue, request] });
  },
  applySamplingSettled: (requestId) => set({ samplingQueue: get().samplingQueue.filter((r) => r.requestId !== requestId) }),
  loadProtocol: async () => {
    const [recorded, pending] = await Promise.all([protocolService.traffic(), protocolService.pendingSampling()]);
    // Entries pushed while loading are newer than the recorded ones: keep both, once each (by seq).
    const live = Object.values(get().traffic).flat();
    set({ traffic: append(append({}, recorded.entries), live), trafficLoaded: true });
    const known = new Set(get().samplingQueue.map((r) => r.requestId));
    set({ samplingQueue: [...get().samplingQueue, ...pending.filter((p) => !known.has(p.requestId))] });
  },
  clearTraffic: async (serverId) => {
    await protocolService.clear(serverId);
  },
  loadFeatures: async (id) => {
    const view = await protocolService.features(id);
    set({ features: { ...get().features, [id]: view } });
  },
  setFeatures: async (id, patch) => {
    const view = await protocolService.setFeatures(id, patch);
    set({ features: { ...get().features, [id]: view } });
  },
  setConsent: async (id, consent) => {
    const view = await protocolService.setConsent(id, consent);
    set({ features: { ...get().features, [id]: view } });
  },
  setRoots: async (id, roots) => {
    const view = await protocolService.setRoots(id, roots);
    set({ features: { ...get().features, [id]: view } });
  },
  loadServerTasks: async (id) => {
    const page = await protocolService.tasks(id);
    set({ serverTasks: { ...get().serverTasks, [id]: { supported: page.supported, tasks: page.tasks, at: Date.now() } } });
  },
  respondSampling: async (requestId, action, reply) => {
    await protocolService.respondSampling(requestId, action, reply);
    set({ samplingQueue: get().samplingQueue.filter((r) => r.requestId !== requestId) });
  },
});

const EMPTY: TrafficEntry[] = [];

/** The traffic of one server, or of all servers merged by time. */
export const selectTraffic =
  (serverId?: string) =>
  (s: Store): TrafficEntry[] =>
    serverId !== undefined ? (s.traffic[serverId] ?? EMPTY) : mergeAll(s.traffic);

// Merged lists by the traffic record they came from: selecting twice from one state gives the same array.
const merged = new WeakMap<Record<string, TrafficEntry[]>, TrafficEntry[]>();
function mergeAll(traffic: Record<string, TrafficEntry[]>): TrafficEntry[] {
  let list = merged.get(traffic);
  if (!list) {
    list = Object.values(traffic)
      .flat()
      .sort((a, b) => a.time - b.time || a.seq - b.seq);
    merged.set(traffic, list);
  }
  return list;
}

/** A server's client features, once loaded. */
export const selectFeatures =
  (id: string) =>
  (s: Store): ClientFeaturesView | undefined =>
    s.features[id];
/** The sampling request shown now. */
export const selectCurrentSampling = (s: Store): SamplingRequestView | undefined => s.samplingQueue[0];
