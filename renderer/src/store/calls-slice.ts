import type { InvokeResult } from '../../../shared/contract';
import type { AuthStatus } from '../../../shared/domains/auth';
import type { CallOutcome, CallProgress, ExportCollectionArgs, ExportTestArgs, HistoryEntry } from '../../../shared/domains/calls';
import { AppError } from '../../../shared/errors';
import { callsService } from '../services/calls';
import type { SliceCreator, Store } from './types';

/** One call started from this window, as the UI shows it: running (phase, progress, cancel), then how it ended. */
export interface CallState {
  callId: string;
  tool: string;
  startedAt: number;
  /** The latest progress while it runs. */
  progress?: CallProgress;
  /** The person asked to cancel it. */
  cancelling: boolean;
  /** How it ended, once it has. */
  outcome?: CallOutcome;
  /** Why it could not run at all (the core refused it before it started). */
  error?: string;
  /** The outcome is a cancellation the person asked for. */
  cancelledByYou?: boolean;
}

/** True while a call has neither an outcome nor an error. */
export const isCallRunning = (call: CallState): boolean => call.outcome === undefined && call.error === undefined;

/** A call's status in words; a cancel the person asked for says so. */
export function outcomeLabel(status: CallOutcome['status'], cancelledByYou = false): string {
  if (status === 'cancelled') return cancelledByYou ? 'Cancelled by you' : 'Cancelled';
  return { ok: 'Succeeded', error: 'Failed', timeout: 'Timed out' }[status];
}

/** A history entry to replay: the form of its tool is filled with its arguments. */
export interface ReplayRequest {
  tool: string;
  arguments: Record<string, unknown>;
  nonce: number;
}

/** Tool calls, live progress, results and history. */
export interface CallsSlice {
  /** Calls started from this window, by call id: each keeps its own progress and outcome. */
  calls: Record<string, CallState>;
  /** The call each tool's call panel started last, by tool name: the panel shows it again when it is opened again. */
  panelCalls: Record<string, string>;
  history: {
    entries: HistoryEntry[];
    total: number;
    /** Saved calls (newest first), shown as their own group. */
    saved: HistoryEntry[];
    query: string;
    savedOnly: boolean;
    loaded: boolean;
    error: string | null;
  };
  replay: ReplayRequest | null;
  /** Calls a tool from its call panel; the panel then shows this call. */
  callTool: (tool: string, args: Record<string, unknown>) => Promise<CallOutcome | undefined>;
  cancelCall: (callId: string) => Promise<void>;
  /** Forgets the outcome a tool's panel shows (its arguments failed validation: the old result would mislead). */
  clearOutcome: (tool: string) => void;
  /** Calls a history entry's tool again with the same arguments; a new history entry results. */
  runAgain: (entry: HistoryEntry) => Promise<CallOutcome | undefined>;
  applyCallProgress: (p: CallProgress) => void;
  /** A call ended (any call: the person's, an app's or a gateway client's). */
  applyCallFinished: (outcome: CallOutcome) => void;
  loadHistory: (q?: { query?: string; savedOnly?: boolean }) => Promise<void>;
  saveCall: (callId: string, name: string) => Promise<void>;
  clearHistory: (includeSaved: boolean) => Promise<void>;
  startReplay: (entry: Pick<HistoryEntry, 'tool' | 'arguments'>) => void;
  clearReplay: () => void;
  /** A finished call's full result envelope, as the server sent it. */
  fetchCallResult: (callId: string) => Promise<InvokeResult<'calls.result'>>;
  /** The history as a JSON file. */
  exportHistory: () => Promise<InvokeResult<'calls.export'>>;
  /** Calls written as a test file. */
  exportTest: (args: ExportTestArgs) => Promise<InvokeResult<'calls.exportTest'>>;
  /** Calls written as a collection file (what `switchboard run` runs). */
  exportCollection: (args: ExportCollectionArgs) => Promise<InvokeResult<'calls.exportCollection'>>;
  /** Starts signing in to the server a call needed authorization for. */
  signInForCall: (serverId: string) => Promise<AuthStatus>;
}

/** Finished calls kept besides those a panel shows (running calls are always kept). */
export const FINISHED_CALLS_KEPT = 20;

export const callsInitialState = {
  calls: {},
  panelCalls: {},
  history: { entries: [], total: 0, saved: [], query: '', savedOnly: false, loaded: false, error: null },
  replay: null,
} satisfies Partial<CallsSlice>;

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

