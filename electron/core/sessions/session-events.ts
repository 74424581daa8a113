// Session-level events other core modules (catalog, calls, resources) subscribe to.
// The session manager emits them; consumers never register handlers on the SDK Client directly,
// so a reconnect (new Client) keeps every consumer attached.
import type { Client } from '@modelcontextprotocol/client';

/** Something that happened to one server's live session. */
export type SessionEvent =
  | { type: 'connected'; id: string; client: Client; protocolVersion: string }
  | { type: 'closed'; id: string }
  | { type: 'removed'; id: string }
  | { type: 'toolsListChanged'; id: string }
  | { type: 'resourcesListChanged'; id: string }
  | { type: 'resourceUpdated'; id: string; uri: string }
  | { type: 'promptsListChanged'; id: string };

/** Receives session events. */
export type SessionEventListener = (event: SessionEvent) => void;

/** A small typed fan-out for session events. */
export class SessionEvents {
  readonly #listeners = new Set<SessionEventListener>();
  readonly #onListenerError: ((event: SessionEvent, err: unknown) => void) | undefined;

  /** `onListenerError` hears a listener that threw (the others still get the event). */
  constructor(onListenerError?: (event: SessionEvent, err: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** Attaches a listener; returns the detach function. */
  subscribe(listener: SessionEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Delivers an event to every listener; one failing listener does not stop the others. */
  emit(event: SessionEvent): void {
    for (const l of [...this.#listeners]) {
      try {
        l(event);
      } catch (err) {
        this.#onListenerError?.(event, err);
      }
    }
  }
}
