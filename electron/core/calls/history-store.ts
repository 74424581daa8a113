// Call history: every call recorded (server, tool, arguments, presentation, duration, outcome), persisted as one
// JSON file in the data folder through the core's atomic JSON writer (temp file, fsync, rename, mode 0600), bounded
// to the latest entries. Writes never block a call: changes are coalesced and written a moment later, off the call's
// path, and each entry is serialised once when it is recorded, so a write joins ready-made text instead of
// re-serialising the whole history on the main thread. A corrupt file, or entries that cannot be read, are kept aside
// with a notice, never dropped. Saved calls are kept when the history is trimmed or cleared (unless asked). Calls an
// MCP App made have a quota of their own within the limit and are trimmed first, so an app's traffic never pushes
// out a call the person (or a gateway client) made.
//
// Every entry fits a budget when it is recorded and again when it is loaded (a file written by an older version may
// hold anything): arguments nested deeper than ARGUMENTS_MAX_DEPTH are cut with a marker (so a bridge can always send
// the history), arguments over HISTORY_ARGUMENTS_BYTES are kept only as their size and SHA-256, a presentation that
// still leaves the entry over HISTORY_ENTRY_BYTES loses its media data and structured text the same way, and the
// oldest unsaved entries go once the whole history passes HISTORY_TOTAL_BYTES. So the host's memory and the file
// stay bounded whatever callers send.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppNotice } from '../../../shared/contract.js';
import type { HistoryCutPart, HistoryEntry } from '../../../shared/domains/calls.js';
import { AppError, ERROR_CODE_LIST } from '../../../shared/errors.js';
import { formatSize } from '../../../shared/format-size.js';
import { ARGUMENTS_MAX_DEPTH } from '../ingress/arguments.js';
import { boundDepth } from '../ingress/depth.js';
import { depthMarker } from '../ingress/limits.js';
import { copyAside, JsonFileWriter, JsonText, readJsonFile } from '../storage/json-file.js';
import { readArrayMember } from '../storage/json-members.js';

/** Entries kept (saved ones count too, and are trimmed last). */
export const HISTORY_LIMIT = 1000;
/** Entries of calls made by MCP Apps kept at most (within HISTORY_LIMIT). */
export const APP_HISTORY_LIMIT = 200;
/** Arguments kept whole in one entry at most (JSON text, bytes); larger ones are kept as their size and SHA-256. */
export const HISTORY_ARGUMENTS_BYTES = 64 * 1024;
/** One entry's JSON text at most (bytes): past it, the presentation's media data and structured text are left out. */
export const HISTORY_ENTRY_BYTES = 256 * 1024;
/** The whole history's JSON text at most (bytes): past it, the oldest unsaved entries go. */
export const HISTORY_TOTAL_BYTES = 32 * 1024 * 1024;

const PresentationSchema = z
  .object({
    isError: z.boolean(),
    text: z.string(),
    truncated: z.boolean(),
    media: z.array(
      z.object({
        kind: z.enum(['image', 'audio']),
        mimeType: z.string(),
        data: z.string(),
        bytes: z.number(),
        width: z.number().optional(),
        height: z.number().optional(),
      }),
    ),
    notices: z.array(z.string()),
    links: z.array(z.object({ uri: z.string(), name: z.string().optional(), mimeType: z.string().optional() })),
    resources: z.array(z.object({ uri: z.string(), mimeType: z.string().optional(), text: z.string().optional() })),
    structured: z.string().optional(),
    structuredTruncated: z.boolean().optional(),
  })
  .loose();

const EntrySchema = z
  .object({
    callId: z.string(),
    serverId: z.string(),
    tool: z.string(),
    originalName: z.string(),
    arguments: z.record(z.string(), z.unknown()),
    startedAt: z.number(),
    durationMs: z.number(),
    status: z.enum(['ok', 'error', 'cancelled', 'timeout']),
    presentation: PresentationSchema,
    savedAs: z.string().optional(),
    // A code this version does not know (a file written by another version) reads as internal; its words are kept.
    error: z.object({ code: z.enum(ERROR_CODE_LIST).catch('internal'), message: z.string() }).optional(),
  })
  .loose();

const FileSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });

