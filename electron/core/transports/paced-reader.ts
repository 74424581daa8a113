// Reads a child's stdout in time slices: at most SLICE_MS of processing per turn of the event loop, then the stream
// is paused and reading goes on in the next turn, so a server writing as fast as it can never holds the main thread
// (bridge calls, other servers) for long. When the session says the server is flooding it (its notification budget
// is dropping messages), reading also waits PACE_MS between slices: the pipe fills, the server's writes wait, and the
// flood costs a bounded share of a core instead of all of it.
import type { Readable } from 'node:stream';

/** Longest stretch of processing per event-loop turn. */
export const SLICE_MS = 8;
/** Bytes handed to the line reader at a time (the deadline is checked between pieces). */
export const PIECE_BYTES = 16 * 1024;
/** How long reading pauses between slices after pace() (a flooding server). */
export const PACE_MS = 25;

/** Feeds a stream to a sink in bounded slices. */
export class PacedReader {
  readonly #stream: Readable;
  readonly #sink: (piece: Buffer) => void;
  readonly #now: () => number;
  readonly #queue: Buffer[] = [];
  #scheduled = false;
  #stopped = false;
  #slowUntil = 0;

  constructor(stream: Readable, sink: (piece: Buffer) => void, now: () => number = () => performance.now()) {
    this.#stream = stream;
    this.#sink = sink;
    this.#now = now;
    stream.on('data', (chunk: Buffer) => {
      if (this.#stopped) return;
      this.#queue.push(chunk);
      if (!this.#scheduled) this.#drain();
    });
  }

  /** The server floods: wait PACE_MS before the next slice. */
  pace(): void {
    this.#slowUntil = this.#now() + PACE_MS;
  }

  /** Processes everything queued now, without slicing (the stream ended). */
  drainAll(): void {
    while (!this.#stopped && this.#queue.length > 0) this.#sink(this.#queue.shift()!);
  }

  /** Drops what is queued and processes nothing more (the transport is released). */
  stop(): void {
    this.#stopped = true;
    this.#queue.length = 0;
  }

  #drain(): void {
    this.#scheduled = false;
    if (this.#stopped) return;
    const deadline = this.#now() + SLICE_MS;
    while (this.#queue.length > 0) {
      const now = this.#now();
      if (now >= deadline || now < this.#slowUntil) {
        this.#stream.pause();
        this.#scheduled = true;
        const wait = this.#slowUntil - now;
        if (wait > 0) setTimeout(() => this.#drain(), wait).unref();
        else setImmediate(() => this.#drain());
        return;
      }
      const chunk = this.#queue[0]!;
      if (chunk.length > PIECE_BYTES) {
        this.#queue[0] = chunk.subarray(PIECE_BYTES);
        this.#sink(chunk.subarray(0, PIECE_BYTES));
      } else {
        this.#queue.shift();
        this.#sink(chunk);
      }
    }
    if (this.#stream.isPaused()) this.#stream.resume();
  }
}
