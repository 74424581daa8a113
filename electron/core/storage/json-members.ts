// Reads a JSON file shaped `{ ..., "<key>": [ item, item, ... ], ... }` one array item at a time, so a caller that
// keeps only some items never holds the whole file or its parse: the file is read in chunks into one reused buffer
// (no string of it is made, and no file-sized buffer is left for a later GC), the structure around the items is
// scanned here (string bodies skipped with a native search), and each item's text is parsed on its own. Anything
// this scanner does not recognise (another shape, a syntax error, a repeated key) makes it answer undefined, and
// the caller falls back to reading the file whole, which reports the problem as before.
import { closeSync, openSync, readSync } from 'node:fs';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Bytes read at a time (more when one item is longer: the read doubles with what is kept). */
const CHUNK = 256 * 1024;

/** Thrown inside the scan when the text is not what the fast path reads. */
class NotRecognised extends Error {}
/** Thrown inside a step that reached the end of what is read so far: read more and run the step again. */
const NEED_MORE = Symbol('need more');

/** The file's bytes from a checkpoint on, refilled in chunks into one buffer that is reused. */
class Source {
  readonly #fd: number;
  #work = Buffer.allocUnsafe(CHUNK);
  #length = 0;
  eof = false;
  buf: Buffer = this.#work.subarray(0, 0);

  constructor(fd: number) {
    this.#fd = fd;
  }

