// How many protocol messages are kept per server, and the share event notifications may take of them: the core's
// ring and the renderer's copy apply the same bound, so a busy push subscription cannot push everything else out.
import type { TrafficEntry } from './protocol.js';

/** Messages kept per server (oldest dropped first). */
export const TRAFFIC_RING_SIZE = 500;
/** The notification an events push subscription sends for every event. */
export const EVENT_NOTIFICATION_METHOD = 'notifications/events/event';
/** Event notifications kept per server: a fifth of the ring; past it the oldest event notification goes. */
export const EVENT_NOTIFICATIONS_KEPT = Math.floor(TRAFFIC_RING_SIZE / 5);

/** Whether an entry is an event notification. */
export function isEventNotification(entry: Pick<TrafficEntry, 'kind' | 'method'>): boolean {
  return entry.kind === 'notification' && entry.method === EVENT_NOTIFICATION_METHOD;
}

/** The newest entries within both bounds (event notifications first cut to their share), oldest first. */
export function trimTraffic<T extends Pick<TrafficEntry, 'kind' | 'method'>>(entries: readonly T[]): T[] {
  let events = 0;
  for (const e of entries) if (isEventNotification(e)) events++;
  let drop = Math.max(0, events - EVENT_NOTIFICATIONS_KEPT);
  const kept = drop === 0 ? [...entries] : entries.filter((e) => !(isEventNotification(e) && drop-- > 0));
  return kept.length > TRAFFIC_RING_SIZE ? kept.slice(kept.length - TRAFFIC_RING_SIZE) : kept;
}
