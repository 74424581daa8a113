// The feed: one timeline of event occurrences (with gap markers and delivery errors) and of the host's own
// activity, kept on disk in two segment logs (occurrences: the latest 10,000 within a byte budget; activity: the
// latest 2,000), surviving restarts. Occurrences are de-duplicated by (server, subscription, eventId). Appends are
// synchronous and in memory; `flush()` writes them (one flush at a time) and reports the newest position on disk,
// which is what lets a subscription's cursor be persisted only after its events are stored.
import type { FeedEntry, FeedFilter, FeedPage, HostActivity } from '../../../shared/domains/events.js';
import { feedMatcher } from '../../../shared/domains/events-filter.js';
import { displayPayload, label, type CheckedOccurrence } from './payload.js';
import { SegmentLog, type StoredEntry } from './segment-log.js';

/** Occurrences (with gaps and errors) kept. */
export const FEED_LIMIT = 10_000;
/** Host activity entries kept. */
export const ACTIVITY_LIMIT = 2_000;
/** Payload bytes of occurrences kept (on disk and in memory). */
export const FEED_MAX_BYTES = 32 * 1024 * 1024;
/** Event keys remembered for de-duplication (more than the window, so a replay just past it is still caught). */
export const DEDUP_KEYS = 20_000;
/** Display bytes of one feed page at most (a page of large payloads ends early, with a cursor). */
export const PAGE_BYTES = 4 * 1024 * 1024;

/** Budgets of a feed store. */
export interface FeedStoreOptions {
  /** Folder of the feed files. */
  dir: string;
  /** Occurrences kept. */
  limit?: number;
  /** Activity entries kept. */
  activityLimit?: number;
  /** Payload bytes kept. */
  maxBytes?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** What a non-occurrence entry carries. */
export interface NoteInput {
  /** Entry kind. */
  kind: 'gap' | 'error' | 'activity';
  /** Server id. */
  serverId: string;
  /** Plain-words message (already safe to show). */
  message: string;
  /** Subscription it concerns. */
  subscriptionId?: string;
  /** Event type name. */
  name?: string;
  /** Activity kind. */
  activity?: HostActivity;
  /** Resource URI (untrusted: labelled here). */
  uri?: string;
}

const key = (serverId: string, subscriptionId: string, eventId: string): string => `${serverId}\u0000${subscriptionId}\u0000${eventId}`;

/** The display form of a stored entry. */
export function toView(e: StoredEntry): FeedEntry {
  const view: FeedEntry = { seq: e.seq, kind: e.kind, serverId: e.serverId, time: e.time, receivedAt: e.receivedAt };
  if (e.subscriptionId !== undefined) view.subscriptionId = e.subscriptionId;
  if (e.name !== undefined) view.name = e.name;
  if (e.eventId !== undefined) view.eventId = label(e.eventId);
  if (e.timestamp !== undefined) view.timestamp = e.timestamp;
  if (e.data !== undefined) {
    const shown = displayPayload(e.data);
    view.data = shown.text;
    view.dataTruncated = shown.truncated || e.depthCut === true;
  }
  if (e.bytes !== undefined) view.dataBytes = e.bytes;
  if (e.message !== undefined) view.message = e.message;
  if (e.activity !== undefined) view.activity = e.activity as HostActivity;
  if (e.uri !== undefined) view.uri = e.uri;
  return view;
}

/** The feed of one Host. */
export class FeedStore {
  readonly #events: SegmentLog;
  readonly #activity: SegmentLog;
  readonly #now: () => number;
  readonly #seen = new Set<string>();
  readonly #seenOrder: string[] = [];
  #seenHead = 0;
  #seq = 0;
  #persistedSeq = 0;
  #flushing: Promise<number> = Promise.resolve(0);
  readonly #listeners = new Set<(entry: StoredEntry) => void>();

  constructor(o: FeedStoreOptions) {
    this.#now = o.now ?? Date.now;
    this.#events = new SegmentLog({ dir: o.dir, prefix: 'events', limit: o.limit ?? FEED_LIMIT, maxBytes: o.maxBytes ?? FEED_MAX_BYTES });
    this.#activity = new SegmentLog({ dir: o.dir, prefix: 'activity', limit: o.activityLimit ?? ACTIVITY_LIMIT, maxBytes: FEED_MAX_BYTES });
  }

  /** Loads what is on disk; returns notices for files moved aside. */
  load(): string[] {
    const notices = [...this.#events.load(), ...this.#activity.load()];
    this.#seq = Math.max(this.#events.lastSeq, this.#activity.lastSeq);
    this.#persistedSeq = this.#seq;
    this.#events.visitOldestFirst((e) => {
      if (e.kind === 'event' && e.subscriptionId !== undefined && e.eventId !== undefined)
        this.#remember(key(e.serverId, e.subscriptionId, e.eventId));
    });
    return notices;
  }

  /** Newest feed position. */
  get lastSeq(): number {
    return this.#seq;
  }

  /** Newest feed position known to be on disk. */
  get persistedSeq(): number {
    return this.#persistedSeq;
  }

  /** Entries appended but not yet on disk. */
  get backlog(): number {
    return this.#seq - this.#persistedSeq;
  }

  /** Occurrences (with gaps and errors) in the window. */
  get count(): number {
    return this.#events.count;
  }

