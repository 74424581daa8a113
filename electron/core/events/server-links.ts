// Which servers have a live session right now, and their clients. Subscriptions wait here for a change of their
// server (a connect, a close, a status change) and decide again; a retired client is never handed out again.
import type { Client } from '@modelcontextprotocol/client';
import type { SessionEvent } from '../sessions/session-events.js';

/** Why a wait ended without a change. */
export class LinkWaitAborted extends Error {
  constructor() {
    super('Stopped waiting for the server');
    this.name = 'LinkWaitAborted';
  }
}

/** Live clients by server id, and change notification per server. */
export class ServerLinks {
  readonly #clients = new Map<string, Client>();
  readonly #retired = new WeakSet<Client>();
  readonly #waiters = new Map<string, Set<() => void>>();

  /** Follows the session events (connected / closed / removed). */
  onSession(event: SessionEvent): void {
    if (event.type === 'connected') {
      if (!this.#retired.has(event.client)) this.#clients.set(event.id, event.client);
    } else if (event.type === 'closed' || event.type === 'removed') {
      this.#clients.delete(event.id);
    } else {
      return;
    }
    this.changed(event.id);
  }

  /** Wakes whoever waits on a server (its status changed). */
  changed(id: string): void {
    const waiting = this.#waiters.get(id);
    if (!waiting) return;
    this.#waiters.delete(id);
    for (const wake of waiting) wake();
  }

  /** The live client of a server, when connected. */
  get(id: string): Client | undefined {
    return this.#clients.get(id);
  }

  /** This client's session is over: forget it and never hand it out again. */
  retire(id: string, client: Client): void {
    this.#retired.add(client);
    if (this.#clients.get(id) === client) this.#clients.delete(id);
  }

  /** Resolves at the server's next change (or after `ms`, when given); rejects when `signal` aborts. */
  next(id: string, signal: AbortSignal, ms?: number): Promise<void> {
    if (signal.aborted) return Promise.reject(new LinkWaitAborted());
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = (): void => {
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.#waiters.get(id)?.delete(done);
        resolve();
      };
      const onAbort = (): void => {
        if (timer) clearTimeout(timer);
        this.#waiters.get(id)?.delete(done);
        reject(new LinkWaitAborted());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      if (ms !== undefined) {
        timer = setTimeout(done, Math.max(0, ms));
        timer.unref?.();
      }
      let set = this.#waiters.get(id);
      if (!set) {
        set = new Set();
        this.#waiters.set(id, set);
      }
      set.add(done);
    });
  }
}
