// Bounded newline-delimited reader for stdio: keeps the pieces of the current line in a list and joins them
// only when the newline arrives (one copy per line, never a re-concatenation per chunk), and discards a line
// longer than the limit as it streams, so memory stays bounded by the limit whatever the child writes.

/** What the reader reports to its owner. */
export interface LineReaderSink {
  /** A complete line (without its trailing newline). */
  line(bytes: Buffer): void;
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
  #parts: Buffer[] = [];
  #size = 0;
  #peak = 0;
  #discarding = false;
  #discarded = 0;
  #head: Buffer = Buffer.alloc(0);
  #tail: Buffer = Buffer.alloc(0);

  constructor(limit: number, sink: LineReaderSink) {
    this.#limit = limit;
    this.#sink = sink;
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
      const first = this.#parts[0] ?? piece;
      this.#head = Buffer.from(first.subarray(0, EDGE_BYTES));
      this.#tail = Buffer.alloc(0);
      this.#keepTail(piece);
      this.#parts = [];
      this.#size = 0;
      this.#sink.oversized(this.#limit);
      return;
    }
    this.#parts.push(piece);
    this.#size += piece.length;
    if (this.#size > this.#peak) this.#peak = this.#size;
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
    const size = this.#size;
    this.#parts = [];
    this.#size = 0;
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
