// The ingress stage that keeps a chatty or hostile server from flooding the host: logging and progress
// notifications draw on a per-server token bucket (the excess is dropped and counted), and change signals (list
// changes, resource updates) are coalesced — at most one per kind (and resource) every SIGNAL_INTERVAL_MS, the last
// one always delivered — so a flood can neither pin the CPU nor bury the bridge, and nothing that matters is lost.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { IngressStage } from './incoming.js';

/** Logging and progress notifications: a burst of this many, then this many per second. */
export const NOTIFICATION_BUDGET = { burst: 200, perSecond: 100 } as const;
/** Change signals of one kind (and one resource) are delivered at most this often. */
export const SIGNAL_INTERVAL_MS = 250;
/** Distinct resources whose updates are held back at once; beyond this, updates over the interval are dropped. */
export const MAX_HELD_SIGNALS = 256;

const BUDGETED = new Set(['notifications/message', 'notifications/progress']);
const SIGNALS = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

/** A token bucket: starts full with `burst` tokens and refills at `perSecond`. */
export class TokenBucket {
  readonly #burst: number;
  readonly #perMs: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(burst: number, perSecond: number, now: () => number = Date.now) {
    this.#burst = burst;
    this.#perMs = perSecond / 1000;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const now = this.#now();
    this.#tokens = Math.min(this.#burst, this.#tokens + (now - this.#last) * this.#perMs);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** What the stage is built from. */
export interface NotificationBudgetOptions {
  /** The bucket logging and progress notifications draw on (kept per server, across reconnects). */
  bucket: TokenBucket;
  /** Called for every notification dropped. */
  onDropped(method: string): void;
  /** Clock and timer (tests). */
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => void;
}

interface Held {
  last: number;
  pending?: JSONRPCMessage;
  timer: boolean;
}

function signalKey(message: JSONRPCMessage & { method: string }): string {
  if (message.method !== 'notifications/resources/updated') return message.method;
  const params = (message as { params?: { uri?: unknown } }).params;
  return `${message.method}\u0000${typeof params?.uri === 'string' ? params.uri.slice(0, 2048) : ''}`;
}

/** Builds the stage for one transport. */
export function notificationBudgetStage(o: NotificationBudgetOptions): IngressStage {
  const now = o.now ?? Date.now;
  const setTimer = o.setTimer ?? ((fn, ms) => void setTimeout(fn, ms).unref());
  const held = new Map<string, Held>();
  return (message, later) => {
    if (!('method' in message) || 'id' in message) return message;
    const method = message.method;
    if (BUDGETED.has(method)) {
      if (o.bucket.take()) return message;
      o.onDropped(method);
      return undefined;
    }
    if (!SIGNALS.has(method)) return message;
    const key = signalKey(message);
    const t = now();
    const entry = held.get(key);
    if (entry === undefined) {
      if (held.size >= MAX_HELD_SIGNALS) {
        for (const [k, e] of held) if (!e.timer && t - e.last >= SIGNAL_INTERVAL_MS) held.delete(k);
        if (held.size >= MAX_HELD_SIGNALS) {
          o.onDropped(method);
          return undefined;
        }
      }
      held.set(key, { last: t, timer: false });
      return message;
    }
    if (t - entry.last >= SIGNAL_INTERVAL_MS && !entry.timer) {
      entry.last = t;
      return message;
    }
    // Within the interval: hold the newest one back and deliver it when the interval ends.
    entry.pending = message;
    if (!entry.timer) {
      entry.timer = true;
      const current = entry;
      setTimer(
        () => {
          current.timer = false;
          current.last = now();
          const pending = current.pending;
          delete current.pending;
          if (pending !== undefined) later(pending);
        },
        Math.max(0, SIGNAL_INTERVAL_MS - (t - entry.last)),
      );
    }
    return undefined;
  };
}
