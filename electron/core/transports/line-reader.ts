// Bounded newline-delimited reader for stdio: keeps the pieces of the current line in a list and joins them
// only when the newline arrives (one copy per line, never a re-concatenation per chunk), and discards a line
// longer than the limit as it streams, so memory stays bounded by the limit whatever the child writes. A line that
// grows large is copied piece by piece, as it arrives, into slabs it owns: no single step ever copies the whole
// line, and the slabs can be handed to another thread without a copy.

import { SLAB_BYTES, type SlabPool } from './slab-pool.js';

export { SLAB_BYTES };

/** A large line: its bytes in slabs of its own (each on a buffer nobody else uses), in order. */
export class SlabLine {
  readonly slabs: Uint8Array[];
  /** Total bytes. */
  readonly length: number;
  constructor(slabs: Uint8Array[], length: number) {
    this.slabs = slabs;
    this.length = length;
  }
  /** The bytes in one buffer (a copy: for the calling thread's own parse). */
  join(): Buffer {
    return Buffer.concat(this.slabs, this.length);
  }
}

/** A complete line: one buffer, or slabs once it grew large. */
export type LineBytes = Buffer | SlabLine;

/** What the reader reports to its owner. */
export interface LineReaderSink {
  /** A complete line (without its trailing newline). */
  line(bytes: LineBytes): void;
  /** The current line just reached the slab size (optional; called once per such line, before it ends). */
  large?(): void;
  /** The current line just went over the limit; its bytes are being discarded. Called once per such line. */
  oversized(limit: number): void;
  /**
   * An oversized line ended; `totalBytes` is how long it was. `head` and `tail` are its first and last
   * few hundred bytes, enough to recover a JSON-RPC response id so the waiting request can fail at once.
   */
  oversizedEnd(totalBytes: number, head: Buffer, tail: Buffer): void;
}

/** How many bytes of each end of a discarded line are kept. */
const EDGE_BYTES = 256;

/** Splits a byte stream into lines of at most `limit` bytes. */
export class BoundedLineReader {
  readonly #limit: number;
  readonly #sink: LineReaderSink;
  readonly #slabFrom: number;
  readonly #slabPool: SlabPool | undefined;
  #parts: Buffer[] = [];
  /** Slabs of the current line once it reached `slabFrom` bytes; the last one is filled up to #slabUsed. */
  #slabs: Uint8Array[] | undefined;
  #slabUsed = 0;
  #size = 0;
  #peak = 0;
  #discarding = false;
  #discarded = 0;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  /**
   * `slabFrom`: a line reaching this many bytes is kept in slabs and delivered as a SlabLine (default: never);
   * `slabPool`: where slabs come from (default: new ones).
   */
  constructor(limit: number, sink: LineReaderSink, opts: { slabFrom?: number; slabPool?: SlabPool } = {}) {
    this.#limit = limit;
    this.#sink = sink;
    this.#slabFrom = opts.slabFrom ?? Infinity;
    this.#slabPool = opts.slabPool;
  }

