// Which connections the gateway's HTTP front keeps. Node's own headersTimeout is only checked on a timer for
// sockets that started a request, so a local process could open thousands of silent sockets and lock every client
// out. Here every socket has a deadline while it waits for a request (idle and header timeouts, enforced per
// socket), unauthenticated sockets are capped per peer and in total, and when the front is full the newest
// connection evicts the oldest unauthenticated one (then the oldest idle authenticated one) rather than being
// refused: the person's clients, which send their token at once, are served before sockets that say nothing.
// A socket is evicted for its peer's cap only once it had a moment to speak (graceMs): a client that opens a
// burst of connections at once (undici opens one per request in flight) sends every request right away, and
// evicting the oldest of those, before the front has read their headers, failed the client's own calls. Sockets
// that stay silent past the grace (no byte read, even after the loop has read what is waiting) are trimmed back to
// the cap; the total cap never waits.
import type { Socket } from 'node:net';

/** The front's connection limits. */
export interface AdmissionLimits {
  /** A socket with no request in flight and no bytes for this long is closed. */
  idleMs: number;
  /** A socket must complete a request's headers this long after it opens or after its last response. */
  headersMs: number;
  /** Unauthenticated sockets from one peer address kept at once. */
  perPeerUnauthenticated: number;
  /** Sockets kept at once, authenticated or not. */
  total: number;
  /** A new socket is not evicted for its peer's cap before it had this long to send its request. */
  graceMs: number;
}

/** Defaults: ten seconds to speak, 256 unauthenticated sockets a peer (beyond that 5 s to speak), 2,048 in all. */
export const DEFAULT_ADMISSION: AdmissionLimits = {
  idleMs: 10_000,
  headersMs: 10_000,
  perPeerUnauthenticated: 256,
  total: 2048,
  graceMs: 5000,
};

/** What the front can read about its connections (tests, diagnostics). */
export interface AdmissionCounts {
  /** Sockets that have not yet sent a valid token. */
  unauthenticated: number;
  /** Sockets that have. */
  authenticated: number;
  /** Sockets closed to make room or for the cap. */
  evicted: number;
  /** Sockets closed for silence or slow headers. */
  timedOut: number;
}

interface Entry {
  socket: Socket;
  peer: string;
  authenticated: boolean;
  inFlight: number;
  deadline: ReturnType<typeof setTimeout> | undefined;
  /** performance.now() when it connected. */
  openedAt: number;
}

