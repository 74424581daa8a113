// Writes the feed and then the positions it makes safe, in that order, coalesced a moment after changes. The feed's
// backlog (entries not on disk yet) is the back-pressure signal push streams wait on.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FeedStore } from './feed-store.js';
import type { SubscriptionStore } from './subscription-store.js';

/** Orders the feed and position writes. */
export class EventsPersistence {
  readonly #feed: FeedStore;
  readonly #subs: SubscriptionStore;
  readonly #delayMs: number;
  readonly #backlogLimit: number;
  readonly #onError: (err: unknown) => void;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(feed: FeedStore, subs: SubscriptionStore, o: { delayMs: number; backlogLimit: number; onError: (err: unknown) => void }) {
    this.#feed = feed;
    this.#subs = subs;
    this.#delayMs = o.delayMs;
    this.#backlogLimit = o.backlogLimit;
    this.#onError = o.onError;
  }

  /** Schedules a write a moment from now (calls in between share it). */
  schedule(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.flush().catch(this.#onError);
    }, this.#delayMs);
    this.#timer.unref?.();
  }

  /** Writes the feed, then commits and writes the positions whose entries are now on disk. */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const next = this.#running
      .catch(() => undefined)
      .then(async () => {
        const persisted = await this.#feed.flush();
        this.#subs.commitCursors(persisted);
        await this.#subs.flush();
      });
    this.#running = next;
    return next;
  }

  /** True while too much of the feed is not on disk. */
  backlogged(): boolean {
    return this.#feed.backlog > this.#backlogLimit;
  }

  /** Resolves once the backlog is under the limit (flushing as needed). */
  async drained(): Promise<void> {
    while (this.backlogged()) {
      try {
        await this.flush();
      } catch (err) {
        // A failing disk must not become a tight loop: report, wait, try again.
        this.#onError(err);
        await sleep(1000);
      }
    }
  }

  /** Stops the timer (the caller flushes last). */
  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
