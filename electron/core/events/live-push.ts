// Live arrival for the renderer: new feed entries are coalesced into at most one `events.occurred` push per short
// delay, carrying the newest few; the rest of a burst is only counted (`more`), so a flood of events costs the
// renderer one small message per delay instead of one per event.
import type { EventsEventMap } from '../../../shared/domains/events.js';
import { toView } from './feed-store.js';
import type { StoredEntry } from './segment-log.js';

/** Coalesces feed appends into `events.occurred` pushes. */
export class LivePush {
  readonly #emit: (payload: EventsEventMap['events.occurred']) => void;
  readonly #delayMs: number;
  readonly #max: number;
  #batch: StoredEntry[] = [];
  #more = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(emit: (payload: EventsEventMap['events.occurred']) => void, delayMs: number, max: number) {
    this.#emit = emit;
    this.#delayMs = delayMs;
    this.#max = max;
  }

  /** Queues one new entry. */
  add(entry: StoredEntry): void {
    this.#batch.push(entry);
    if (this.#batch.length > this.#max) {
      this.#batch.shift();
      this.#more += 1;
    }
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), this.#delayMs);
    this.#timer.unref?.();
  }

  /** Pushes what is queued now. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#batch.length === 0) return;
    const entries = this.#batch.reverse().map(toView);
    const more = this.#more;
    this.#batch = [];
    this.#more = 0;
    this.#emit({ entries, more });
  }

  /** Drops what is queued and stops the timer. */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#batch = [];
    this.#more = 0;
  }
}
