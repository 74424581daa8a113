// The bound the core's ring and the renderer's copy share: event notifications to a fifth, everything to the ring.
import { describe, expect, it } from 'vitest';
import {
  EVENT_NOTIFICATION_METHOD,
  EVENT_NOTIFICATIONS_KEPT,
  TRAFFIC_RING_SIZE,
  trimTraffic,
} from '../../../shared/domains/traffic-ring.js';

type E = { kind: 'request' | 'response' | 'notification' | 'error'; method?: string; n: number };
const event = (n: number): E => ({ kind: 'notification', method: EVENT_NOTIFICATION_METHOD, n });

describe('trimTraffic', () => {
  it('drops the oldest event notifications past their share, keeping every other message', () => {
    const entries: E[] = [
      { kind: 'request', method: 'tools/list', n: -2 },
      { kind: 'response', method: 'tools/list', n: -1 },
    ];
    for (let i = 0; i < TRAFFIC_RING_SIZE * 2; i++) entries.push(event(i));
    const kept = trimTraffic(entries);
    expect(kept.filter((e) => e.kind !== 'notification').map((e) => e.n)).toEqual([-2, -1]);
    const events = kept.filter((e) => e.kind === 'notification');
    expect(events).toHaveLength(EVENT_NOTIFICATIONS_KEPT);
    expect(events[0]!.n).toBe(TRAFFIC_RING_SIZE * 2 - EVENT_NOTIFICATIONS_KEPT);
  });

  it('other messages are bounded by the ring, newest kept', () => {
    const entries: E[] = Array.from({ length: TRAFFIC_RING_SIZE + 10 }, (_, n) => ({
      kind: 'notification',
      method: 'notifications/message',
      n,
    }));
    const kept = trimTraffic(entries);
    expect(kept).toHaveLength(TRAFFIC_RING_SIZE);
    expect(kept[0]!.n).toBe(10);
  });

  it('a notification of another method is not counted as an event', () => {
    const entries: E[] = Array.from({ length: EVENT_NOTIFICATIONS_KEPT + 5 }, (_, n) => ({
      kind: 'notification',
      method: 'notifications/progress',
      n,
    }));
    expect(trimTraffic(entries)).toHaveLength(EVENT_NOTIFICATIONS_KEPT + 5);
  });
});
