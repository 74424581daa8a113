// The notices shown to the person (Settings/About and the banner): raised by any service, replaced by id.
import type { AppNotice } from '../../shared/contract.js';
import type { EventBus } from './event-bus.js';

/** The current notices; every change goes out as app.notices. */
export class Notices {
  readonly #events: Pick<EventBus, 'emit'>;
  #notices: AppNotice[];

  constructor(events: Pick<EventBus, 'emit'>, initial: readonly AppNotice[] = []) {
    this.#events = events;
    this.#notices = [...initial];
  }

  /** A copy of the current notices. */
  list(): AppNotice[] {
    return [...this.#notices];
  }

  /** Shows a notice (replacing an earlier one with the same id). */
  notify(notice: AppNotice): void {
    this.#notices = [...this.#notices.filter((n) => n.id !== notice.id), notice];
    this.#events.emit('app.notices', { notices: this.list() });
  }

  /** Withdraws a notice. */
  dismiss(id: string): void {
    this.#notices = this.#notices.filter((n) => n.id !== id);
    this.#events.emit('app.notices', { notices: this.list() });
  }
}
