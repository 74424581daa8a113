// The ask policy: a gateway call of a tool not annotated read-only waits for the person's yes or no. The wait
// is bounded by the call's deadline and by the client giving up; with no Switchboard window attached it is
// refused at once rather than left hanging. Every change goes out as `gateway.request` with the whole queue.
import { randomUUID } from 'node:crypto';
import type { GatewayRequestView } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';

/** How a wait ended. */
export type AskOutcome = { allowed: true } | { allowed: false; reason: 'denied' | 'timeout' | 'cancelled' | 'no_window' | 'queue_full' };

/** Calls that may wait at once (across clients). */
export const MAX_PENDING_ASKS = 50;

interface Pending {
  view: GatewayRequestView;
  settle: (outcome: AskOutcome, reason?: string) => void;
}

/** Pending decisions. */
export class AskBroker {
  readonly #events: EventBus;
  readonly #pending = new Map<string, Pending>();

  constructor(events: EventBus) {
    this.#events = events;
  }

  /** Calls waiting now, oldest first. */
  pending(): GatewayRequestView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /** Waits for the person's decision until `view.expiresAt` or `signal`. */
  ask(view: Omit<GatewayRequestView, 'requestId'>, signal: AbortSignal): Promise<AskOutcome> {
    if (signal.aborted) return Promise.resolve({ allowed: false, reason: 'cancelled' });
    if (this.#events.size === 0) return Promise.resolve({ allowed: false, reason: 'no_window' });
    if (this.#pending.size >= MAX_PENDING_ASKS) return Promise.resolve({ allowed: false, reason: 'queue_full' });
    const full: GatewayRequestView = { requestId: randomUUID(), ...view };
    return new Promise<AskOutcome>((resolve) => {
      const wait = Math.max(0, full.expiresAt - Date.now());
      const timer = setTimeout(() => finish({ allowed: false, reason: 'timeout' }, 'No decision before the call’s deadline'), wait);
      const onAbort = (): void => finish({ allowed: false, reason: 'cancelled' }, 'The client cancelled the call');
      signal.addEventListener('abort', onAbort, { once: true });
      const finish = (outcome: AskOutcome, reason: string): void => {
        if (!this.#pending.delete(full.requestId)) return;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
        this.#events.emit('gateway.request', { closed: { requestId: full.requestId, reason }, pending: this.pending() });
      };
      this.#pending.set(full.requestId, {
        view: full,
        settle: (outcome, reason) => finish(outcome, reason ?? (outcome.allowed ? 'Allowed' : 'Denied')),
      });
      this.#events.emit('gateway.request', { request: full, pending: this.pending() });
    });
  }

  /** The person's answer. */
  decide(requestId: string, allow: boolean): void {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This call is no longer waiting (it was answered, timed out or cancelled)');
    entry.settle(allow ? { allowed: true } : { allowed: false, reason: 'denied' });
  }

  /** Ends every wait of a client (removed) or all of them (gateway off). */
  cancelAll(reason: string, clientId?: string): void {
    for (const p of [...this.#pending.values()]) {
      if (clientId === undefined || p.view.clientId === clientId) p.settle({ allowed: false, reason: 'cancelled' }, reason);
    }
  }
}