  /** Keeps the bytes from `from` on (moved to the start) and reads more after them. */
  refill(from: number): void {
    const keep = this.#length - from;
    const want = Math.max(CHUNK, keep);
    if (keep + want > this.#work.length) {
      const next = Buffer.allocUnsafe(keep + want);
      this.#work.copy(next, 0, from, this.#length);
      this.#work = next;
    } else this.#work.copy(this.#work, 0, from, this.#length);
    const n = readSync(this.#fd, this.#work, keep, want, null);
    if (n === 0) this.eof = true;
    this.#length = keep + n;
    this.buf = this.#work.subarray(0, this.#length);
  }

  /** The byte at `i`, undefined at the end of the file. */
  at(i: number): number | undefined {
    if (i < this.buf.length) return this.buf[i];
    if (this.eof) return undefined;
    throw NEED_MORE;
  }
}

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

/** The index after the string that opens at `at` (a quote). */
function skipString(src: Source, at: number): number {
  const buf = src.buf;
  let i = at + 1;
  for (;;) {
    const q = buf.indexOf(QUOTE, i);
    if (q < 0) {
      if (src.eof) throw new NotRecognised();
      throw NEED_MORE;
    }
    // A quote is escaped when an odd number of backslashes comes right before it.
    let slashes = 0;
    for (let j = q - 1; j > at && buf[j] === BACKSLASH; j--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** The index after the JSON value that starts at `at` (checked only for balance; JSON.parse checks the rest). */
function skipValue(src: Source, at: number): number {
  const first = src.at(at);
  if (first === QUOTE) return skipString(src, at);
  if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
    let i = at;
    for (;;) {
      const b = src.at(i);
      if (b === undefined || b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT || isSpace(b)) break;
      i++;
    }
    if (i === at) throw new NotRecognised();
    return i;
  }
  let depth = 0;
  let i = at;
  const buf = src.buf;
  for (;;) {
    if (i >= buf.length) {
      if (src.eof) throw new NotRecognised();
      throw NEED_MORE;
    }
    const b = buf[i];
    if (b === QUOTE) {
      i = skipString(src, i);
      continue;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) depth++;
    else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
}

function skipSpace(src: Source, at: number): number {
  let i = at;
  while (isSpace(src.at(i))) i++;
  return i;
}

function parse(src: Source, start: number, end: number): unknown {
  try {
    return JSON.parse(src.buf.toString('utf8', start, end));
  } catch {
    throw new NotRecognised();
  }
}

/**
 * Runs `step` from the checkpoint `i`; when it reaches the end of what is read, keeps the bytes from `i` on, reads
 * more and runs it again from there (a step has no effect before it returns). Returns what it returns.
 */
function run<T>(src: Source, i: number, step: (i: number) => T): T {
  let from = i;
  for (;;) {
    try {
      return step(from);
    } catch (err) {
      if (err !== NEED_MORE) throw err;
      src.refill(from);
      from = 0;
    }
  }
}

/**
 * Calls `onItem` with each item of the array under `key` in `file`'s top-level object, in order, and returns the
 * object's other members (parsed), or undefined when the file is not of that shape (read it whole instead).
 * Items already given stay given when the answer is undefined. Throws what reading the file throws (ENOENT too).
 */
export function readArrayMember(file: string, key: string, onItem: (item: unknown) => void): Record<string, unknown> | undefined {
  const fd = openSync(file, 'r');
  try {
    return scan(new Source(fd), key, onItem);
  } catch (err) {
    if (err instanceof NotRecognised) return undefined;
    throw err;
  } finally {
    closeSync(fd);
  }
}

function scan(src: Source, key: string, onItem: (item: unknown) => void): Record<string, unknown> | undefined {
  // Every step starts at a checkpoint and returns the index where the next one starts (after the refill, if any,
  // indices are relative to the bytes kept).
  let i = run(src, 0, (at) => {
    const bom = src.at(at) === 0xef && src.at(at + 1) === 0xbb && src.at(at + 2) === 0xbf;
    const open = skipSpace(src, at + (bom ? 3 : 0));
    if (src.at(open) !== OPEN_OBJECT) throw new NotRecognised();
    return skipSpace(src, open + 1);
  });
  // No prototype: a member named __proto__ is kept as a member, never as the object's prototype.
  const others = Object.create(null) as Record<string, unknown>;
  let seen = false;
  for (;;) {
    const member = run(src, i, (at) => {
      if (src.at(at) !== QUOTE) throw new NotRecognised();
      const keyEnd = skipString(src, at);
      const name = parse(src, at, keyEnd);
      const colon = skipSpace(src, keyEnd);
      if (typeof name !== 'string' || src.at(colon) !== COLON) throw new NotRecognised();
      return { name, next: skipSpace(src, colon + 1) };
    });
    i = member.next;
    if (member.name === key) {
      if (seen) return undefined;
      seen = true;
      const first = run(src, i, (at) => {
        if (src.at(at) !== OPEN_ARRAY) throw new NotRecognised();
        const next = skipSpace(src, at + 1);
        return { empty: src.at(next) === CLOSE_ARRAY, next };
      });
      i = first.empty ? first.next + 1 : first.next;
      let more = !first.empty;
      while (more) {
        const item = run(src, i, (at) => {
          const end = skipValue(src, at);
          const value = parse(src, at, end);
          const after = skipSpace(src, end);
          const b = src.at(after);
          if (b !== COMMA && b !== CLOSE_ARRAY) throw new NotRecognised();
          return { value, last: b === CLOSE_ARRAY, next: b === COMMA ? skipSpace(src, after + 1) : after + 1 };
        });
        onItem(item.value);
        more = !item.last;
        i = item.next;
      }
    } else {
      if (Object.hasOwn(others, member.name)) return undefined;
      const value = run(src, i, (at) => {
        const end = skipValue(src, at);
        return { parsed: parse(src, at, end), next: end };
      });
      others[member.name] = value.parsed;
      i = value.next;
    }
    const after = run(src, i, (at) => {
      const next = skipSpace(src, at);
      const b = src.at(next);
      if (b === CLOSE_OBJECT) return { done: true, next: next + 1 };
      if (b !== COMMA) throw new NotRecognised();
      return { done: false, next: skipSpace(src, next + 1) };
    });
    i = after.next;
    if (after.done) break;
  }
  const end = run(src, i, (at) => skipSpace(src, at));
  if (src.at(end) !== undefined || !seen) return undefined;
  return others;
}
