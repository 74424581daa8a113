// The one way the core writes and reads its own JSON files (settings aside): atomic writes (temp file in the
// same folder, fsync, rename, mode 0600) and loads that move a corrupt file aside instead of dropping it.
import {
  chmodSync,
  closeSync,
  constants as fsConstants,
  copyFileSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { open, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

/** Characters handed to one write() of a piece-by-piece write. */
const WRITE_CHUNK = 256 * 1024;

let tmpCounter = 0;
const tmpName = (file: string): string => `${file}.tmp-${process.pid}-${Date.now()}-${(tmpCounter += 1)}`;

/** The prefix of the temp files an atomic write of `file` uses (`<file>.tmp-…`); leftovers of a crash match it. */
export const tmpPrefix = (file: string): string => `${basename(file)}.tmp-`;

/**
 * JSON text serialised ahead of time, written as-is: one string, or a list of pieces written one after another. A
 * store whose parts rarely change (call history entries) keeps each part's text and hands over the pieces, so a
 * write neither re-serialises nor joins the whole file on the main thread.
 */
export class JsonText {
  readonly parts: readonly string[];
  constructor(text: string | readonly string[]) {
    this.parts = typeof text === 'string' ? [text] : text;
  }
  /** The whole text (joined). */
  get text(): string {
    return this.parts.join('');
  }
}

const serialise = (value: unknown): string => (value instanceof JsonText ? value.text : JSON.stringify(value));
const pieces = (value: unknown): readonly string[] => (value instanceof JsonText ? value.parts : [JSON.stringify(value)]);

/** Writes `value` as JSON to `file` atomically: a reader sees the old file or the new one, never a torn one. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await writePartsAtomic(file, pieces(value), 0o600);
}

/**
 * Writes text to `file` atomically (temp file in the same folder, fsync, rename), with `mode` (default 0600) —
 * for the few files that are not plain JSON values, e.g. another app's JSONC config edited in place.
 */
export async function writeTextAtomic(file: string, text: string, mode = 0o600): Promise<void> {
  await writePartsAtomic(file, [text], mode);
}

async function writePartsAtomic(file: string, parts: readonly string[], mode: number): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tmpName(file);
  try {
    const handle = await open(tmp, 'w', mode);
    try {
      // About 1 MiB at a time: no join or encoding of the whole file in one go, and the loop yields between writes.
      let chunk: string[] = [];
      let size = 0;
      for (const part of parts) {
        chunk.push(part);
        size += part.length;
        if (size >= WRITE_CHUNK) {
          await handle.write(chunk.join(''), null, 'utf8');
          chunk = [];
          size = 0;
        }
      }
      if (size > 0) await handle.write(chunk.join(''), null, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** The synchronous twin of writeJsonAtomic, for start-up and the last flush at shutdown only. */
export function writeJsonAtomicSync(file: string, value: unknown): void {
  const text = serialise(value);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = tmpName(file);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, text, null, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A temp file younger than this whose writer is still running may be a write in progress: it is left alone. */
const LIVE_TEMP_MS = 60_000;

function pidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temp files an interrupted atomic write of `file` left behind (`<file>.tmp-*`, ours or an older
 * writer's). A recent temp of a running process is kept: it may be a write in progress. Returns the names removed.
 */
export function removeLeftoverTemps(file: string, now: number = Date.now()): string[] {
  const dir = dirname(file);
  const prefix = tmpPrefix(file);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const path = join(dir, name);
    const pid = /^(\d+)-\d+-\d+$/.exec(name.slice(prefix.length))?.[1];
    try {
      const young = now - statSync(path).mtimeMs < LIVE_TEMP_MS;
      if (pid !== undefined && young && pidRunning(Number(pid))) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** A free backup name for `file`: `<name>.corrupt-<timestamp>[-n]<ext>`, never an earlier backup's. */
function backupName(file: string, now: Date): string {
  const ext = extname(file);
  const stem = join(dirname(file), basename(file, ext));
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  let backup = `${stem}.corrupt-${stamp}${ext}`;
  for (let n = 1; existsSync(backup); n += 1) backup = `${stem}.corrupt-${stamp}-${n}${ext}`;
  return backup;
}

/** Moves `file` aside as `<name>.corrupt-<timestamp>[-n]<ext>` (never over an earlier backup); returns the new path. */
export function moveAside(file: string, now: Date = new Date()): string {
  const backup = backupName(file, now);
  renameSync(file, backup);
  return backup;
}

/**
 * Copies `file` byte for byte to a backup named like moveAside's and leaves the original in place (the caller then
 * rewrites it atomically, so there is never a moment without the file). Returns the backup's path.
 */
export function copyAside(file: string, now: Date = new Date()): string {
  const backup = backupName(file, now);
  copyFileSync(file, backup, fsConstants.COPYFILE_EXCL);
  if (process.platform !== 'win32') chmodSync(backup, 0o600);
  return backup;
}

/** What reading a JSON file found. */
export type JsonReadResult<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'quarantined'; backup: string; reason: string };

/**
 * Reads and validates a JSON file. `parse` throws (with a plain-words message) when the content is not acceptable;
 * the file is then moved aside whole and the caller raises a notice naming the backup.
 */
export function readJsonFile<T>(file: string, parse: (raw: unknown) => T, now?: Date): JsonReadResult<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    throw err;
  }
  let reason: string;
  try {
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (text.trim().length === 0) throw new Error('the file is empty');
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error('the file is not valid JSON');
    }
    return { kind: 'ok', value: parse(raw) };
  } catch (err) {
    reason = err instanceof Error ? err.message : 'the file could not be read';
  }
  return { kind: 'quarantined', backup: moveAside(file, now), reason };
}

/**
 * Coalesces frequent saves of one file into atomic writes a moment later, one at a time, latest value wins.
 * `flush()` writes what is pending now and resolves once it is on disk (shutdown awaits it).
 */
export class JsonFileWriter {
  readonly #file: string;
  readonly #delayMs: number;
  readonly #onError: (err: unknown) => void;
  #pending: (() => unknown) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(file: string, opts: { delayMs?: number; onError?: (err: unknown) => void } = {}) {
    this.#file = file;
    this.#delayMs = opts.delayMs ?? 250;
    this.#onError = opts.onError ?? (() => undefined);
  }

  /** The file this writer owns. */
  get file(): string {
    return this.#file;
  }

  /** Whether a write is scheduled and not yet started. */
  get pending(): boolean {
    return this.#pending !== undefined;
  }

  /** Schedules a write of the value `snapshot()` returns when the write starts. */
  schedule(snapshot: () => unknown): void {
    this.#pending = snapshot;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#drain().catch(this.#onError);
    }, this.#delayMs);
    this.#timer.unref?.();
  }

  /** Writes any pending value now and waits for every write in progress. Rejects if that write failed. */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#drain();
  }

  #drain(): Promise<void> {
    const next = this.#writing
      .catch(() => undefined)
      .then(async () => {
        const snapshot = this.#pending;
        this.#pending = undefined;
        if (snapshot) await writeJsonAtomic(this.#file, snapshot());
      });
    this.#writing = next;
    return next;
  }
}
