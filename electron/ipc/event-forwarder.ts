// Pushes core events to the window. Until the renderer says it is listening (app.listening, sent once its
// subscriptions are attached) events are held back in order, bounded; a reload or a crashed renderer starts holding
// again. A payload that cannot be sent (not cloneable) is reported and skipped, never thrown into the core.
import type { EventKey } from '../../shared/contract.js';
import { unsendableReason } from '../core/sendable.js';

/** The part of a WebContents this module uses. */
export interface EventTarget {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

/** Events held while the renderer is not listening. */
export const MAX_HELD_EVENTS = 5000;

/** Forwards events to the current window's contents, holding them until its page listens. */
export class EventForwarder {
  readonly #target: () => EventTarget | undefined;
  readonly #onProblem: (message: string) => void;
  readonly #held: [EventKey, unknown][] = [];
  #listening = false;
  #dropped = 0;

  constructor(target: () => EventTarget | undefined, onProblem: (message: string) => void = () => undefined) {
    this.#target = target;
    this.#onProblem = onProblem;
  }

  /** Whether events go straight through. */
  get listening(): boolean {
    return this.#listening;
  }

  /** Events held right now. */
  get held(): number {
    return this.#held.length;
  }

  /** Sends or holds one event. */
  push(event: EventKey, payload: unknown): void {
    if (this.#listening) {
      this.#send(event, payload);
      return;
    }
    this.#held.push([event, payload]);
    if (this.#held.length > MAX_HELD_EVENTS) {
      this.#held.shift();
      this.#dropped += 1;
    }
  }

  /** The page attached its listeners: send what was held, in order, then go straight through. */
  markListening(): void {
    if (this.#dropped > 0) this.#onProblem(`${this.#dropped} events were dropped while the window was not listening`);
    this.#dropped = 0;
    this.#listening = true;
    for (const [event, payload] of this.#held.splice(0)) this.#send(event, payload);
  }

  /** The page is (re)loading or gone: hold events until it listens again. */
  reset(): void {
    this.#listening = false;
  }

  #send(event: EventKey, payload: unknown): void {
    const target = this.#target();
    if (!target || target.isDestroyed()) return;
    // Checked before the send: structured clone of a deeply nested payload can exhaust the stack inside Electron.
    const why = unsendableReason(payload);
    if (why !== undefined) {
      this.#onProblem(`the ${event} event could not be sent to the window: ${why}`);
      return;
    }
    try {
      target.send(event, payload);
    } catch (err) {
      this.#onProblem(`the ${event} event could not be sent to the window: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}