function newCallId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `call-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** Drops the oldest finished calls no panel shows, past the bound. */
function prune(calls: Record<string, CallState>, panelCalls: Record<string, string>): Record<string, CallState> {
  const shown = new Set(Object.values(panelCalls));
  const spare = Object.values(calls)
    .filter((c) => !isCallRunning(c) && !shown.has(c.callId))
    .sort((x, y) => y.startedAt - x.startedAt);
  if (spare.length <= FINISHED_CALLS_KEPT) return calls;
  const next = { ...calls };
  for (const c of spare.slice(FINISHED_CALLS_KEPT)) delete next[c.callId];
  return next;
}

export const createCallsSlice: SliceCreator<CallsSlice> = (set, get) => {
  const put = (call: CallState): void => set((s) => ({ calls: prune({ ...s.calls, [call.callId]: call }, s.panelCalls) }));

  /** Records how a call ended, once: the call.finished event and the call's own answer both carry it. */
  const settle = (outcome: CallOutcome): void => {
    const call = get().calls[outcome.callId];
    if (!call || !isCallRunning(call)) return;
    const cancelledByYou = outcome.status === 'cancelled' && call.cancelling;
    put({ ...call, outcome, ...(cancelledByYou ? { cancelledByYou } : {}) });
    get().announce(`Call finished: ${outcomeLabel(outcome.status, cancelledByYou)}`);
  };

  const run = async (tool: string, args: Record<string, unknown>, fromPanel: boolean): Promise<CallOutcome | undefined> => {
    const callId = newCallId();
    const call: CallState = { callId, tool, startedAt: Date.now(), cancelling: false };
    set((s) => ({
      calls: { ...s.calls, [callId]: call },
      ...(fromPanel ? { panelCalls: { ...s.panelCalls, [tool]: callId } } : {}),
    }));
    try {
      const outcome = await callsService.call(tool, args, callId);
      settle(outcome);
      return outcome;
    } catch (err) {
      const current = get().calls[callId];
      if (current && isCallRunning(current)) put({ ...current, error: message(err) });
      get().announce(`Call failed: ${message(err)}`);
      return undefined;
    }
  };

  return {
    ...callsInitialState,

    callTool: (tool, args) => run(tool, args, true),

    cancelCall: async (callId) => {
      const call = get().calls[callId];
      if (!call || !isCallRunning(call)) return;
      put({ ...call, cancelling: true });
      try {
        await callsService.cancel(callId);
      } catch {
        // The call may have ended meanwhile; its outcome arrives anyway.
      }
    },

    clearOutcome: (tool) => {
      const callId = get().panelCalls[tool];
      const call = callId !== undefined ? get().calls[callId] : undefined;
      if (!call || isCallRunning(call)) return;
      set((s) => {
        const { [tool]: _shown, ...panelCalls } = s.panelCalls;
        const { [call.callId]: _call, ...calls } = s.calls;
        return { panelCalls, calls };
      });
    },

    runAgain: async (entry) => {
      const outcome = await run(entry.tool, entry.arguments, false);
      await get().loadHistory();
      return outcome;
    },

    applyCallProgress: (p) => {
      const call = get().calls[p.callId];
      if (!call || !isCallRunning(call)) return;
      const prev = call.progress;
      const merged: CallProgress = {
        ...p,
        ...(p.progress === undefined && prev?.progress !== undefined ? { progress: prev.progress, total: prev.total } : {}),
      };
      put({ ...call, progress: merged });
    },

    applyCallFinished: (outcome) => {
      settle(outcome);
      // The history shown follows every call that ends, whoever made it.
      if (get().history.loaded) void get().loadHistory();
    },

    loadHistory: async (q) => {
      const query = q?.query ?? get().history.query;
      const savedOnly = q?.savedOnly ?? get().history.savedOnly;
      try {
        const [{ entries, total }, saved] = await Promise.all([
          callsService.history({ ...(query ? { query } : {}), savedOnly, limit: 200 }),
          callsService.history({ ...(query ? { query } : {}), savedOnly: true, limit: 200 }),
        ]);
        set({ history: { entries, total, saved: saved.entries, query, savedOnly, loaded: true, error: null } });
      } catch (err) {
        set((s) => ({ history: { ...s.history, query, savedOnly, loaded: true, error: message(err) } }));
      }
    },

    saveCall: async (callId, name) => {
      await callsService.save(callId, name);
      await get().loadHistory();
    },

    clearHistory: async (includeSaved) => {
      await callsService.clear(includeSaved);
      await get().loadHistory();
    },

    startReplay: (entry) => set({ replay: { tool: entry.tool, arguments: entry.arguments, nonce: Date.now() } }),
    clearReplay: () => set({ replay: null }),
    fetchCallResult: (callId) => callsService.result(callId),
    exportHistory: () => callsService.exportHistory(),
    exportTest: (args) => callsService.exportTest(args),
    exportCollection: (args) => callsService.exportCollection(args),
    signInForCall: (serverId) => callsService.signIn(serverId),
  };
};

/** The call a tool's call panel shows: the one it started last. */
export const selectPanelCall =
  (tool: string) =>
  (s: Store): CallState | undefined => {
    const callId = s.panelCalls[tool];
    return callId !== undefined ? s.calls[callId] : undefined;
  };

/** One call by id. */
export const selectCall =
  (callId: string) =>
  (s: Store): CallState | undefined =>
    s.calls[callId];
