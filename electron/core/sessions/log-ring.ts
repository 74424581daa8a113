// A bounded ring of a server's recent log lines (stderr and lifecycle/protocol events).
import type { LogEntry } from '../../../shared/contract.js';
import { sanitizeText, truncate } from '../text.js';

/** Entries kept per server. */
export const LOG_RING_CAPACITY = 1000;
/** Longest text kept in one entry (UTF-16 units). */
export const LOG_TEXT_MAX = 8 * 1024;

/** Keeps the last `capacity` entries with a monotonic sequence number. */
export class LogRing {
  readonly #capacity: number;
  readonly #entries: LogEntry[] = [];
  #start = 0;
  #seq = 0;

  constructor(capacity = LOG_RING_CAPACITY) {
    this.#capacity = Math.max(1, capacity);
  }

  /** Records one line (control characters stripped, long text cut) and returns the stored entry. */
  push(source: LogEntry['source'], level: LogEntry['level'], text: string, time = Date.now()): LogEntry {
    const entry: LogEntry = { seq: ++this.#seq, time, source, level, text: truncate(sanitizeText(text), LOG_TEXT_MAX) };
    if (this.#entries.length < this.#capacity) {
      this.#entries.push(entry);
    } else {
      this.#entries[this.#start] = entry;
      this.#start = (this.#start + 1) % this.#capacity;
    }
    return entry;
  }

  /** The kept entries, oldest first. */
  entries(): LogEntry[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
  }

  /** Number of entries kept. */
  get size(): number {
    return this.#entries.length;
  }
}
