// An append-only log of feed entries kept as numbered segment files in one folder. Only segments that changed are
// rewritten (atomically, through the one JSON file helper); the window of entries kept is the newest `limit`
// entries within `maxBytes` of payload, and a segment that fell out of the window is deleted. A corrupt segment is
// moved aside on load, never dropped silently.
import { readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import * as z from 'zod';
import { readJsonFile, writeJsonAtomic, writeJsonAtomicSync } from '../storage/json-file.js';
import { parseFileShape } from './file-shape.js';

/** One stored feed entry (internal form: raw event id, compact payload JSON). */
export interface StoredEntry {
  /** Feed position. */
  seq: number;
  /** Entry kind. */
  kind: 'event' | 'gap' | 'error' | 'activity';
  /** Server id. */
  serverId: string;
  /** When it happened (ms). */
  time: number;
  /** When it was received (ms). */
  receivedAt: number;
  /** Subscription id. */
  subscriptionId?: string;
  /** Event type name (label). */
  name?: string;
  /** The server's event id, verbatim (de-duplication compares it exactly). */
  eventId?: string;
  /** Raw timestamp (label). */
  timestamp?: string;
  /** Compact inert payload JSON. */
  data?: string;
  /** Payload bytes on the wire. */
  bytes?: number;
  /** Payload nesting was cut. */
  depthCut?: boolean;
  /** Plain-words message (gap, error, activity). */
  message?: string;
  /** Activity kind. */
  activity?: string;
  /** Resource URI (label). */
  uri?: string;
}

const EntrySchema = z
  .object({
    seq: z.number().int().positive(),
    kind: z.enum(['event', 'gap', 'error', 'activity']),
    serverId: z.string(),
    time: z.number(),
    receivedAt: z.number(),
    subscriptionId: z.string().optional(),
    name: z.string().optional(),
    eventId: z.string().optional(),
    timestamp: z.string().optional(),
    data: z.string().optional(),
    bytes: z.number().optional(),
    depthCut: z.boolean().optional(),
    message: z.string().optional(),
    activity: z.string().optional(),
    uri: z.string().optional(),
  })
  .strip();

const SegmentSchema = z.object({ version: z.literal(1), entries: z.array(EntrySchema) });

interface Segment {
  no: number;
  entries: StoredEntry[];
  /** Leading entries that fell out of the window (kept on disk until the whole segment goes). */
  skip: number;
  /** Payload bytes of the entries in the window. */
  bytes: number;
  dirty: boolean;
}

/** Budgets of one log. */
export interface SegmentLogOptions {
  /** Folder of the segment files. */
  dir: string;
  /** File name prefix (one log per prefix). */
  prefix: string;
  /** Entries kept. */
  limit: number;
  /** Payload bytes kept. */
  maxBytes: number;
  /** Entries per segment file. */
  segmentEntries?: number;
  /** Payload bytes per segment file. */
  segmentBytes?: number;
}

const weight = (e: StoredEntry): number => (e.data?.length ?? 0) + (e.message?.length ?? 0) + 200;

/** The newest entries of one kind, in segment files. */
export class SegmentLog {
  readonly #o: Required<SegmentLogOptions>;
  #segments: Segment[] = [];
  #count = 0;
  #bytes = 0;
  /** Segment numbers whose files must be deleted at the next flush. */
  #doomed: number[] = [];

  constructor(o: SegmentLogOptions) {
    this.#o = { segmentEntries: 500, segmentBytes: 1024 * 1024, ...o };
  }

  #file(no: number): string {
    return join(this.#o.dir, `${this.#o.prefix}-${String(no).padStart(8, '0')}.json`);
  }

  /** Loads the segment files (oldest first); returns notices for files moved aside. */
  load(): string[] {
    const notices: string[] = [];
    let names: string[];
    try {
      names = readdirSync(this.#o.dir);
    } catch {
      names = [];
    }
    const pattern = new RegExp(`^${this.#o.prefix}-(\\d{8})\\.json$`);
    const numbers = names
      .map((n) => pattern.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    let lastSeq = 0;
    for (const no of numbers) {
      const read = readJsonFile(this.#file(no), (raw) => parseFileShape(SegmentSchema, raw));
      if (read.kind === 'quarantined') {
        notices.push(`A feed file was unreadable (${read.reason}) and was moved aside to ${read.backup}`);
        continue;
      }
      if (read.kind !== 'ok') continue;
      // Entries must keep increasing across files; anything out of order is dropped rather than trusted.
      const entries = (read.value.entries as StoredEntry[]).filter((e) => {
        if (e.seq <= lastSeq) return false;
        lastSeq = e.seq;
        return true;
      });
      if (entries.length === 0) {
        this.#doomed.push(no);
        continue;
      }
      const bytes = entries.reduce((n, e) => n + weight(e), 0);
      this.#segments.push({ no, entries, skip: 0, bytes, dirty: false });
      this.#count += entries.length;
      this.#bytes += bytes;
    }
    this.#trim();
    return notices;
  }

  /** Newest seq stored (0 when empty). */
  get lastSeq(): number {
    const last = this.#segments.at(-1);
    return last?.entries.at(-1)?.seq ?? 0;
  }

  /** Entries in the window. */
  get count(): number {
    return this.#count;
  }

  /** Appends one entry (its seq must be larger than every stored one). */
  append(entry: StoredEntry): void {
    let seg = this.#segments.at(-1);
    if (!seg || seg.entries.length >= this.#o.segmentEntries || seg.bytes >= this.#o.segmentBytes) {
      seg = { no: (seg?.no ?? 0) + 1, entries: [], skip: 0, bytes: 0, dirty: true };
      this.#segments.push(seg);
    }
    const w = weight(entry);
    seg.entries.push(entry);
    seg.bytes += w;
    seg.dirty = true;
    this.#count += 1;
    this.#bytes += w;
    this.#trim();
  }

  /** Calls `visit` on the window's entries from newest to oldest until it returns false. */
  visitNewestFirst(visit: (e: StoredEntry) => boolean): void {
    for (let s = this.#segments.length - 1; s >= 0; s--) {
      const seg = this.#segments[s] as Segment;
      for (let i = seg.entries.length - 1; i >= seg.skip; i--) if (!visit(seg.entries[i] as StoredEntry)) return;
    }
  }

  /** Calls `visit` on the window's entries from oldest to newest. */
  visitOldestFirst(visit: (e: StoredEntry) => void): void {
    for (const seg of this.#segments) for (let i = seg.skip; i < seg.entries.length; i++) visit(seg.entries[i] as StoredEntry);
  }

  /** Drops the oldest entries beyond the count and byte budgets; segments left empty are deleted at the next flush. */
  #trim(): void {
    while ((this.#count > this.#o.limit || this.#bytes > this.#o.maxBytes) && this.#segments.length > 0) {
      const oldest = this.#segments[0] as Segment;
      if (this.#segments.length === 1 && oldest.entries.length - oldest.skip <= 1) break;
      const e = oldest.entries[oldest.skip] as StoredEntry;
      oldest.skip += 1;
      const w = weight(e);
      oldest.bytes -= w;
      this.#count -= 1;
      this.#bytes -= w;
      if (oldest.skip >= oldest.entries.length) {
        this.#segments.shift();
        this.#doomed.push(oldest.no);
      }
    }
  }

  /** True when something is not on disk yet. */
  get dirty(): boolean {
    return this.#doomed.length > 0 || this.#segments.some((s) => s.dirty);
  }

  /** Writes every changed segment and deletes doomed ones. The snapshot is taken synchronously, at the call. */
  flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    for (const seg of this.#segments) {
      if (!seg.dirty) continue;
      seg.dirty = false;
      writes.push(
        writeJsonAtomic(this.#file(seg.no), { version: 1, entries: seg.entries }).catch((err: unknown) => {
          seg.dirty = true;
          throw err;
        }),
      );
    }
    for (const no of this.#doomed.splice(0)) writes.push(rm(this.#file(no), { force: true }));
    return Promise.all(writes).then(() => undefined);
  }

  /** The synchronous flush, for the last write at shutdown. */
  flushSync(): void {
    for (const seg of this.#segments) {
      if (!seg.dirty) continue;
      writeJsonAtomicSync(this.#file(seg.no), { version: 1, entries: seg.entries });
      seg.dirty = false;
    }
    for (const no of this.#doomed.splice(0)) rmSync(this.#file(no), { force: true });
  }
}
