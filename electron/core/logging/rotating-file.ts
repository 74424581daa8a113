// An append-only log file that rotates by size: `<name>.log` is renamed to `<name>.1.log` (and so on, `keep` files
// in all) before it would pass `maxBytes`. Writes are asynchronous, batched and strictly in order (one write at a
// time, rotation inside the same sequence); when the disk cannot keep up, lines past a bounded backlog are dropped
// and counted instead of growing memory without end.
import { appendFile, rename, rm } from 'node:fs/promises';
import { mkdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

/** Options of a rotating file. */
export interface RotatingFileOptions {
  /** Size at which the file rotates (default 5 MiB). */
  maxBytes?: number;
  /** Files kept including the current one (default 3). */
  keep?: number;
  /** Bytes waiting to be written past which new lines are dropped (default 4 MiB). */
  maxBacklogBytes?: number;
}

/** One log file with size-based rotation. */
export class RotatingFile {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #keep: number;
  readonly #maxBacklog: number;
  #queue: string[] = [];
  #queuedBytes = 0;
  #size = 0;
  #dropped = 0;
  #closed = false;
  #writing: Promise<void> | undefined;
  #idle: (() => void)[] = [];

  constructor(path: string, opts: RotatingFileOptions = {}) {
    this.path = path;
    this.#maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
    this.#keep = Math.max(1, opts.keep ?? 3);
    this.#maxBacklog = opts.maxBacklogBytes ?? 4 * 1024 * 1024;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      this.#size = statSync(path).size;
    } catch {
      this.#size = 0;
    }
  }

  /** Lines dropped because the backlog was full. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The path of the n-th older file (1 = the previous one). */
  rotated(n: number): string {
    const ext = extname(this.path);
    return join(dirname(this.path), `${basename(this.path, ext)}.${n}${ext}`);
  }

  /** Appends one line (a newline is added). */
  write(line: string): void {
    if (this.#closed) return;
    const bytes = Buffer.byteLength(line, 'utf8') + 1;
    if (this.#queuedBytes + bytes > this.#maxBacklog) {
      this.#dropped += 1;
      return;
    }
    this.#queue.push(line);
    this.#queuedBytes += bytes;
    this.#kick();
  }

  /** Resolves once everything written so far is on disk. */
  flush(): Promise<void> {
    if (!this.#writing && this.#queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Flushes and stops; later writes are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.#closed = true;
  }

  #kick(): void {
    if (this.#writing) return;
    this.#writing = this.#drain()
      .catch(() => undefined) // a log that cannot be written must never take the app down
      .finally(() => {
        this.#writing = undefined;
        if (this.#queue.length > 0) this.#kick();
        else for (const done of this.#idle.splice(0)) done();
      });
  }

  async #drain(): Promise<void> {
    while (this.#queue.length > 0) {
      const lines = this.#queue.splice(0);
      let chunk = '';
      let chunkBytes = 0;
      for (const line of lines) {
        const bytes = Buffer.byteLength(line, 'utf8') + 1;
        this.#queuedBytes -= bytes;
        if (this.#size + chunkBytes > 0 && this.#size + chunkBytes + bytes > this.#maxBytes) {
          if (chunk) await this.#append(chunk, chunkBytes);
          chunk = '';
          chunkBytes = 0;
          await this.#rotate();
        }
        chunk += `${line}\n`;
        chunkBytes += bytes;
      }
      if (chunk) await this.#append(chunk, chunkBytes);
    }
  }

  async #append(text: string, bytes: number): Promise<void> {
    await appendFile(this.path, text, { encoding: 'utf8', mode: 0o600 });
    this.#size += bytes;
  }

  async #rotate(): Promise<void> {
    try {
      await rm(this.rotated(this.#keep - 1), { force: true });
      for (let n = this.#keep - 2; n >= 1; n--) await rename(this.rotated(n), this.rotated(n + 1)).catch(() => undefined);
      if (this.#keep > 1) await rename(this.path, this.rotated(1));
      else await rm(this.path, { force: true });
    } catch {
      // rotation is best effort; keep appending
    }
    this.#size = 0;
  }
}
