// Calls are held by call id: two calls of the same tool running at once each keep their own progress, cancel and
// outcome, whichever way the outcome arrives (the call's answer or call.finished), and the panel shows its own call.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IpcEnvelope } from '../../../shared/contract';
import type { CallOutcome, CallStatus } from '../../../shared/domains/calls';
import { connectBridge } from '../../../renderer/src/bridge';
import { resetStore, useStore } from '../../../renderer/src/store';
import { isCallRunning, selectPanelCall } from '../../../renderer/src/store/calls-slice';
import { FakeCoreEvents } from './fake-core-events';

const TOOL = 'mcp__fx__slow';

/** The preload's side of tools.call and tools.cancel: calls stay open until the test answers them. */
const open = new Map<string, (outcome: CallOutcome) => void>();
const cancelled: string[] = [];
const ok = <T>(value: T): Promise<IpcEnvelope<T>> => Promise.resolve({ ok: true, value });
const preload = {
  invoke: {
    'tools.call': (args: { callId: string }) =>
      new Promise<IpcEnvelope<CallOutcome>>((resolve) => open.set(args.callId, (outcome) => resolve({ ok: true, value: outcome }))),
    'tools.cancel': (args: { callId: string }) => {
      cancelled.push(args.callId);
      return ok(undefined);
    },
  },
  events: {},
};

const outcome = (callId: string, status: CallStatus): CallOutcome => ({
  callId,
  status,
  presentation: { isError: status !== 'ok', text: status, truncated: false, media: [], notices: [], links: [], resources: [] },
  durationMs: 1,
  serverId: 'fx',
  tool: TOOL,
});

function answer(callId: string, status: CallStatus): void {
  const resolve = open.get(callId);
  if (!resolve) throw new Error(`no open call ${callId}`);
  open.delete(callId);
  resolve(outcome(callId, status));
}

/** Waits until the store has seen `n` calls start, and returns their ids in order. */
async function started(n: number): Promise<string[]> {
  await vi.waitFor(() => expect(open.size).toBeGreaterThanOrEqual(n));
  return Object.values(useStore.getState().calls)
    .sort((a, b) => a.startedAt - b.startedAt)
    .map((c) => c.callId)
    .filter((id) => open.has(id));
}

beforeAll(async () => {
  vi.stubGlobal('window', { switchboard: preload });
  await connectBridge();
});

afterEach(() => {
  resetStore();
  open.clear();
  cancelled.length = 0;
});

describe('calls slice', () => {
  it('two concurrent calls of the same tool keep separate progress, cancel and outcome', async () => {
    const events = new FakeCoreEvents();
    useStore.getState().wireCore(events);
    const first = useStore.getState().callTool(TOOL, { n: 1 });
    await started(1);
    const second = useStore.getState().callTool(TOOL, { n: 2 });
    await vi.waitFor(() => expect(open.size).toBe(2));
    const [a, b] = [...open.keys()] as [string, string];
    expect(a).not.toBe(b);

    events.emit('call.progress', { callId: a, phase: 'running', progress: 1, total: 10 });
    events.emit('call.progress', { callId: b, phase: 'running', progress: 7, total: 10, message: 'b' });
    events.emit('call.progress', { callId: a, phase: 'running', message: 'a' });
    const calls = () => useStore.getState().calls;
    expect(calls()[a]?.progress).toEqual({ callId: a, phase: 'running', message: 'a', progress: 1, total: 10 });
    expect(calls()[b]?.progress).toEqual({ callId: b, phase: 'running', progress: 7, total: 10, message: 'b' });
    // The panel shows the call it started last.
    expect(selectPanelCall(TOOL)(useStore.getState())?.callId).toBe(b);

    await useStore.getState().cancelCall(a);
    expect(cancelled).toEqual([a]);
    expect(calls()[a]?.cancelling).toBe(true);
    expect(calls()[b]?.cancelling).toBe(false);

    answer(b, 'ok');
    expect(await second).toMatchObject({ callId: b, status: 'ok' });
    expect(calls()[b]?.outcome?.status).toBe('ok');
    expect(isCallRunning(calls()[a]!)).toBe(true);
    expect(calls()[a]?.progress?.progress).toBe(1);

    // The first call's end arrives as call.finished before its own answer; it is recorded once.
    events.emit('call.finished', outcome(a, 'cancelled'));
    expect(calls()[a]).toMatchObject({ outcome: { status: 'cancelled' }, cancelledByYou: true });
    expect(useStore.getState().announcement).toBe('Call finished: Cancelled by you');
    useStore.getState().announce('');
    answer(a, 'cancelled');
    expect(await first).toMatchObject({ callId: a, status: 'cancelled' });
    expect(useStore.getState().announcement).toBe('');
    expect(calls()[b]).toMatchObject({ outcome: { status: 'ok' } });
    expect(calls()[b]?.cancelledByYou).toBeUndefined();
  });

  it('progress and call.finished of calls started elsewhere leave the store alone', () => {
    const events = new FakeCoreEvents();
    useStore.getState().wireCore(events);
    events.emit('call.progress', { callId: 'gateway-call', phase: 'running' });
    events.emit('call.finished', outcome('gateway-call', 'ok'));
    expect(useStore.getState().calls).toEqual({});
  });

  it('clearing the panel forgets its finished call but never a running one', async () => {
    const call = useStore.getState().callTool(TOOL, {});
    const [id] = await started(1);
    useStore.getState().clearOutcome(TOOL);
    expect(selectPanelCall(TOOL)(useStore.getState())?.callId).toBe(id);
    answer(id!, 'ok');
    await call;
    useStore.getState().clearOutcome(TOOL);
    expect(selectPanelCall(TOOL)(useStore.getState())).toBeUndefined();
    expect(useStore.getState().calls).toEqual({});
  });
});
