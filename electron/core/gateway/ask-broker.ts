// The ask policy: a gateway call of a tool the person has not allowed for that client waits for their yes or no.
// The wait is bounded by the call's deadline and by the client giving up; with no Switchboard window the person
// can see it is refused at once rather than left hanging, and closing the last window refuses what waits. Each
// client has its own share of the queue, so one client's flood cannot refuse another's calls. Every change goes
// out as `gateway.request` with the whole queue.
import { randomUUID } from 'node:crypto';
import type { GatewayRequestArguments, GatewayRequestView } from '../../../shared/domains/gateway.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { PresencePort } from '../presence.js';

/** How a wait ended; `always` means the person allowed this tool for this client from now on. */
export type AskOutcome =
  { allowed: true; always?: boolean } | { allowed: false; reason: 'denied' | 'timeout' | 'cancelled' | 'no_window' | 'queue_full' };

/** Calls of one client that may wait at once. */
export const MAX_PENDING_ASKS = 50;
/** Calls that may wait at once across clients (a bound on memory, well above one client's share). */
export const MAX_PENDING_ASKS_TOTAL = 500;

interface Pending {
  view: GatewayRequestView;
  /** Renders the whole arguments text on demand (the call holds its arguments while it waits, so this keeps no copy). */
  fullText: () => string;
  /** The whole arguments were fetched (a cut call may be allowed only then). */
  opened: boolean;
  settle: (outcome: AskOutcome, reason?: string) => void;
}

/** Pending decisions. */
export class AskBroker {
  readonly #events: EventBus;
  readonly #presence: PresencePort;
  readonly #pending = new Map<string, Pending>();

  constructor(events: EventBus, presence: PresencePort) {
    this.#events = events;
    this.#presence = presence;
    presence.onChange(() => {
      if (!presence.attached) this.#refuseAll({ allowed: false, reason: 'no_window' }, 'The last Switchboard window was closed');
    });
  }

  /** Calls waiting now, oldest first. */
  pending(): GatewayRequestView[] {
    return [...this.#pending.values()].map((p) => p.view);
  }

  /** Waits for the person's decision until `view.expiresAt` or `signal`; `fullText` renders the whole arguments when asked. */
  ask(
    view: Omit<GatewayRequestView, 'requestId'>,
    signal: AbortSignal,
    fullText: () => string = () => view.arguments,
  ): Promise<AskOutcome> {
    if (signal.aborted) return Promise.resolve({ allowed: false, reason: 'cancelled' });
    if (!this.#presence.visible) return Promise.resolve({ allowed: false, reason: 'no_window' });
    let mine = 0;
    for (const p of this.#pending.values()) if (p.view.clientId === view.clientId) mine++;
    if (mine >= MAX_PENDING_ASKS || this.#pending.size >= MAX_PENDING_ASKS_TOTAL)
      return Promise.resolve({ allowed: false, reason: 'queue_full' });
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
        fullText,
        opened: !full.argumentsTruncated,
        settle: (outcome, reason) => finish(outcome, reason ?? (outcome.allowed ? 'Allowed' : 'Denied')),
      });
      this.#events.emit('gateway.request', { request: full, pending: this.pending() });
    });
  }

  /** The waiting call, or not_found. */
  get(requestId: string): GatewayRequestView {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This call is no longer waiting (it was answered, timed out or cancelled)');
    return entry.view;
  }

  /** The whole arguments of a waiting call; from now on the call may be allowed even though its dialog text was cut. */
  arguments(requestId: string): GatewayRequestArguments {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This call is no longer waiting (it was answered, timed out or cancelled)');
    const text = entry.fullText();
    entry.opened = true;
    return { text, chars: text.length };
  }

  /**
   * The person's answer; `always` (with allow) also allows the tool for this client from now on. A call whose
   * arguments were cut in the dialog is allowed only after its whole arguments were opened: what follows the cut
   * (a payload after padding) is what the person would otherwise approve unseen.
   */
  decide(requestId: string, allow: boolean, always = false): void {
    const entry = this.#pending.get(requestId);
    if (!entry) throw new AppError('not_found', 'This call is no longer waiting (it was answered, timed out or cancelled)');
    if (allow && !entry.opened)
      throw new AppError(
        'invalid_request',
        'The arguments of this call were shortened in the dialog; open the whole arguments before allowing it',
      );
    entry.settle(allow ? { allowed: true, ...(always ? { always: true } : {}) } : { allowed: false, reason: 'denied' });
  }

  /** Ends every wait of a client (removed) or all of them (gateway off). */
  cancelAll(reason: string, clientId?: string): void {
    for (const p of [...this.#pending.values()]) {
      if (clientId === undefined || p.view.clientId === clientId) p.settle({ allowed: false, reason: 'cancelled' }, reason);
    }
  }

  #refuseAll(outcome: AskOutcome, reason: string): void {
    for (const p of [...this.#pending.values()]) p.settle(outcome, reason);
  }
}
