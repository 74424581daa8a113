import type { EventKey, EventMap } from '../../shared/contract.js';

/** A listener that receives every event the core pushes. */
export type AnyEventListener = <E extends EventKey>(event: E, payload: EventMap[E]) => void;

/** Typed fan-out of core events to the attached bridges (IPC window, WebSocket clients). */
export class EventBus {
  readonly #listeners = new Set<AnyEventListener>();

  /** Attaches a listener; returns the detach function. */
  subscribe(listener: AnyEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Number of listeners attached (a headless host with no browser has none). */
  get size(): number {
    return this.#listeners.size;
  }

  /** Delivers one event to every listener; a throwing listener does not stop the others. */
  emit<E extends EventKey>(event: E, payload: EventMap[E]): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event, payload);
      } catch {
        // A broken bridge must not break the core.
      }
    }
  }
}
