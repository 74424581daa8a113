// Reads a child's stdout in time slices: at most SLICE_MS of processing per turn of the event loop, shared by every
// server's reader (ten servers writing at once get one slice between them, not ten), then the streams are paused and
// reading goes on in the next turn, so servers writing as fast as they can never hold the main thread (bridge calls,
// the UI) for long. Each reader still takes one piece per turn it runs, so none starves while another has data. When the session says the server is flooding it (its notification budget
// is dropping messages), reading also waits PACE_MS between slices: the pipe fills, the server's writes wait, and the
// flood costs a bounded share of a core instead of all of it.
import type { Readable } from 'node:stream';

/** Longest stretch of processing per event-loop turn. */
export const SLICE_MS = 8;
/** Bytes handed to the line reader at a time (the deadline is checked between pieces). */
export const PIECE_BYTES = 16 * 1024;
/** How long reading pauses between slices after pace() (a flooding server). */
export const PACE_MS = 25;

/** The processing time every reader shares in one turn of the event loop. */
export class TurnBudget {
  #open = false;
  #deadline = 0;

  /**
   * When this turn's slice ends: the first reader to run in a turn starts it; it closes when timers next run, so the
   * readers that run later in the same turn (data events, then deferred slices) share it.
   */
  deadline(now: number): number {
    if (!this.#open) {
      this.#open = true;
      this.#deadline = now + SLICE_MS;
      setTimeout(() => (this.#open = false), 0).unref();
    }
    return this.#deadline;
  }
}

/** The budget the process's stdio readers share. */
export const sharedTurnBudget = new TurnBudget();

/** Feeds a stream to a sink in bounded slices. */
export class PacedReader {
  readonly #stream: Readable;
  readonly #sink: (piece: Buffer) => void;
  readonly #now: () => number;
  readonly #budget: TurnBudget;
  readonly #queue: Buffer[] = [];
  #scheduled = false;
  #stopped = false;
  #slowUntil = 0;

  constructor(
    stream: Readable,
    sink: (piece: Buffer) => void,
    now: () => number = () => performance.now(),
    budget: TurnBudget = sharedTurnBudget,
  ) {
    this.#stream = stream;
    this.#sink = sink;
    this.#now = now;
    this.#budget = budget;
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
    const start = this.#now();
    // The turn's shared slice is opened (and its end-of-turn timer set) only once a second piece is due: the usual
    // read is one small piece, which every reader may take anyway, so it costs no timer. The first piece's time still
    // counts, from `start`.
    let deadline = Infinity;
    let took = false;
    while (this.#queue.length > 0) {
      const now = took ? this.#now() : start;
      if (took && deadline === Infinity) deadline = this.#budget.deadline(start);
      if ((took && now >= deadline) || now < this.#slowUntil) {
        this.#stream.pause();
        this.#scheduled = true;
        const wait = this.#slowUntil - now;
        if (wait > 0) setTimeout(() => this.#drain(), wait).unref();
        else setImmediate(() => this.#drain());
        return;
      }
      took = true;
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
