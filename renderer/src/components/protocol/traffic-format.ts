// Display helpers for traffic entries: sizes, times, and the JSON copy of one entry or a list.
import type { TrafficEntry } from '../../../../shared/domains/protocol';

/** A stable key for an entry across servers. */
export const entryKey = (e: TrafficEntry): string => `${e.serverId}#${e.seq}`;

/** "14:03:27.512" in local time. */
export function formatClock(time: number): string {
  const d = new Date(time);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** "12 ms", "1.4 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Plain words for a direction. */
export function directionLabel(direction: TrafficEntry['direction']): string {
  return direction === 'out' ? 'Sent' : 'Received';
}

/** One entry as a JSON object: its facts and the message itself (parsed back when it was not cut). */
export function entryJson(entry: TrafficEntry): Record<string, unknown> {
  let message: unknown = entry.payload;
  if (!entry.truncated) {
    try {
      message = JSON.parse(entry.payload) as unknown;
    } catch {
      message = entry.payload;
    }
  }
  return {
    time: new Date(entry.time).toISOString(),
    serverId: entry.serverId,
    direction: entry.direction === 'out' ? 'sent' : 'received',
    kind: entry.kind,
    ...(entry.method !== undefined ? { method: entry.method } : {}),
    ...(entry.id !== undefined ? { id: entry.id } : {}),
    bytes: entry.bytes,
    ...(entry.durationMs !== undefined ? { durationMs: entry.durationMs } : {}),
    ...(entry.truncated ? { truncated: true } : {}),
    message,
  };
}

/** Entries as pretty JSON text (what "Copy as JSON" puts on the clipboard). */
export function entriesJson(entries: TrafficEntry[]): string {
  return JSON.stringify(entries.length === 1 ? entryJson(entries[0]!) : entries.map(entryJson), null, 2);
}