  /** Feeds one chunk. */
  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        this.#take(chunk.subarray(start));
        return;
      }
      this.#take(chunk.subarray(start, nl));
      this.#endLine();
      start = nl + 1;
    }
  }

  /** Delivers a trailing line that had no newline (at end of stream). */
  flush(): void {
    if (this.#size > 0 || this.#discarding) this.#endLine();
  }

  /** Bytes currently held for the unfinished line (for tests and diagnostics). */
  get pendingBytes(): number {
    return this.#size;
  }

  /** The most bytes ever held for one unfinished line: never more than the limit. */
  get peakPendingBytes(): number {
    return this.#peak;
  }

  #take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#discarding) {
      this.#discarded += piece.length;
      this.#keepTail(piece);
      return;
    }
    if (this.#size + piece.length > this.#limit) {
      this.#discarding = true;
      this.#discarded = this.#size + piece.length;
      const first = this.#slabs?.[0] ?? this.#parts[0] ?? piece;
      this.#head = Buffer.from(first.subarray(0, Math.min(EDGE_BYTES, this.#size > 0 ? this.#size : piece.length)));
      this.#tail = Buffer.alloc(0);
      this.#keepTail(piece);
      this.#parts = [];
      if (this.#slabs) this.#slabPool?.give(this.#slabs.map((s) => s.buffer as ArrayBuffer));
      this.#slabs = undefined;
      this.#size = 0;
      this.#sink.oversized(this.#limit);
      return;
    }
    if (this.#slabs) this.#copyIn(piece);
    else this.#parts.push(piece);
    this.#size += piece.length;
    if (this.#size > this.#peak) this.#peak = this.#size;
    if (!this.#slabs && this.#size >= this.#slabFrom) {
      this.#slabs = [];
      for (const part of this.#parts) this.#copyIn(part);
      this.#parts = [];
      this.#sink.large?.();
    }
  }

  /** Copies a piece into the current line's slabs, starting a new slab when the last one is full. */
  #copyIn(piece: Buffer): void {
    const slabs = this.#slabs!;
    let at = 0;
    while (at < piece.length) {
      let slab = slabs[slabs.length - 1];
      if (!slab || this.#slabUsed === slab.length) {
        slab = this.#slabPool?.take() ?? new Uint8Array(SLAB_BYTES);
        slabs.push(slab);
        this.#slabUsed = 0;
      }
      const n = Math.min(piece.length - at, slab.length - this.#slabUsed);
      slab.set(piece.subarray(at, at + n), this.#slabUsed);
      this.#slabUsed += n;
      at += n;
    }
  }

  #keepTail(piece: Buffer): void {
    this.#tail =
      piece.length >= EDGE_BYTES
        ? Buffer.from(piece.subarray(piece.length - EDGE_BYTES))
        : Buffer.concat([this.#tail, piece]).subarray(-EDGE_BYTES);
  }

  #endLine(): void {
    if (this.#discarding) {
      const total = this.#discarded;
      this.#discarding = false;
      this.#discarded = 0;
      this.#sink.oversizedEnd(total, this.#head, this.#tail);
      this.#head = Buffer.alloc(0);
      this.#tail = Buffer.alloc(0);
      return;
    }
    const parts = this.#parts;
    const slabs = this.#slabs;
    const size = this.#size;
    this.#parts = [];
    this.#slabs = undefined;
    this.#size = 0;
    if (slabs) {
      const last = slabs.length - 1;
      slabs[last] = slabs[last]!.subarray(0, this.#slabUsed);
      this.#slabUsed = 0;
      this.#sink.line(new SlabLine(slabs, size));
      return;
    }
    const line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
    this.#sink.line(line);
  }
}

/** Keeps the last `capacity` bytes written to it (a ring by bytes), and splits them into lines on demand. */
export class ByteRing {
  readonly #capacity: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Appends bytes, dropping the oldest ones beyond the capacity. */
  push(chunk: Buffer): void {
    if (chunk.length >= this.#capacity) {
      this.#chunks = [Buffer.from(chunk.subarray(chunk.length - this.#capacity))];
      this.#size = this.#capacity;
      return;
    }
    // Copy: a child's chunk may be a view on a larger pooled buffer.
    this.#chunks.push(Buffer.from(chunk));
    this.#size += chunk.length;
    while (this.#size > this.#capacity) {
      const first = this.#chunks[0] as Buffer;
      const excess = this.#size - this.#capacity;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#size -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#size -= excess;
      }
    }
  }

  /** Bytes held. */
  get size(): number {
    return this.#size;
  }

  /** The held text. */
  text(): string {
    return Buffer.concat(this.#chunks, this.#size).toString('utf8');
  }

  /** The last `count` non-empty lines. */
  tail(count: number): string[] {
    const lines = this.text()
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    return lines.slice(-count);
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID);
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*` + ID + String.raw`\s*\}\s*$`);

/**
 * Recovers the id of a JSON-RPC response from the two ends of a line too large to parse, or undefined.
 * Only an id at the top level (first key after "jsonrpc", or last key) is trusted; requests are ignored.
 */
export function responseIdFromEdges(head: Buffer, tail: Buffer): string | number | undefined {
  const h = head.toString('utf8');
  if (/^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?(?:"id"\s*:\s*[^,]+,\s*)?"method"/.test(h)) return undefined;
  const m = HEAD_ID.exec(h) ?? TAIL_ID.exec(tail.toString('utf8'));
  if (!m || m[1] === undefined) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}
