// Core events for store tests: what the bridge's `on` and `onDisconnect` do, with a way to push an event and to
// count the listeners attached.
import type { EventKey, EventMap } from '../../../shared/contract';
import type { CoreEvents } from '../../../renderer/src/store/wiring';

/** A stand-in for the bridge's event side that tests push events through. */
export class FakeCoreEvents implements CoreEvents {
  readonly #listeners = new Map<EventKey, Set<(payload: unknown) => void>>();
  readonly #disconnects: (() => void)[] = [];

  on = <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void): (() => void) => {
    const set = this.#listeners.get(event) ?? new Set();
    const wrapped = (payload: unknown): void => listener(payload as EventMap[E]);
    set.add(wrapped);
    this.#listeners.set(event, set);
    return () => set.delete(wrapped);
  };

  onDisconnect = (listener: () => void): void => {
    this.#disconnects.push(listener);
  };

  /** Pushes one event to its listeners. */
  emit<E extends EventKey>(event: E, payload: EventMap[E]): void {
    for (const l of this.#listeners.get(event) ?? []) l(payload);
  }

  /** Tells the listeners the connection was lost. */
  disconnect(): void {
    for (const l of this.#disconnects) l();
  }

  /** Listeners attached to one event. */
  count(event: EventKey): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  /** Listeners attached, all events together. */
  total(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }
}
