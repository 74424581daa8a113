// The one traffic filter, used by the core's protocol.traffic and by the renderer's live list.
import type { TrafficEntry, TrafficFilter } from './protocol.js';

/** True when an entry passes every part of the filter (text parts match case-insensitively). */
export function matchesTraffic(entry: TrafficEntry, filter: TrafficFilter): boolean {
  if (filter.serverId && entry.serverId !== filter.serverId) return false;
  if (filter.direction && entry.direction !== filter.direction) return false;
  const method = filter.method?.trim().toLowerCase();
  if (method && !(entry.method ?? '').toLowerCase().includes(method)) return false;
  const text = filter.text?.trim().toLowerCase();
  if (text) {
    const hay = `${entry.method ?? ''}\n${entry.id ?? ''}\n${entry.payload}`.toLowerCase();
    if (!hay.includes(text)) return false;
  }
  return true;
}
