// Call history: every call recorded (server, tool, arguments, presentation, duration, outcome), persisted as one
// JSON file in the data folder with atomic writes (temp file + rename, mode 0600), bounded to the latest entries.
// Saved calls are kept when the history is trimmed or cleared (unless asked).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { HistoryEntry } from '../../../shared/domains/calls.js';
import { AppError } from '../../../shared/errors.js';

/** Entries kept (saved ones count too, and are trimmed last). */
export const HISTORY_LIMIT = 1000;

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
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  })
  .loose();

const FileSchema = z.object({ version: z.literal(1), entries: z.array(z.unknown()) });

/** Persistent, bounded call history. Newest entries first. */
export class HistoryStore {
  readonly #file: string | undefined;
  readonly #limit: number;
  #entries: HistoryEntry[] | undefined;
  #loadNotice: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** Delay before a change is written (changes in between share one write). */
  static writeDelayMs = 200;

  /** `file` undefined keeps the history in memory only. */
  constructor(file: string | undefined, limit = HISTORY_LIMIT) {
    this.#file = file;
    this.#limit = limit;
  }

  /** A problem found while loading (a corrupt file is moved aside, never dropped). */
  get loadNotice(): string | undefined {
    this.#all();
    return this.#loadNotice;
  }

  /** Adds a call (newest first) and persists. */
  add(entry: HistoryEntry): void {
    const all = this.#all();
    all.unshift(entry);
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
    entry.savedAs = name;
    this.#persist();
    return entry;
  }

  /** Clears unsaved entries, or everything. */
  clear(includeSaved: boolean): void {
    this.#entries = includeSaved ? [] : this.#all().filter((e) => e.savedAs !== undefined);
    this.#persist();
  }

  /** The whole history as JSON text. */
  export(): { fileName: string; text: string } {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    return { fileName: `switchboard-call-history-${stamp}.json`, text: JSON.stringify({ version: 1, entries: this.#all() }, null, 2) };
  }

  #trim(all: HistoryEntry[]): void {
    while (all.length > this.#limit) {
      let idx = -1;
      for (let i = all.length - 1; i >= 0; i--) {
        if (all[i]!.savedAs === undefined) {
          idx = i;
          break;
        }
      }
      all.splice(idx >= 0 ? idx : all.length - 1, 1);
    }
  }

  #all(): HistoryEntry[] {
    if (this.#entries) return this.#entries;
    this.#entries = [];
    if (!this.#file) return this.#entries;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch {
      return this.#entries;
    }
    try {
      const parsed = FileSchema.parse(JSON.parse(text));
      for (const raw of parsed.entries) {
        const e = EntrySchema.safeParse(raw);
        if (e.success) this.#entries.push(e.data as HistoryEntry);
      }
      this.#trim(this.#entries);
    } catch {
      const aside = `${this.#file}.corrupt-${Date.now()}`;
      try {
        renameSync(this.#file, aside);
        this.#loadNotice = `The call history file was unreadable and was moved aside to ${aside}.`;
      } catch {
        this.#loadNotice = 'The call history file was unreadable.';
      }
    }
    return this.#entries;
  }

  /** Writes pending changes now. */
  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#write();
  }

  #persist(): void {
    if (!this.#file || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      try {
        this.#write();
      } catch {
        // reported on the next explicit flush
      }
    }, HistoryStore.writeDelayMs);
    this.#timer.unref();
  }

  #write(): void {
    if (!this.#file || this.#entries === undefined) return;
    const tmp = `${this.#file}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(this.#file), { recursive: true });
      writeFileSync(tmp, JSON.stringify({ version: 1, entries: this.#entries ?? [] }), { mode: 0o600 });
      renameSync(tmp, this.#file);
    } catch (err) {
      throw new AppError('storage_failed', `The call history could not be saved: ${(err as Error).message}`, { cause: err });
    }
  }
}
