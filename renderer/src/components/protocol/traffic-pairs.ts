// Pairs each JSON-RPC request with the response that answers it, as the protocol view shows them together: the
// response carries the same id from the other side (a request Switchboard sent is answered by the server, and a
// request the server sent, such as sampling, is answered by Switchboard), and comes after it.
import type { TrafficEntry } from '../../../../shared/domains/protocol';
import { entryKey } from './traffic-format';

/** Requests and their responses, both ways, by entry key. */
export interface TrafficPairs {
  /** The response to a request. */
  responseOf(request: TrafficEntry): TrafficEntry | undefined;
  /** The request a response answers. */
  requestOf(response: TrafficEntry): TrafficEntry | undefined;
}

const isResponse = (e: TrafficEntry): boolean => e.kind === 'response' || e.kind === 'error';

/** Pairs the entries (each server's in sequence order, as the store keeps them). */
export function pairTraffic(entries: readonly TrafficEntry[]): TrafficPairs {
  const open = new Map<string, TrafficEntry>();
  const responses = new Map<string, TrafficEntry>();
  const requests = new Map<string, TrafficEntry>();
  const sorted = [...entries].sort((a, b) => (a.serverId === b.serverId ? a.seq - b.seq : a.time - b.time));
  for (const e of sorted) {
    if (e.id === undefined) continue;
    // A request is answered from the other side: its direction is part of the key.
    if (e.kind === 'request') open.set(`${e.serverId}\u0000${e.direction}\u0000${e.id}`, e);
    else if (isResponse(e)) {
      const key = `${e.serverId}\u0000${e.direction === 'in' ? 'out' : 'in'}\u0000${e.id}`;
      const request = open.get(key);
      if (!request) continue;
      open.delete(key);
      responses.set(entryKey(request), e);
      requests.set(entryKey(e), request);
    }
  }
  return {
    responseOf: (request) => responses.get(entryKey(request)),
    requestOf: (response) => requests.get(entryKey(response)),
  };
}

/** The arguments of a `tools/call` Switchboard sent, when its payload was kept whole. */
export function sentToolCall(entry: TrafficEntry): { name: string; arguments: Record<string, unknown> } | undefined {
  if (entry.direction !== 'out' || entry.kind !== 'request' || entry.method !== 'tools/call' || entry.truncated) return undefined;
  try {
    const message = JSON.parse(entry.payload) as { params?: { name?: unknown; arguments?: unknown } };
    const name = message.params?.name;
    const args = message.params?.arguments ?? {};
    if (typeof name !== 'string' || typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
    return { name, arguments: args as Record<string, unknown> };
  } catch {
    return undefined;
  }
}
