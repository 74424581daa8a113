// Nesting bound on JSON text, before it is parsed. V8 parses deeply nested JSON about ten times slower per byte than
// flat JSON (an 8 MiB line of "[[[[..." costs seconds of the main thread), and everything recursive after the parse
// breaks on it, so the transports cut over-deep parts out of the bytes as they arrive: a container that would open
// deeper than the limit is replaced, with everything inside it, by a marker string. The result stays valid JSON
// whenever the input was. Works on raw UTF-8 bytes (no multi-byte character contains an ASCII byte) and across
// chunk boundaries, in one linear pass; string bodies are skipped with a native search for the next quote.

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
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.#inString) {
        // String bodies are most of a large result: find the next quote natively, then decide from the run of
        // backslashes before it whether it closes the string.
        if (this.#escaped) {
          this.#escaped = false;
          i++;
          continue;
        }
        const q = chunk.indexOf(QUOTE, i);
        const end = q < 0 ? n : q;
        let run = 0;
        while (end - run - 1 >= i && chunk[end - run - 1] === BACKSLASH) run++;
        if (q < 0) {
          this.#escaped = run % 2 === 1;
          break;
        }
        if (run % 2 === 0) this.#inString = false;
        i = q + 1;
        continue;
      }
      const b = chunk[i]!;
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
      i++;
    }
    if (from === 0) return [chunk];
    if (from !== -1 && from < chunk.length) out.push(chunk.subarray(from));
    return out;
  }
}

/** The last cutter cutJsonDepth made, reused while the limit and marker stay the same (every stdout line asks). */
let reused: { limit: number; marker: string; cutter: JsonDepthCutter } | undefined;

/** Cuts one complete JSON text held in a buffer; returns the same buffer when nothing was cut. */
export function cutJsonDepth(bytes: Buffer, limit: number, marker: string): { bytes: Buffer; cut: boolean } {
  if (reused?.limit !== limit || reused.marker !== marker) reused = { limit, marker, cutter: new JsonDepthCutter(limit, marker) };
  const cutter = reused.cutter;
  // Synchronous from reset to the last push, so one cutter serves every call.
  cutter.reset();
  const parts = cutter.push(bytes);
  if (!cutter.cut) return { bytes, cut: false };
  return { bytes: Buffer.concat(parts), cut: true };
}
