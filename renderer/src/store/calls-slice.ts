import type { CallOutcome, CallProgress, HistoryEntry } from '../../../shared/domains/calls';
import { AppError } from '../../../shared/errors';
import type { SliceCreator } from './types';
import { api, onEvent } from '../bridge';

/** A call in flight, as the UI shows it. */
export interface RunningCall {
  callId: string;
  tool: string;
  startedAt: number;
  progress?: CallProgress;
  cancelling: boolean;
}

/** What the tool panel should show for one tool: its running call and its last outcome. */
export interface ToolCallState {
  running?: RunningCall;
  outcome?: CallOutcome;
  error?: string;
  /** The outcome is a cancellation the person asked for. */
  cancelledByYou?: boolean;
}

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
  callsByTool: Record<string, ToolCallState>;
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
  callTool: (tool: string, args: Record<string, unknown>) => Promise<CallOutcome | undefined>;
  cancelCall: (tool: string) => Promise<void>;
  /** Forgets a tool's last outcome (its arguments failed validation: the old result would mislead). */
  clearOutcome: (tool: string) => void;
  /** Calls a history entry's tool again with the same arguments; a new history entry results. */
  runAgain: (entry: HistoryEntry) => Promise<CallOutcome | undefined>;
  applyCallProgress: (p: CallProgress) => void;
  loadHistory: (q?: { query?: string; savedOnly?: boolean }) => Promise<void>;
  saveCall: (callId: string, name: string) => Promise<void>;
  clearHistory: (includeSaved: boolean) => Promise<void>;
  startReplay: (entry: HistoryEntry) => void;
  clearReplay: () => void;
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

let subscribed = false;
const callTools = new Map<string, string>();

function newCallId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `call-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export const createCallsSlice: SliceCreator<CallsSlice> = (set, get) => ({
  callsByTool: {},
  history: { entries: [], total: 0, saved: [], query: '', savedOnly: false, loaded: false, error: null },
  replay: null,

  callTool: async (tool, args) => {
    if (!subscribed) {
      onEvent('call.progress', (p) => get().applyCallProgress(p));
      subscribed = true;
    }
    const callId = newCallId();
    callTools.set(callId, tool);
    const running: RunningCall = { callId, tool, startedAt: Date.now(), cancelling: false };
    set((s) => ({ callsByTool: { ...s.callsByTool, [tool]: { ...s.callsByTool[tool], running, error: undefined } } }));
    try {
      const outcome = await api['tools.call']({ name: tool, arguments: args, callId });
      const cancelledByYou = outcome.status === 'cancelled' && get().callsByTool[tool]?.running?.cancelling === true;
      set((s) => ({ callsByTool: { ...s.callsByTool, [tool]: { outcome, ...(cancelledByYou ? { cancelledByYou } : {}) } } }));
      get().announce(`Call finished: ${outcomeLabel(outcome.status, cancelledByYou)}`);
      if (get().history.loaded) void get().loadHistory();
      return outcome;
    } catch (err) {
      set((s) => ({ callsByTool: { ...s.callsByTool, [tool]: { ...s.callsByTool[tool], running: undefined, error: message(err) } } }));
      get().announce(`Call failed: ${message(err)}`);
      return undefined;
    } finally {
      callTools.delete(callId);
    }
  },

  cancelCall: async (tool) => {
    const running = get().callsByTool[tool]?.running;
    if (!running) return;
    set((s) => ({ callsByTool: { ...s.callsByTool, [tool]: { ...s.callsByTool[tool], running: { ...running, cancelling: true } } } }));
    try {
      await api['tools.cancel']({ callId: running.callId });
    } catch {
      // The call may have ended meanwhile; its outcome arrives anyway.
    }
  },

  clearOutcome: (tool) => {
    const current = get().callsByTool[tool];
    if (!current || current.running) return;
    set((s) => ({ callsByTool: { ...s.callsByTool, [tool]: {} } }));
  },

  runAgain: async (entry) => {
    const outcome = await get().callTool(entry.tool, entry.arguments);
    await get().loadHistory();
    return outcome;
  },

  applyCallProgress: (p) => {
    const tool = callTools.get(p.callId);
    if (!tool) return;
    set((s) => {
      const current = s.callsByTool[tool];
      if (!current?.running || current.running.callId !== p.callId) return s;
      const prev = current.running.progress;
      const merged: CallProgress = {
        ...p,
        ...(p.progress === undefined && prev?.progress !== undefined ? { progress: prev.progress, total: prev.total } : {}),
      };
      return { callsByTool: { ...s.callsByTool, [tool]: { ...current, running: { ...current.running, progress: merged } } } };
    });
  },

  loadHistory: async (q) => {
    const query = q?.query ?? get().history.query;
    const savedOnly = q?.savedOnly ?? get().history.savedOnly;
    try {
      const [{ entries, total }, saved] = await Promise.all([
        api['calls.history']({ ...(query ? { query } : {}), savedOnly, limit: 200 }),
        api['calls.history']({ ...(query ? { query } : {}), savedOnly: true, limit: 200 }),
      ]);
      set({ history: { entries, total, saved: saved.entries, query, savedOnly, loaded: true, error: null } });
    } catch (err) {
      set((s) => ({ history: { ...s.history, query, savedOnly, loaded: true, error: message(err) } }));
    }
  },

  saveCall: async (callId, name) => {
    await api['calls.save']({ callId, name });
    await get().loadHistory();
  },

  clearHistory: async (includeSaved) => {
    await api['calls.clear']({ includeSaved });
    await get().loadHistory();
  },

  startReplay: (entry) => set({ replay: { tool: entry.tool, arguments: entry.arguments, nonce: Date.now() } }),
  clearReplay: () => set({ replay: null }),
});
