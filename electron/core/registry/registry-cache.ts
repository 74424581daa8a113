// The bounded on-disk cache of registry answers, so an offline or refused registry still shows its last listing and
// a cached entry can still be prepared. Validated entries only; re-validated when read back; oldest evicted first.
import { join } from 'node:path';
import { isObject } from '../json.js';
import { JsonFileWriter, readJsonFile } from '../storage/json-file.js';
import { parseRecord, type RegistryRecord } from './server-json.js';

/** Pages kept at most. */
export const CACHE_MAX_PAGES = 30;
/** Single entries (detail answers) kept at most. */
export const CACHE_MAX_DETAILS = 100;
/** Serialized size the cache is kept under. */
export const CACHE_MAX_BYTES = 4 * 1024 * 1024;
/** File name in the data folder. */
export const CACHE_FILE = 'registry-cache.json';

interface CachedPage {
  source: string;
  query: string;
  cursor?: string;
  at: number;
  records: RegistryRecord[];
  nextCursor?: string;
}

interface CachedDetail {
  source: string;
  at: number;
  record: RegistryRecord;
}

/** Entry statuses remembered at most (deleted entries included, after they left the listings). */
export const CACHE_MAX_STATUSES = 2000;

interface SyncState {
  since: string;
  at?: number;
}

/** The status a sync last saw for an entry's latest version. */
export interface StatusNote {
  /** Source registry URL. */
  source: string;
  /** Entry name. */
  name: string;
  /** Its status. */
  status: 'active' | 'deprecated' | 'deleted';
  /** The registry's reason, when given. */
  statusMessage?: string;
  /** When it changed (ISO), when said. */
  statusChangedAt?: string;
}

/** A page served from the cache. */
export interface CacheHit {
  /** The entries. */
  records: RegistryRecord[];
  /** Its next cursor, when the page had one. */
  nextCursor?: string;
  /** When it was stored (ms since epoch). */
  at: number;
}

/** The cache, loaded once and written in the background. */
export class RegistryCache {
  readonly #writer: JsonFileWriter;
  #pages: CachedPage[] = [];
  #details: CachedDetail[] = [];
  /** Per source, where the next incremental sync starts (ISO, the registry's clock) and when the last one ran. */
  #synced: Record<string, SyncState> = {};
  #statuses: StatusNote[] = [];
  readonly #now: () => number;

  constructor(dir: string, opts: { now?: () => number } = {}) {
    const file = join(dir, CACHE_FILE);
    this.#now = opts.now ?? Date.now;
    this.#writer = new JsonFileWriter(file, { delayMs: 200 });
    const read = readJsonFile(file, parseCache);
    if (read.kind === 'ok') {
      this.#pages = read.value.pages;
      this.#details = read.value.details;
      this.#synced = read.value.synced;
      this.#statuses = read.value.statuses;
    }
  }

  /** Stores a fetched page (replacing the same page stored before). */
  putPage(source: string, query: string, cursor: string | undefined, records: RegistryRecord[], nextCursor?: string): void {
    const page: CachedPage = {
      source,
      query,
      at: this.#now(),
      records,
      ...(cursor !== undefined ? { cursor } : {}),
      ...(nextCursor !== undefined ? { nextCursor } : {}),
    };
    this.#pages = [page, ...this.#pages.filter((p) => !samePage(p, source, query, cursor))].slice(0, CACHE_MAX_PAGES);
    this.#persist();
  }

