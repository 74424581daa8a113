// The check every answer and event passes before a bridge sends it: it must survive JSON.stringify (WebSocket)
// and structured clone (Electron IPC). Ingress bounds server data already; this catches whatever slips through,
// so a bad value becomes a typed error for its caller instead of an exception in a send path.
import { WIRE_MAX_DEPTH } from './ingress/limits.js';

/** Deepest nesting a bridge sends: server data (at most WIRE_MAX_DEPTH) plus room for the contract's own wrapping. */
export const SEND_MAX_DEPTH = WIRE_MAX_DEPTH + 64;
/** Values walked at most; past this the value is assumed fine (the walk must stay cheap for large answers). */
const MAX_NODES = 2_000_000;

/** Why a value cannot be sent over a bridge, or undefined when it can. */
export function unsendableReason(value: unknown): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  while (stack.length > 0 && nodes < MAX_NODES) {
    const [node, depth] = stack.pop()!;
    nodes++;
    switch (typeof node) {
      case 'bigint':
        return 'it holds a number JSON cannot carry (bigint)';
      case 'function':
      case 'symbol':
        return `it holds a ${typeof node}`;
      case 'object': {
        if (node === null) break;
        if (depth >= SEND_MAX_DEPTH) return `it is nested deeper than ${SEND_MAX_DEPTH} levels`;
        const children = Array.isArray(node) ? node : Object.values(node);
        for (const child of children)
          if (typeof child === 'object' || typeof child === 'bigint' || typeof child === 'function') stack.push([child, depth + 1]);
        break;
      }
      default:
        break;
    }
  }
  return undefined;
}

/** JSON text of a value for a bridge, or the reason it cannot be sent (never throws; answers were checked by the dispatcher). */
export function encodeForBridge(value: unknown): { ok: true; text: string } | { ok: false; reason: string } {
  try {
    return { ok: true, text: JSON.stringify(value) };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message.slice(0, 200) : 'it could not be serialised' };
  }
}
