// Reference for the depth cutter: the byte-at-a-time version it replaced, kept to check the fast one against.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

const encoder = new TextEncoder();

/** A streaming cutter for one JSON text (feed its bytes in order; `reset()` before the next text). */
export class JsonDepthCutter {
  readonly #limit: number;
  readonly #marker: Uint8Array;
  #depth = 0;
  #inString = false;
  #escaped = false;
  #skipping = false;
  #cut = false;

  /** `limit` is the deepest nesting kept; `marker` (a plain string) replaces each part cut. */
  constructor(limit: number, marker: string) {
    this.#limit = limit;
    this.#marker = encoder.encode(JSON.stringify(marker));
  }

  /** True once something of the current text was cut. */
  get cut(): boolean {
    return this.#cut;
  }

  /** Starts a new text. */
  reset(): void {
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
    this.#skipping = false;
    this.#cut = false;
  }

  /**
   * Feeds the next bytes of the text; returns what to pass on, as views into `chunk` (plus the marker) — the chunk
   * itself, alone, when nothing in it was cut.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let from = this.#skipping ? -1 : 0;
    const limit = this.#limit;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.#inString) {
        if (this.#escaped) this.#escaped = false;
        else if (b === BACKSLASH) this.#escaped = true;
        else if (b === QUOTE) this.#inString = false;
        continue;
      }
      if (b === QUOTE) {
        this.#inString = true;
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        this.#depth++;
        if (!this.#skipping && this.#depth > limit) {
          if (i > from) out.push(chunk.subarray(from, i));
          out.push(this.#marker);
          this.#skipping = true;
          this.#cut = true;
          from = -1;
        }
      } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (this.#skipping && this.#depth === limit + 1) {
          this.#skipping = false;
          from = i + 1;
        }
        if (this.#depth > 0) this.#depth--;
      }
    }
    if (from === 0) return [chunk];
    if (from !== -1 && from < chunk.length) out.push(chunk.subarray(from));
    return out;
  }
}

/** Cuts one complete JSON text held in a buffer; returns the same buffer when nothing was cut. */
export function cutJsonDepth(bytes: Buffer, limit: number, marker: string): { bytes: Buffer; cut: boolean } {
  const cutter = new JsonDepthCutter(limit, marker);
  const parts = cutter.push(bytes);
  if (!cutter.cut) return { bytes, cut: false };
  return { bytes: Buffer.concat(parts), cut: true };
}
