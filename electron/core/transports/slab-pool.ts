// Slabs for large stdout lines, reused: a fresh megabyte costs its page faults on first touch (on some machines far
// more than the copy into it), so slabs the line-parse worker has finished with come back here and serve the next
// large line. A few are kept, and none once large lines have stopped for a while.

/** Size of one slab. */
export const SLAB_BYTES = 1024 * 1024;
/** Most idle slabs kept. */
export const MAX_IDLE_SLABS = 16;
/** Idle slabs are let go when no large line has come for this long (ms). */
const IDLE_MS = 10_000;

/** A small free list of slabs. */
export class SlabPool {
  #idle: ArrayBuffer[] = [];
  #timer: NodeJS.Timeout | undefined;

  /** A slab: a reused one when there is one, else a new one. */
  take(): Uint8Array {
    const buffer = this.#idle.pop();
    return buffer ? new Uint8Array(buffer) : new Uint8Array(SLAB_BYTES);
  }

  /** Takes back slabs nobody uses any more (whole buffers of SLAB_BYTES; anything else is left to the GC). */
  give(buffers: readonly ArrayBuffer[]): void {
    for (const b of buffers) {
      if (this.#idle.length >= MAX_IDLE_SLABS) break;
      if (b.byteLength === SLAB_BYTES && !this.#idle.includes(b)) this.#idle.push(b);
    }
    clearTimeout(this.#timer);
    if (this.#idle.length > 0) {
      this.#timer = setTimeout(() => (this.#idle = []), IDLE_MS);
      this.#timer.unref();
    }
  }

  /** Idle slabs held (tests). */
  get idle(): number {
    return this.#idle.length;
  }
}

/** The slabs the process's stdio readers and line-parse worker share. */
export const sharedSlabPool = new SlabPool();
