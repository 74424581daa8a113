// Whether a person can see a Switchboard window right now. Only the shell knows: a desktop window that is shown,
// or a browser page that is connected over the bridge and visible. Requests that need the person (a gateway
// client's ask, a server's elicitation or sampling request) are refused at once without one, instead of waiting
// for a deadline nobody can meet; and when the last window goes, what was waiting is refused too.

/** What the shell reports of one window or page. */
export type ViewerState = 'visible' | 'hidden';

/** What the brokers read: is anyone there? */
export interface PresencePort {
  /** A window or page the person can see is open. */
  readonly visible: boolean;
  /** Some window or page is open (visible or not). */
  readonly attached: boolean;
  /** Called after every change; returns the detach function. */
  onChange(listener: () => void): () => void;
}

/** The shell's reports of its windows and pages, one entry per viewer. */
export class Presence implements PresencePort {
  readonly #viewers = new Map<string, ViewerState>();
  readonly #listeners = new Set<() => void>();

  /** Reports a viewer's state; `undefined` removes it (the window closed, the page disconnected). */
  set(viewer: string, state: ViewerState | undefined): void {
    const before = this.#viewers.get(viewer);
    if (before === state) return;
    if (state === undefined) this.#viewers.delete(viewer);
    else this.#viewers.set(viewer, state);
    for (const listener of [...this.#listeners]) listener();
  }

  get visible(): boolean {
    for (const state of this.#viewers.values()) if (state === 'visible') return true;
    return false;
  }

  get attached(): boolean {
    return this.#viewers.size > 0;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
