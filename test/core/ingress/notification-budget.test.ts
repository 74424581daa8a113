// The per-server notification budget, on a fake clock: logging and progress draw on a token bucket (excess dropped
// and counted); list changes and resource updates are coalesced, the newest always delivered at the interval's end.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import {
  MAX_HELD_SIGNALS,
  notificationBudgetStage,
  SIGNAL_INTERVAL_MS,
  TokenBucket,
} from '../../../electron/core/ingress/notification-budget.js';

function clock() {
  let t = 1_000_000;
  const timers: { at: number; fn: () => void }[] = [];
  return {
    now: () => t,
    setTimer: (fn: () => void, ms: number) => void timers.push({ at: t + ms, fn }),
    advance(ms: number) {
      t += ms;
      for (const timer of timers.splice(0).sort((a, b) => a.at - b.at)) {
        if (timer.at <= t) timer.fn();
        else timers.push(timer);
      }
    },
  };
}

const log = (i: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: i } });
const changed: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
const updated = (uri: string, i = 0): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri, i } });

describe('TokenBucket', () => {
  it('gives a burst, then refills at its rate, never above the burst', () => {
    const c = clock();
    const bucket = new TokenBucket(3, 10, c.now);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
    c.advance(100);
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    c.advance(60_000);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([true, true, true, false]);
  });
});

describe('notificationBudgetStage', () => {
  it('drops logging and progress over the budget and counts each; requests, responses and other notifications pass', () => {
    const c = clock();
    const dropped: string[] = [];
    const stage = notificationBudgetStage({ bucket: new TokenBucket(2, 1, c.now), onDropped: (m) => dropped.push(m), ...c });
    const later = (): void => undefined;
    const progress: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } };
    expect(stage(log(1), later)).toBeDefined();
    expect(stage(progress, later)).toBeDefined();
    expect(stage(log(2), later)).toBeUndefined();
    expect(stage(progress, later)).toBeUndefined();
    expect(dropped).toEqual(['notifications/message', 'notifications/progress']);
    const request: JSONRPCMessage = { jsonrpc: '2.0', id: 7, method: 'ping' };
    const response: JSONRPCMessage = { jsonrpc: '2.0', id: 8, result: {} };
    const other: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    for (const m of [request, response, other]) expect(stage(m, later)).toBe(m);
  });

  it('coalesces a burst of list changes into the first one and the newest at the end of the interval', () => {
    const c = clock();
    const delivered: JSONRPCMessage[] = [];
    const stage = notificationBudgetStage({ bucket: new TokenBucket(1, 1, c.now), onDropped: () => undefined, ...c });
    const later = (m: JSONRPCMessage): void => void delivered.push(m);
    expect(stage(changed, later)).toBe(changed);
    for (let i = 0; i < 1000; i++) expect(stage(changed, later)).toBeUndefined();
    expect(delivered).toEqual([]);
    c.advance(SIGNAL_INTERVAL_MS);
    expect(delivered).toEqual([changed]);
    c.advance(SIGNAL_INTERVAL_MS);
    expect(stage(changed, later)).toBe(changed);
  });

  it('coalesces resource updates per resource, and drops (counting) past the number of resources it holds', () => {
    const c = clock();
    const delivered: JSONRPCMessage[] = [];
    const dropped: string[] = [];
    const stage = notificationBudgetStage({ bucket: new TokenBucket(1, 1, c.now), onDropped: (m) => dropped.push(m), ...c });
    const later = (m: JSONRPCMessage): void => void delivered.push(m);
    expect(stage(updated('a'), later)).toBeDefined();
    expect(stage(updated('b'), later)).toBeDefined();
    expect(stage(updated('a', 1), later)).toBeUndefined();
    expect(stage(updated('a', 2), later)).toBeUndefined();
    c.advance(SIGNAL_INTERVAL_MS);
    expect(delivered).toEqual([updated('a', 2)]);
    for (let i = 0; i < MAX_HELD_SIGNALS + 10; i++) stage(updated(`r${i}`), later);
    expect(dropped.length).toBeGreaterThan(0);
    expect(new Set(dropped)).toEqual(new Set(['notifications/resources/updated']));
  });
});
