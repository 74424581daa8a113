// The Inspector's record of one app's `ui/*` traffic: every JSON-RPC message exchanged with the app (direction,
// method, kind, size, time, payload as text) and every message the host or the sandbox refused. Bounded: the newest
// entries are kept, each payload shortened for display.
import { SANDBOX_REFUSED_METHOD } from '../../../shared/domains/app-sandbox';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';

/** Which way a message went: from the app to Switchboard, from Switchboard to the app, or refused on the way. */
export type MessageDirection = 'in' | 'out' | 'refused';

/** One Inspector row. */
export interface MessageEntry {
  /** Order of arrival. */
  seq: number;
  /** When it was seen (ms since the epoch). */
  at: number;
  direction: MessageDirection;
  /** The JSON-RPC method (for a response: the method of the request it answers). */
  method: string;
  kind: 'request' | 'response' | 'error' | 'notification' | 'refused';
  /** Request id, for requests and responses. */
  id?: string | number;
  /** Size of the message as JSON, in bytes. */
  bytes: number;
  /** The payload as text (shortened; control and bidi characters made visible). */
  text: string;
  /** One line worth showing in the list: a log message's level and text. */
  summary?: string;
}

/** Entries kept per app. */
export const MAX_ENTRIES = 500;
/** Characters of payload kept per entry. */
export const MAX_TEXT = 16 * 1024;

const encoder = new TextEncoder();
type Rpc = { id?: string | number; method?: string; error?: unknown; params?: { level?: unknown; data?: unknown } };

/** The level and text of a `notifications/message` log line, on one line. */
function logSummary(m: Rpc): string | undefined {
  if (m.method !== 'notifications/message' || typeof m.params !== 'object' || m.params === null) return undefined;
  const data = typeof m.params.data === 'string' ? m.params.data : JSON.stringify(m.params.data ?? null);
  const level = typeof m.params.level === 'string' ? m.params.level : 'log';
  return escapeUnsafe(`${level}: ${(data ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
}

/** The message log of one app frame; components follow it with useSyncExternalStore. */
export class MessageLog {
  #entries: MessageEntry[] = [];
  #seq = 0;
  readonly #listeners = new Set<() => void>();
  /** Methods of requests awaiting an answer, by direction and id, to label responses. */
  readonly #pending = new Map<string, string>();

  /** Records a message that crossed the bridge. */
  add(direction: 'in' | 'out', message: unknown): void {
    const m = (typeof message === 'object' && message !== null ? message : {}) as Rpc;
    let method = typeof m.method === 'string' ? m.method : '';
    let kind: MessageEntry['kind'] = 'notification';
    if (method && m.id !== undefined) {
      kind = 'request';
      this.#pending.set(`${direction}:${String(m.id)}`, method);
    } else if (!method && m.id !== undefined) {
      const asked = direction === 'in' ? 'out' : 'in';
      const key = `${asked}:${String(m.id)}`;
      method = this.#pending.get(key) ?? '(response)';
      this.#pending.delete(key);
      kind = m.error !== undefined ? 'error' : 'response';
    }
    this.#push(direction, method || '(no method)', kind, message, m.id, logSummary(m));
  }

  /**
   * Records the sandbox proxy's report of a message it dropped as a refused row; true when `message` is one. Only the
   * proxy can send this method (it drops it from the app), so a log line an app sends is never shown as a refusal.
   */
  sandboxReport(message: unknown): boolean {
    if (typeof message !== 'object' || message === null) return false;
    const m = message as { method?: unknown; params?: { reason?: unknown } };
    if (m.method !== SANDBOX_REFUSED_METHOD) return false;
    const reason = typeof m.params?.reason === 'string' ? m.params.reason : 'a message (no reason given)';
    this.refused(`Sandbox proxy: ${reason.slice(0, 300)}`);
    return true;
  }

  /** Records a message that was refused (forged source, malformed, reserved method) with why. */
  refused(reason: string, message?: unknown): void {
    this.#push('refused', 'refused', 'refused', message, undefined, escapeUnsafe(reason.slice(0, 300)));
  }

  /** The entries, oldest first (the same array until something changes). */
  entries = (): readonly MessageEntry[] => this.#entries;

  /** Follows changes; returns the unsubscribe function. */
  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  /** Forgets every entry. */
  clear(): void {
    this.#entries = [];
    this.#emit();
  }

  #push(
    direction: MessageDirection,
    method: string,
    kind: MessageEntry['kind'],
    message: unknown,
    id: string | number | undefined,
    summary: string | undefined,
  ): void {
    let json: string;
    try {
      json = message === undefined ? '' : (JSON.stringify(message, null, 2) ?? '');
    } catch {
      json = '(not serializable)';
    }
    const bytes = encoder.encode(json.replace(/\n\s*/g, '')).length;
    const text = escapeUnsafe(json.length > MAX_TEXT ? `${json.slice(0, MAX_TEXT)}\n… ${json.length - MAX_TEXT} more characters` : json);
    const entry: MessageEntry = {
      seq: ++this.#seq,
      at: Date.now(),
      direction,
      method: escapeUnsafe(method.slice(0, 200)),
      kind,
      bytes,
      text,
    };
    if (id !== undefined) entry.id = id;
    if (summary !== undefined) entry.summary = summary;
    const next = this.#entries.length >= MAX_ENTRIES ? this.#entries.slice(this.#entries.length - MAX_ENTRIES + 1) : this.#entries.slice();
    next.push(entry);
    this.#entries = next;
    this.#emit();
  }

  #emit(): void {
    for (const l of this.#listeners) l();
  }
}