/**
 * How long changes are gathered before the history file is written: a moment, so a kill -9 loses at most the last
 * fraction of a second of a usual history (the next start says the last moments may be missing).
 */
export const HISTORY_WRITE_DELAY_MS = 200;
/**
 * The file is rewritten at most at this rate: each write is the whole file, so a history of large results (up to
 * HISTORY_TOTAL_BYTES, tens of megabytes) is written every few seconds instead of every moment, and its rewrites never
 * take a large share of the core's thread and the disk; a usual history of small entries stays at the moment above.
 */
export const HISTORY_WRITE_BYTES_PER_SECOND = 8 * 1024 * 1024;

/** Options of a history store. */
export interface HistoryStoreOptions {
  /** Entries kept (default HISTORY_LIMIT). */
  limit?: number;
  /** Entries of app-made calls kept at most (default APP_HISTORY_LIMIT, never more than `limit`). */
  appLimit?: number;
  /** Where load and write problems are reported. */
  onNotice?: (notice: AppNotice) => void;
  /** Delay before a change is written; changes in between share one write. */
  delayMs?: number;
  /** The whole history's budget in bytes (default HISTORY_TOTAL_BYTES). */
  totalBytes?: number;
}

/** Persistent, bounded call history. Newest entries first. */
export class HistoryStore {
  readonly #file: string | undefined;
  readonly #limit: number;
  readonly #appLimit: number;
  readonly #totalBytes: number;
  readonly #onNotice: (notice: AppNotice) => void;
  readonly #writer: JsonFileWriter | undefined;
  readonly #delayMs: number;
  /** Set while changes wait for their write (the delay grows with the size of the file). */
  #persistTimer: ReturnType<typeof setTimeout> | undefined;
  /** Each entry's JSON text, made once when it is recorded (dropped when the entry changes). */
  readonly #text = new WeakMap<HistoryEntry, string>();
  #entries: HistoryEntry[] | undefined;
  /** Unsaved app-made entries, and the JSON text length of all entries (one separator each), kept as entries come and go. */
  #apps = 0;
  #bytes = 0;
  #loadNotice: string | undefined;
  #memoryOnly = false;

