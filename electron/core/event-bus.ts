import type { EventKey, EventMap } from '../../shared/contract.js';

/** A listener that receives every event the core pushes. */
export type AnyEventListener = <E extends EventKey>(event: E, payload: EventMap[E]) => void;

/** Typed fan-out of core events to the attached bridges (IPC window, WebSocket clients) and core modules. */
export class EventBus {
  readonly #listeners = new Set<AnyEventListener>();
  readonly #internal = new Set<AnyEventListener>();
  readonly #onListenerError: ((event: EventKey, err: unknown) => void) | undefined;

  /** `onListenerError` hears a listener that threw (the others still get the event). */
  constructor(onListenerError?: (event: EventKey, err: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /**
   * Attaches a listener; returns the detach function. Core modules pass `internal: true` so they do not count
   * as an attached UI (see `size`).
   */
  subscribe(listener: AnyEventListener, opts: { internal?: boolean } = {}): () => void {
    const set = opts.internal ? this.#internal : this.#listeners;
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Number of bridges attached, core modules not counted (a headless host with no browser has none). */
  get size(): number {
    return this.#listeners.size;
  }

  /** Delivers one event to every listener; a throwing listener does not stop the others. */
  emit<E extends EventKey>(event: E, payload: EventMap[E]): void {
    for (const listener of [...this.#internal, ...this.#listeners]) {
      try {
        listener(event, payload);
      } catch (err) {
        // A broken bridge must not break the core, nor go unheard.
        this.#onListenerError?.(event, err);
      }
    }
  }
}
