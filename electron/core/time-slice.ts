// Long loops in the core yield to the event loop every few milliseconds, so one big job (an import of thousands of
// entries) never holds up bridge calls or other servers.

/** How long a loop may run before it yields. */
export const TIME_SLICE_MS = 8;

/** Tracks one loop's time since it last yielded. */
export class TimeSlice {
  readonly #ms: number;
  #since = performance.now();

  constructor(ms = TIME_SLICE_MS) {
    this.#ms = ms;
  }

  /** Yields to the event loop (one macrotask) when the slice is used up; resolves at once otherwise. */
  async yieldIfDue(): Promise<void> {
    if (performance.now() - this.#since < this.#ms) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#since = performance.now();
  }
}