/** Tracks the front's sockets: deadlines while waiting, caps, and who goes first. */
export class ConnectionAdmission {
  readonly #limits: AdmissionLimits;
  // Insertion order is age order: the first entry is the oldest.
  readonly #entries = new Map<Socket, Entry>();
  readonly #unauthByPeer = new Map<string, number>();
  #evicted = 0;
  #timedOut = 0;
  #trimTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(limits: Partial<AdmissionLimits> = {}) {
    this.#limits = { ...DEFAULT_ADMISSION, ...limits };
  }

  /** A new connection ('connection' event): makes room for it or closes it, and starts its deadline. */
  admit(socket: Socket): void {
    const peer = socket.remoteAddress ?? 'unknown';
    const now = performance.now();
    const grace = this.#limits.graceMs;
    if (
      (this.#unauthByPeer.get(peer) ?? 0) >= this.#limits.perPeerUnauthenticated &&
      !this.#evictOldest((e) => !e.authenticated && e.peer === peer && e.socket.bytesRead === 0 && now - e.openedAt >= grace)
    ) {
      // Every one of them opened within the grace: a burst. Kept for now; those still silent after it are trimmed.
      this.#scheduleTrim(grace);
    }
    if (this.#entries.size >= this.#limits.total) {
      const made = this.#evictOldest((e) => !e.authenticated) || this.#evictOldest((e) => e.authenticated && e.inFlight === 0);
      if (!made) {
        this.#evict(socket);
        return;
      }
    }
    const entry: Entry = { socket, peer, authenticated: false, inFlight: 0, deadline: undefined, openedAt: now };
    this.#entries.set(socket, entry);
    this.#unauthByPeer.set(peer, (this.#unauthByPeer.get(peer) ?? 0) + 1);
    socket.once('close', () => this.#forget(entry));
    socket.on('timeout', () => this.#expire(entry));
    this.#wait(entry);
  }

  /**
   * A request with a valid token arrived on the socket: it counts as the person's client from now on, and has no
   * deadline while the request runs (tool calls and event streams may be long and quiet).
   */
  started(socket: Socket): void {
    const entry = this.#entries.get(socket);
    if (!entry) return;
    if (!entry.authenticated) {
      entry.authenticated = true;
      this.#dropUnauth(entry.peer);
    }
    entry.inFlight++;
    this.#clear(entry);
  }

  /** That request's response is over (finished or aborted): the socket waits for its next request again. */
  ended(socket: Socket): void {
    const entry = this.#entries.get(socket);
    if (!entry) return;
    entry.inFlight = Math.max(0, entry.inFlight - 1);
    if (entry.inFlight === 0) this.#wait(entry);
  }

  /** Current counts. */
  counts(): AdmissionCounts {
    let authenticated = 0;
    for (const e of this.#entries.values()) if (e.authenticated) authenticated++;
    return { unauthenticated: this.#entries.size - authenticated, authenticated, evicted: this.#evicted, timedOut: this.#timedOut };
  }

  /** Closes every socket (the front is closing). */
  closeAll(): void {
    if (this.#trimTimer !== undefined) clearTimeout(this.#trimTimer);
    this.#trimTimer = undefined;
    for (const entry of [...this.#entries.values()]) entry.socket.destroy();
  }

  #scheduleTrim(ms: number): void {
    if (this.#trimTimer !== undefined) return;
    // The timer fires before the loop reads what waits on the sockets: trim after that read (setImmediate), so a
    // request that arrived while the loop was busy counts.
    this.#trimTimer = setTimeout(() => setImmediate(() => this.#trim()), Math.max(1, Math.ceil(ms)));
    this.#trimTimer.unref();
  }

  /** Closes the oldest silent sockets of every peer over its cap that had their grace; comes back for the rest. */
  #trim(): void {
    this.#trimTimer = undefined;
    const now = performance.now();
    const { perPeerUnauthenticated: cap, graceMs: grace } = this.#limits;
    let next = Infinity;
    for (const [peer, count] of [...this.#unauthByPeer]) {
      let over = count - cap;
      for (const entry of this.#entries.values()) {
        if (over <= 0) break;
        if (entry.authenticated || entry.peer !== peer || entry.socket.bytesRead > 0) continue;
        const age = now - entry.openedAt;
        if (age < grace) {
          next = Math.min(next, grace - age);
          break;
        }
        this.#forget(entry);
        this.#evict(entry.socket);
        over--;
      }
    }
    if (next < Infinity) this.#scheduleTrim(next);
  }

  #wait(entry: Entry): void {
    this.#clear(entry);
    entry.socket.setTimeout(this.#limits.idleMs);
    entry.deadline = setTimeout(() => this.#expire(entry), this.#limits.headersMs);
    entry.deadline.unref();
  }

  #clear(entry: Entry): void {
    entry.socket.setTimeout(0);
    if (entry.deadline !== undefined) clearTimeout(entry.deadline);
    entry.deadline = undefined;
  }

  #expire(entry: Entry): void {
    // A request that started after the timer was armed keeps its socket.
    if (entry.inFlight > 0 || !this.#entries.has(entry.socket)) return;
    this.#timedOut++;
    entry.socket.destroy();
  }

  #evictOldest(match: (e: Entry) => boolean): boolean {
    for (const entry of this.#entries.values()) {
      if (!match(entry)) continue;
      this.#forget(entry);
      this.#evict(entry.socket);
      return true;
    }
    return false;
  }

  #evict(socket: Socket): void {
    this.#evicted++;
    socket.destroy();
  }

  #forget(entry: Entry): void {
    if (!this.#entries.delete(entry.socket)) return;
    this.#clear(entry);
    if (!entry.authenticated) this.#dropUnauth(entry.peer);
  }

  #dropUnauth(peer: string): void {
    const n = (this.#unauthByPeer.get(peer) ?? 1) - 1;
    if (n <= 0) this.#unauthByPeer.delete(peer);
    else this.#unauthByPeer.set(peer, n);
  }
}
