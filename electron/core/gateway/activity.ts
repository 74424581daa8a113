// The gateway's activity feed: the latest entries (calls, denials, sessions, selections) kept in memory, each
// pushed as `gateway.activity`, and each client's last activity remembered across restarts.
import type { GatewayActivity } from '../../../shared/domains/gateway.js';
import type { EventBus } from '../event-bus.js';
import { sanitizeText, truncate } from '../text.js';

/** Entries kept. */
export const ACTIVITY_LIMIT = 500;

/** The feed. */
export class ActivityFeed {
  readonly #events: EventBus;
  readonly #touch: (clientId: string, at: number, summary: string) => void;
  readonly #entries: GatewayActivity[] = [];
  #seq = 0;

  constructor(events: EventBus, touch: (clientId: string, at: number, summary: string) => void) {
    this.#events = events;
    this.#touch = touch;
  }

  /** Records one entry. */
  add(entry: Omit<GatewayActivity, 'seq' | 'at'>): GatewayActivity {
    const full: GatewayActivity = { ...entry, message: truncate(sanitizeText(entry.message), 500), seq: ++this.#seq, at: Date.now() };
    this.#entries.unshift(full);
    if (this.#entries.length > ACTIVITY_LIMIT) this.#entries.length = ACTIVITY_LIMIT;
    this.#touch(full.clientId, full.at, full.message);
    this.#events.emit('gateway.activity', full);
    return full;
  }

  /** The newest entries first. */
  recent(limit = 100): GatewayActivity[] {
    return this.#entries.slice(0, limit);
  }
}