  /** `file` undefined keeps the history in memory only. */
  constructor(file: string | undefined, opts: HistoryStoreOptions = {}) {
    this.#file = file;
    this.#limit = opts.limit ?? HISTORY_LIMIT;
    this.#appLimit = Math.min(opts.appLimit ?? APP_HISTORY_LIMIT, this.#limit);
    this.#totalBytes = opts.totalBytes ?? HISTORY_TOTAL_BYTES;
    this.#onNotice = opts.onNotice ?? (() => undefined);
    this.#delayMs = opts.delayMs ?? HISTORY_WRITE_DELAY_MS;
    this.#writer =
      file === undefined
        ? undefined
        : new JsonFileWriter(file, {
            // The store times its writes itself (#persist); the writer starts each one at once.
            delayMs: 0,
            onError: (err) =>
              this.#onNotice({
                id: 'history-write-failed',
                level: 'error',
                message: `The call history could not be saved: ${err instanceof Error ? err.message : String(err)}`,
              }),
          });
  }

  /** A problem found while loading (a corrupt file is moved aside, never dropped). */
  get loadNotice(): string | undefined {
    this.#all();
    return this.#loadNotice;
  }

  /** Adds a call (newest first) and persists. */
  add(recorded: HistoryEntry): void {
    const all = this.#all();
    const entry = this.#fit(recorded);
    all.unshift(entry);
    this.#count(entry);
    this.#trim(all);
    this.#persist();
  }

  /** One entry by call id. */
  get(callId: string): HistoryEntry | undefined {
    return this.#all().find((e) => e.callId === callId);
  }

  /** Searches tool, server, saved name, arguments and visible text; newest first. */
  search(q: { query?: string; offset?: number; limit?: number; savedOnly?: boolean }): { entries: HistoryEntry[]; total: number } {
    const needle = q.query?.trim().toLowerCase() ?? '';
    const matches = this.#all().filter((e) => {
      if (q.savedOnly && e.savedAs === undefined) return false;
      if (!needle) return true;
      return [
        e.tool,
        e.originalName,
        e.serverId,
        e.savedAs ?? '',
        e.origin?.kind === 'gateway' ? e.origin.clientName : '',
        e.status,
        e.origin?.kind === 'app' ? 'from app' : e.origin?.kind === 'gateway' ? `from ${e.origin.clientName}` : '',
        JSON.stringify(e.arguments),
        e.presentation.text.slice(0, 4096),
      ].some((s) => s.toLowerCase().includes(needle));
    });
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 100;
    return { entries: matches.slice(offset, offset + limit), total: matches.length };
  }

  /** Names a call. */
  save(callId: string, name: string): HistoryEntry {
    const entry = this.get(callId);
    if (!entry) throw new AppError('not_found', `No call ${callId} in the history`);
    this.#uncount(entry);
    entry.savedAs = name;
    this.#text.delete(entry);
    this.#count(entry);
    this.#persist();
    return entry;
  }

  /** Clears unsaved entries, or everything. */
  clear(includeSaved: boolean): void {
    this.#entries = includeSaved ? [] : this.#all().filter((e) => e.savedAs !== undefined);
    this.#recount(this.#entries);
    this.#persist();
  }

  /** The whole history as JSON text. */
  export(): { fileName: string; text: string } {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return { fileName: `switchboard-call-history-${stamp}.json`, text: JSON.stringify({ version: 1, entries: this.#all() }, null, 2) };
  }

  /** Writes pending changes now; resolves once they are on disk (rejects with storage_failed when they could not be). */
  async flush(): Promise<void> {
    try {
      this.#handOver();
      await this.#writer?.flush();
    } catch (err) {
      throw new AppError('storage_failed', `The call history could not be saved: ${(err as Error).message}`, { cause: err });
    }
  }

  /**
   * Keeps the unsaved app-made entries within their quota and everything within the limit: the oldest unsaved
   * app-made entry goes first, then the oldest unsaved entry of any kind, then the oldest saved one. The byte
   * budget trims the same way (the newest entry always stays: it fits the per-entry budget, far below the total).
   */
  #trim(all: HistoryEntry[]): void {
    // The counters follow `all` (it is always #entries), so an add costs the entries it drops, not the whole history.
    while (all.length > this.#limit || this.#apps > this.#appLimit || (this.#bytes > this.#totalBytes && all.length > 1)) {
      let idx = this.#apps > 0 ? oldestIndex(all, unsavedApp) : -1;
      if (idx < 0) idx = oldestIndex(all, (e) => e.savedAs === undefined);
      const [gone] = all.splice(idx >= 0 ? idx : all.length - 1, 1);
      if (gone) this.#uncount(gone);
    }
  }

  #count(entry: HistoryEntry): void {
    if (unsavedApp(entry)) this.#apps += 1;
    this.#bytes += this.#serialise(entry).length + 1;
  }

  #uncount(entry: HistoryEntry): void {
    if (unsavedApp(entry)) this.#apps -= 1;
    this.#bytes -= this.#serialise(entry).length + 1;
  }

  #recount(all: HistoryEntry[]): void {
    this.#apps = 0;
    this.#bytes = 0;
    for (const e of all) this.#count(e);
  }

  /** The entry within the per-entry budget (the input itself when it already fits). Never throws. */
  #fit(entry: HistoryEntry): HistoryEntry {
    let fitted = entry;
    const notices: string[] = [];
    const bounded = boundDepth(entry.arguments, ARGUMENTS_MAX_DEPTH, depthMarker(ARGUMENTS_MAX_DEPTH));
    if (bounded.cut) {
      fitted = { ...fitted, arguments: bounded.value };
      notices.push(`The arguments are nested deeper than ${ARGUMENTS_MAX_DEPTH} levels; the history keeps them cut there.`);
    }
    if (fitted === entry) {
      // The usual call: the whole entry is well within both budgets, so its text (needed anyway) is all that is made.
      const text = jsonText(entry);
      if (text !== undefined) {
        // Its arguments are part of its text, so a text within the arguments' budget is within both.
        const bytes = text.length * 3 <= HISTORY_ARGUMENTS_BYTES ? 0 : Buffer.byteLength(text, 'utf8');
        // A larger one (a large result) is kept as it is when its arguments and the whole are within their budgets:
        // its text is made once, not again for each check and once more to store it.
        const within =
          bytes <= HISTORY_ARGUMENTS_BYTES ||
          (bytes <= HISTORY_ENTRY_BYTES && (jsonBytes(entry.arguments) ?? 0) <= HISTORY_ARGUMENTS_BYTES);
        if (within) {
          this.#text.set(entry, text);
          return entry;
        }
      }
    }
    const argBytes = jsonBytes(fitted.arguments);
    const args = argBytes !== undefined && argBytes > HISTORY_ARGUMENTS_BYTES ? digestOf(fitted.arguments) : undefined;
    if (args) {
      fitted = { ...fitted, arguments: {}, cut: { ...fitted.cut, arguments: args } };
      notices.push(
        `The arguments (${formatSize(args.bytes)}, SHA-256 ${args.sha256}) were not kept: over the history's ${formatSize(HISTORY_ARGUMENTS_BYTES)} per call.`,
      );
    }
    const whole = jsonBytes(fitted);
    if (whole === undefined || whole > HISTORY_ENTRY_BYTES) {
      const shown = digestOf(fitted.presentation);
      const p = fitted.presentation;
      const { structured: _structured, ...rest } = p;
      fitted = {
        ...fitted,
        presentation: { ...rest, text: p.text.slice(0, 16 * 1024), media: p.media.map((m) => ({ ...m, data: '' })) },
        ...(shown ? { cut: { ...fitted.cut, presentation: shown } } : {}),
      };
      notices.push('The result was too large for the history: its images, audio and structured content were not kept.');
    }
    if (notices.length === 0) return entry;
    return { ...fitted, presentation: { ...fitted.presentation, notices: [...fitted.presentation.notices, ...notices] } };
  }

  #all(): HistoryEntry[] {
    if (this.#entries) return this.#entries;
    this.#entries = [];
    if (!this.#file) return this.#entries;
    let unreadable = 0;
    let read: ReturnType<typeof readJsonFile<HistoryEntry[]>>;
    try {
      read = this.#read(() => (unreadable += 1));
    } catch (err) {
      // Unreadable for another reason (permissions, not a folder): never overwrite what we could not read.
      this.#memoryOnly = true;
      this.#report(`The call history file could not be read (${(err as Error).message}); this session's calls are kept in memory only.`);
      return this.#entries;
    }
    if (read.kind === 'quarantined') {
      this.#report(`The call history file could not be read (${read.reason}); it was moved aside to ${read.backup}.`);
    } else if (read.kind === 'ok') {
      // Fitted as it loads: a file from an older version may hold entries no bridge can send (issue 22, item 3).
      this.#entries = read.value.map((e) => this.#fit(e));
      this.#recount(this.#entries);
      this.#trim(this.#entries);
      if (unreadable > 0) {
        // The next write leaves these entries out: keep the file as it was first.
        const backup = copyAside(this.#file);
        this.#report(`${unreadable} call history entries could not be read and were left out; the file as it was is kept as ${backup}.`);
      }
    }
    return this.#entries;
  }

  #read(onUnreadable: () => void): ReturnType<typeof readJsonFile<HistoryEntry[]>> {
    // Item by item first, keeping only what trimming could keep (a 10,000-entry file costs what a 1,000-entry one
    // does); a file that reader does not recognise is read whole, which reports what is wrong with it.
    const lean = this.#readLean(onUnreadable);
    if (lean) return { kind: 'ok', value: lean };
    return readJsonFile(this.#file!, (raw) => {
      const parsed = FileSchema.safeParse(raw);
      if (!parsed.success) throw new Error('the file is not a call history');
      const entries: HistoryEntry[] = [];
      for (const item of parsed.data.entries) {
        const e = EntrySchema.safeParse(item);
        if (e.success) entries.push(e.data as HistoryEntry);
        else onUnreadable();
      }
      return entries;
    });
  }

  /**
   * The file's entries that trimming could keep, read one at a time, or undefined when the file is not a well-formed
   * history (missing included). Entries are newest first and trimming drops the oldest of a kind first, so past the
   * newest `limit` saved, `limit` unsaved and `appLimit` unsaved app-made entries nothing more can stay; #trim then
   * applies the exact policy to what is kept.
   */
  #readLean(onUnreadable: () => void): HistoryEntry[] | undefined {
    const entries: HistoryEntry[] = [];
    let saved = 0;
    let apps = 0;
    let others = 0;
    let unreadable = 0;
    let rest: Record<string, unknown> | undefined;
    try {
      rest = readArrayMember(this.#file!, 'entries', (item) => {
        const parsed = EntrySchema.safeParse(item);
        if (!parsed.success) {
          unreadable++;
          return;
        }
        const e = parsed.data as HistoryEntry;
        if (e.savedAs !== undefined) {
          if (saved++ < this.#limit) entries.push(e);
        } else if (e.origin?.kind === 'app') {
          if (apps++ < this.#appLimit) entries.push(e);
        } else if (others++ < this.#limit) entries.push(e);
      });
    } catch {
      return undefined;
    }
    if (rest === undefined || rest.version !== 1) return undefined;
    for (let i = 0; i < unreadable; i++) onUnreadable();
    return entries;
  }

  #report(message: string): void {
    this.#loadNotice = message;
    this.#onNotice({ id: 'history-corrupt', level: 'warning', message });
  }

  /** The entry's JSON text, made once. An entry that cannot be serialised (too deep) is stored without its arguments. */
  #serialise(entry: HistoryEntry): string {
    let text = this.#text.get(entry);
    if (text !== undefined) return text;
    try {
      text = JSON.stringify(entry);
    } catch {
      const { callId, serverId, tool, originalName, startedAt, durationMs, status } = entry;
      const note = 'This call could not be stored in full (its data is nested too deeply).';
      text = JSON.stringify({
        callId,
        serverId,
        tool,
        originalName,
        startedAt,
        durationMs,
        status,
        arguments: {},
        presentation: { isError: status !== 'ok', text: note, truncated: true, media: [], notices: [note], links: [], resources: [] },
      });
    }
    this.#text.set(entry, text);
    return text;
  }

  #persist(): void {
    if (this.#memoryOnly || !this.#writer || this.#persistTimer) return;
    const delay = Math.max(this.#delayMs, (this.#bytes / HISTORY_WRITE_BYTES_PER_SECOND) * 1000);
    this.#persistTimer = setTimeout(() => this.#handOver(), delay);
    this.#persistTimer.unref?.();
  }

  /** Hands the waiting changes to the writer (a snapshot made when its write starts). */
  #handOver(): void {
    if (!this.#persistTimer) return;
    clearTimeout(this.#persistTimer);
    this.#persistTimer = undefined;
    if (this.#memoryOnly) return;
    this.#writer?.schedule(() => {
      const parts = ['{"version":1,"entries":['];
      this.#all().forEach((e, i) => (i === 0 ? parts.push(this.#serialise(e)) : parts.push(',', this.#serialise(e))));
      parts.push(']}');
      return new JsonText(parts);
    });
  }
}

/** A value's JSON text, or undefined when it cannot be serialised. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return undefined;
  }
}

/** Size of a value's JSON text in bytes, or undefined when it cannot be serialised. */
function jsonBytes(value: unknown): number | undefined {
  const text = jsonText(value);
  return text === undefined ? undefined : Buffer.byteLength(text, 'utf8');
}

/** An unsaved entry of a call an MCP App made (these have a quota of their own). */
function unsavedApp(e: HistoryEntry): boolean {
  return e.savedAs === undefined && e.origin?.kind === 'app';
}

/** Size and SHA-256 of a value's JSON text, or undefined when it cannot be serialised. */
function digestOf(value: unknown): HistoryCutPart | undefined {
  let text: string;
  try {
    text = JSON.stringify(value) ?? '';
  } catch {
    return undefined;
  }
  return { bytes: Buffer.byteLength(text, 'utf8'), sha256: createHash('sha256').update(text).digest('hex') };
}

/** Index of the oldest entry (entries are newest first) that matches, or -1. */
function oldestIndex(all: HistoryEntry[], match: (e: HistoryEntry) => boolean): number {
  for (let i = all.length - 1; i >= 0; i--) if (match(all[i]!)) return i;
  return -1;
}