  /** The same page as stored, or, for a first page, the cached entries of the source whose text matches the query. */
  page(source: string, query: string, cursor: string | undefined): CacheHit | undefined {
    const exact = this.#pages.find((p) => samePage(p, source, query, cursor));
    if (exact !== undefined)
      return { records: exact.records, at: exact.at, ...(exact.nextCursor !== undefined ? { nextCursor: exact.nextCursor } : {}) };
    if (cursor !== undefined) return undefined;
    const needle = query.trim().toLowerCase();
    const byName = new Map<string, { record: RegistryRecord; at: number }>();
    const offer = (record: RegistryRecord, at: number) => {
      const s = record.server;
      const hay = `${s.name}\n${s.title ?? ''}\n${s.description ?? ''}`.toLowerCase();
      if (needle !== '' && !hay.includes(needle)) return;
      const known = byName.get(s.name);
      if (known === undefined || known.at < at) byName.set(s.name, { record, at });
    };
    for (const p of this.#pages) if (p.source === source) for (const r of p.records) offer(r, p.at);
    for (const d of this.#details) if (d.source === source) offer(d.record, d.at);
    if (byName.size === 0) return undefined;
    const at = Math.max(...[...byName.values()].map((v) => v.at));
    const records = [...byName.values()].map((v) => v.record).sort((a, b) => a.server.name.localeCompare(b.server.name));
    return { records, at };
  }

  /** Stores one entry version. */
  putDetail(source: string, record: RegistryRecord): void {
    const { name, version } = record.server;
    this.#details = [
      { source, at: this.#now(), record },
      ...this.#details.filter((d) => !(d.source === source && d.record.server.name === name && d.record.server.version === version)),
    ].slice(0, CACHE_MAX_DETAILS);
    this.#persist();
  }

  /** A cached version of an entry (the given version, else the newest cached latest). */
  detail(source: string, name: string, version?: string): RegistryRecord | undefined {
    const candidates: { record: RegistryRecord; at: number }[] = [];
    for (const d of this.#details) if (d.source === source && d.record.server.name === name) candidates.push(d);
    for (const p of this.#pages)
      if (p.source === source) for (const r of p.records) if (r.server.name === name) candidates.push({ record: r, at: p.at });
    const wanted =
      version !== undefined && version !== 'latest' ? candidates.filter((c) => c.record.server.version === version) : candidates;
    wanted.sort((a, b) => b.at - a.at);
    return wanted[0]?.record;
  }

  /** Sources that have cached listings or entries. */
  sources(): string[] {
    return [...new Set([...this.#pages.map((p) => p.source), ...this.#details.map((d) => d.source)])];
  }

  /** Where the next incremental sync of a source starts: the last sync, else when its oldest listing was cached. */
  syncFrom(source: string): string | undefined {
    const known = this.#synced[source];
    if (known !== undefined) return known.since;
    const times = [...this.#pages, ...this.#details].filter((e) => e.source === source).map((e) => e.at);
    return times.length > 0 ? new Date(Math.min(...times)).toISOString() : undefined;
  }

  /** When the source's cache last caught up with its registry (ms since epoch, this machine's clock), if ever. */
  lastSynced(source: string): number | undefined {
    return this.#synced[source]?.at;
  }

  /** The last status a sync saw for an entry, kept after a deleted entry left the listings (bounded). */
  statusOf(source: string, name: string): StatusNote | undefined {
    return this.#statuses.find((n) => n.source === source && n.name === name);
  }

  /**
   * Applies entries changed at the registry since the last sync. A deleted latest version takes its name out of
   * every cached listing and saved entry of the source (a deleted older version only that version); any other change
   * replaces the cached copies it stands for: the same version, or in a listing the newer latest. Counts entries whose
   * copies actually changed, so a registry that answers `updated_since` inclusively does not report a change twice. When the answer was
   * complete, the next sync starts at the newest change time the registry reported (its clock, not this machine's),
   * else where this one started, so changes past the page bound are asked again.
   */
  applyChanges(
    source: string,
    changed: RegistryRecord[],
    opts: { since: string; at: number; complete: boolean },
  ): { updated: number; removed: number } {
    // Counted by entry name: one entry saved in several listings (and as a detail) is one change to the person.
    const updated = new Set<string>();
    const removed = new Set<string>();
    for (const record of changed) {
      const { name, version } = record.server;
      const latest = record.official.isLatest !== false;
      if (latest) this.#noteStatus(source, record);
      if (record.official.status === 'deleted') {
        const gone = (r: RegistryRecord): boolean => r.server.name === name && (latest || r.server.version === version);
        for (const p of this.#pages) {
          if (p.source !== source) continue;
          const before = p.records.length;
          p.records = p.records.filter((r) => !gone(r));
          if (p.records.length < before) removed.add(name);
        }
        // Saved entries go the same way, so nothing deleted can still be prepared from this machine's copy offline.
        const before = this.#details.length;
        this.#details = this.#details.filter((d) => !(d.source === source && gone(d.record)));
        if (this.#details.length < before) removed.add(name);
        continue;
      }
      for (const p of this.#pages) {
        if (p.source !== source) continue;
        p.records = p.records.map((r) => {
          if (r.server.name !== name || (r.server.version !== version && !latest) || sameRecord(r, record)) return r;
          updated.add(name);
          return record;
        });
      }
      for (const d of this.#details) {
        if (d.source === source && d.record.server.name === name && d.record.server.version === version && !sameRecord(d.record, record)) {
          d.record = record;
          updated.add(name);
        }
      }
    }
    const newest = newestChange(changed);
    this.#synced[source] = { since: opts.complete ? (newest ?? opts.since) : opts.since, at: opts.at };
    this.#persist();
    return { updated: updated.size, removed: removed.size };
  }

  #noteStatus(source: string, record: RegistryRecord): void {
    const { status, statusMessage, statusChangedAt } = record.official;
    const note: StatusNote = {
      source,
      name: record.server.name,
      status: status ?? 'active',
      ...(statusMessage !== undefined ? { statusMessage } : {}),
      ...(statusChangedAt !== undefined ? { statusChangedAt } : {}),
    };
    this.#statuses = [note, ...this.#statuses.filter((n) => !(n.source === source && n.name === note.name))].slice(0, CACHE_MAX_STATUSES);
  }

  /** Writes pending changes now (shutdown). */
  flush(): Promise<void> {
    return this.#writer.flush();
  }

  #persist(): void {
    // Keep the file under its byte budget: drop the oldest pages, then the oldest details.
    let size = JSON.stringify(this.#file()).length;
    while (size > CACHE_MAX_BYTES && (this.#pages.length > 1 || this.#details.length > 0)) {
      if (this.#pages.length > 1) this.#pages = this.#pages.slice(0, -1);
      else this.#details = this.#details.slice(0, -1);
      size = JSON.stringify(this.#file()).length;
    }
    this.#writer.schedule(() => this.#file());
  }

  #file(): CacheFile {
    return { v: 1, pages: this.#pages, details: this.#details, synced: this.#synced, statuses: this.#statuses };
  }
}

interface CacheFile {
  v: 1;
  pages: CachedPage[];
  details: CachedDetail[];
  synced: Record<string, SyncState>;
  statuses: StatusNote[];
}

function sameRecord(a: RegistryRecord, b: RegistryRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The newest change time among records (updatedAt or statusChangedAt, as the registry wrote it), if any is valid. */
function newestChange(records: RegistryRecord[]): string | undefined {
  let best: { ms: number; text: string } | undefined;
  for (const r of records) {
    for (const text of [r.official.updatedAt, r.official.statusChangedAt]) {
      const ms = text !== undefined ? Date.parse(text) : NaN;
      if (!Number.isNaN(ms) && (best === undefined || ms > best.ms)) best = { ms, text: new Date(ms).toISOString() };
    }
  }
  return best?.text;
}

function samePage(p: CachedPage, source: string, query: string, cursor: string | undefined): boolean {
  return p.source === source && p.query === query && p.cursor === cursor;
}

function records(raw: unknown): RegistryRecord[] {
  if (!Array.isArray(raw)) throw new Error('a cached page has no entries');
  const out: RegistryRecord[] = [];
  for (const item of raw) {
    const parsed = parseRecord(
      isObject(item) ? { server: item['server'], _meta: { 'io.modelcontextprotocol.registry/official': item['official'] } } : item,
    );
    if (parsed.ok) out.push(parsed.record);
  }
  return out;
}

function parseCache(raw: unknown): Omit<CacheFile, 'v'> {
  if (!isObject(raw) || raw['v'] !== 1 || !Array.isArray(raw['pages']) || !Array.isArray(raw['details']))
    throw new Error('it is not a registry cache file');
  const pages: CachedPage[] = [];
  for (const p of raw['pages'].slice(0, CACHE_MAX_PAGES)) {
    if (!isObject(p) || typeof p['source'] !== 'string' || typeof p['query'] !== 'string' || typeof p['at'] !== 'number') continue;
    pages.push({
      source: p['source'],
      query: p['query'],
      at: p['at'],
      records: records(p['records']),
      ...(typeof p['cursor'] === 'string' ? { cursor: p['cursor'] } : {}),
      ...(typeof p['nextCursor'] === 'string' ? { nextCursor: p['nextCursor'] } : {}),
    });
  }
  const details: CachedDetail[] = [];
  for (const d of raw['details'].slice(0, CACHE_MAX_DETAILS)) {
    if (!isObject(d) || typeof d['source'] !== 'string' || typeof d['at'] !== 'number') continue;
    const [record] = records([d['record']]);
    if (record !== undefined) details.push({ source: d['source'], at: d['at'], record });
  }
  return { pages, details, synced: parseSynced(raw['synced']), statuses: parseStatuses(raw['statuses']) };
}

const isTime = (v: unknown): v is string => typeof v === 'string' && v.length <= 100 && !Number.isNaN(Date.parse(v));

/** Sync states; older files have none (those sources start again from their oldest listing) or a bare ISO string. */
function parseSynced(raw: unknown): Record<string, SyncState> {
  const synced: Record<string, SyncState> = {};
  if (!isObject(raw)) return synced;
  for (const [source, state] of Object.entries(raw).slice(0, CACHE_MAX_PAGES + CACHE_MAX_DETAILS)) {
    if (isTime(state)) synced[source] = { since: state };
    else if (isObject(state) && isTime(state['since']))
      synced[source] = {
        since: state['since'],
        ...(typeof state['at'] === 'number' && Number.isFinite(state['at']) ? { at: state['at'] } : {}),
      };
  }
  return synced;
}

function parseStatuses(raw: unknown): StatusNote[] {
  if (!Array.isArray(raw)) return [];
  const out: StatusNote[] = [];
  for (const n of raw.slice(0, CACHE_MAX_STATUSES)) {
    if (!isObject(n) || typeof n['source'] !== 'string' || typeof n['name'] !== 'string') continue;
    const status = n['status'];
    if (status !== 'active' && status !== 'deprecated' && status !== 'deleted') continue;
    out.push({
      source: n['source'].slice(0, 2048),
      name: n['name'].slice(0, 200),
      status,
      ...(typeof n['statusMessage'] === 'string' ? { statusMessage: n['statusMessage'].slice(0, 1000) } : {}),
      ...(isTime(n['statusChangedAt']) ? { statusChangedAt: n['statusChangedAt'] } : {}),
    });
  }
  return out;
}