  /** Receives every appended entry (the live push to the renderer). */
  onAppend(listener: (entry: StoredEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** True when this occurrence was stored already. */
  seen(serverId: string, subscriptionId: string, eventId: string): boolean {
    return this.#seen.has(key(serverId, subscriptionId, eventId));
  }

  /** Marks an occurrence handled without storing it (one that was refused); false when it was handled before. */
  claim(serverId: string, subscriptionId: string, eventId: string): boolean {
    const k = key(serverId, subscriptionId, eventId);
    if (this.#seen.has(k)) return false;
    this.#remember(k);
    return true;
  }

  /** Stores an occurrence unless it is a duplicate; returns the entry, or undefined for a duplicate. */
  appendEvent(serverId: string, subscriptionId: string, occ: CheckedOccurrence): StoredEntry | undefined {
    const k = key(serverId, subscriptionId, occ.eventId);
    if (this.#seen.has(k)) return undefined;
    this.#remember(k);
    const entry: StoredEntry = {
      seq: ++this.#seq,
      kind: 'event',
      serverId,
      time: occ.time,
      receivedAt: this.#now(),
      subscriptionId,
      name: occ.name,
      eventId: occ.eventId,
      ...(occ.timestamp !== undefined ? { timestamp: occ.timestamp } : {}),
      data: occ.payload.json,
      bytes: occ.payload.bytes,
      ...(occ.payload.depthCut ? { depthCut: true } : {}),
    };
    this.#events.append(entry);
    this.#announce(entry);
    return entry;
  }

  /** Stores a gap marker, an error entry or a host activity entry. */
  appendNote(note: NoteInput): StoredEntry {
    const now = this.#now();
    const entry: StoredEntry = {
      seq: ++this.#seq,
      kind: note.kind,
      serverId: note.serverId,
      time: now,
      receivedAt: now,
      message: note.message,
      ...(note.subscriptionId !== undefined ? { subscriptionId: note.subscriptionId } : {}),
      ...(note.name !== undefined ? { name: note.name } : {}),
      ...(note.activity !== undefined ? { activity: note.activity } : {}),
      ...(note.uri !== undefined ? { uri: label(note.uri, 2048) } : {}),
    };
    (note.kind === 'activity' ? this.#activity : this.#events).append(entry);
    this.#announce(entry);
    return entry;
  }

  /** One page, newest first, of the entries older than `cursor` that match `filter`. */
  page(filter: FeedFilter, cursor: string | undefined, limit: number): FeedPage {
    const before = cursor === undefined ? Number.POSITIVE_INFINITY : Number(cursor);
    const match = feedMatcher(filter);
    const wantEvents = filter.kinds === undefined || filter.kinds.some((k) => k !== 'activity');
    const wantActivity = filter.kinds === undefined || filter.kinds.includes('activity');
    // Two newest-first streams merged by seq.
    const a = wantEvents ? this.#collect(this.#events, before, match, limit + 1) : [];
    const b = wantActivity ? this.#collect(this.#activity, before, match, limit + 1) : [];
    const merged: StoredEntry[] = [];
    let i = 0;
    let j = 0;
    while (merged.length < limit + 1 && (i < a.length || j < b.length)) {
      const x = a[i];
      const y = b[j];
      if (y === undefined || (x !== undefined && x.seq > y.seq)) {
        merged.push(x as StoredEntry);
        i++;
      } else {
        merged.push(y);
        j++;
      }
    }
    const entries: FeedEntry[] = [];
    let bytes = 0;
    for (const e of merged.slice(0, limit)) {
      const view = toView(e);
      bytes += (view.data?.length ?? 0) + 300;
      if (entries.length > 0 && bytes > PAGE_BYTES) break;
      entries.push(view);
    }
    const more = merged.length > entries.length;
    const last = entries.at(-1);
    const page: FeedPage = more && last ? { entries, nextCursor: String(last.seq) } : { entries };
    if (cursor === undefined) {
      page.total =
        (wantEvents ? this.#countMatching(this.#events, match) : 0) + (wantActivity ? this.#countMatching(this.#activity, match) : 0);
    }
    return page;
  }

  /** Entries of one log that match (the logs are bounded by count, so this is a bounded walk). */
  #countMatching(log: SegmentLog, match: (e: StoredEntry) => boolean): number {
    let n = 0;
    log.visitNewestFirst((e) => {
      if (match(e)) n++;
      return true;
    });
    return n;
  }

  #collect(log: SegmentLog, before: number, match: (e: StoredEntry) => boolean, max: number): StoredEntry[] {
    const out: StoredEntry[] = [];
    log.visitNewestFirst((e) => {
      if (e.seq < before && match(e)) out.push(e);
      return out.length < max;
    });
    return out;
  }

  /** Writes what is not on disk yet (flushes run one at a time); resolves with the newest position now on disk. */
  flush(): Promise<number> {
    const next = this.#flushing
      .catch(() => this.#persistedSeq)
      .then(async () => {
        const upTo = this.#seq;
        await Promise.all([this.#events.flush(), this.#activity.flush()]);
        this.#persistedSeq = Math.max(this.#persistedSeq, upTo);
        return this.#persistedSeq;
      });
    this.#flushing = next;
    return next;
  }

  /** The synchronous last write at shutdown (after pending flushes). */
  flushSync(): void {
    this.#events.flushSync();
    this.#activity.flushSync();
    this.#persistedSeq = this.#seq;
  }

  #remember(k: string): void {
    this.#seen.add(k);
    this.#seenOrder.push(k);
    if (this.#seenOrder.length - this.#seenHead > DEDUP_KEYS) {
      const old = this.#seenOrder[this.#seenHead] as string;
      this.#seenHead++;
      this.#seen.delete(old);
      if (this.#seenHead > DEDUP_KEYS) {
        this.#seenOrder.splice(0, this.#seenHead);
        this.#seenHead = 0;
      }
    }
  }

  #announce(entry: StoredEntry): void {
    for (const l of [...this.#listeners]) {
      try {
        l(entry);
      } catch {
        // a listener's failure must not lose the entry
      }
    }
  }
}
