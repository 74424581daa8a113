// The tool catalog: one published snapshot per server with stable local names, revisions, pins, groups and a
// search index; refreshes driven by session events (connect, list_changed, 2026-07-28 listen streams) and by the
// user. Implements the CatalogPort the tool calls use (seed 000: Discovery, Refresh, Tool Naming, Capability Groups,
// Catalog Consistency And Budgets).
import type { Client, McpSubscription, Tool } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type {
  CatalogQuery,
  CatalogSearchResult,
  CatalogSelection,
  GroupCard,
  RefreshReport,
  ToolAnnotationsView,
  ToolDetail,
  ToolSummary,
} from '../../../shared/domains/catalog.js';
import { escapeUnsafe } from '../../../shared/domains/catalog-text.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { SessionEvent, SessionEvents } from '../sessions/session-events.js';
import { sanitizeText } from '../text.js';
import type { CatalogPort, ToolRoute } from './catalog-port.js';
import { fetchListing, type Listing } from './listing.js';
import { assignLocalNames, normalizeSegment } from './naming.js';
import { fingerprintOf, pinDiff, pinnedDefinition, sameDefinition, type PinRecord, type PinStore } from './pins.js';
import {
  ANN_DESTRUCTIVE,
  ANN_IDEMPOTENT,
  ANN_OPEN_WORLD,
  ANN_READ_ONLY,
  searchIndexes,
  ServerIndex,
  type SearchHit,
} from './search-index.js';

/** Discovery output budget (seed 000): 256 KiB, at most 128 schemas. */
export const SELECT_BUDGET_BYTES = 256 * 1024;
export const SELECT_MAX_SCHEMAS = 128;
const LIST_DESCRIPTION_CHARS = 240;

/** What the catalog is built from. */
export interface CatalogDeps {
  /** Where `catalog.changed` goes. */
  events: EventBus;
  /** Session lifecycle and list-change events. */
  sessionEvents: SessionEvents;
  /** Current server definitions (for limits, allow/deny lists and the id order). */
  configs: () => readonly ServerConfig[];
  /** Connects a server on demand and returns its client (the session manager); absent: only live sessions list. */
  connect?: (id: string) => Promise<Client>;
  /** Clears the SDK response cache of a server before an explicit refresh, when the session layer owns one. */
  clearResponseCache?: (id: string) => void;
  /** Approved definitions. */
  pins: PinStore;
  /** Clock (tests). */
  now?: () => number;
  /** Delay before a list_changed-driven refresh, so a burst coalesces (ms, default 50). */
  autoRefreshDelayMs?: number;
  /** Window in which connects are batched so their snapshots apply in server-id order (ms, default 30). */
  connectBatchMs?: number;
}

/** One published tool. */
interface Published {
  route: ToolRoute;
  fingerprint: string;
  schemaOmitted: boolean;
  summary: ToolSummary;
  /** Fingerprint + display facts: a republication with the same key keeps the route (and its revision). */
  key: string;
}

/** The outcome of one server refresh. */
interface Outcome {
  id: string;
  ok: boolean;
  cancelled?: boolean;
  error?: AppError;
}

interface RefreshOptions {
  /** Re-list even when an in-flight refresh would do (explicit refresh). */
  force: boolean;
  /** Apply only after this settles (server-id order in a batch). */
  applyAfter?: Promise<unknown>;
  signal?: AbortSignal;
}

/** Counters for tests and diagnostics. */
export interface CatalogStats {
  listings: number;
  publications: number;
}

class Entry {
  readonly id: string;
  config: ServerConfig;
  readonly registration = new AbortController();
  dirty = true;
  client: Client | undefined;
  awaitingClient = false;
  inflight: Promise<Outcome> | undefined;
  queued: Promise<Outcome> | undefined;
  tools = new Map<string, Published>();
  byOriginal = new Map<string, string>();
  readonly identities = new Map<string, string>();
  index: ServerIndex | undefined;
  published = false;
  stale: { reason: string; since: number } | undefined;
  freshUntil = 0;
  meta: { title?: string; description?: string; instructions?: string } = {};
  activeCalls = 0;
  idleWaiters: (() => void)[] = [];
  listen: McpSubscription | undefined;
  listenClient: Client | undefined;
  autoTimer: ReturnType<typeof setTimeout> | undefined;
  readonly stats: CatalogStats = { listings: 0, publications: 0 };

  constructor(config: ServerConfig) {
    this.id = config.id;
    this.config = config;
  }
}

const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const pinKey = (serverId: string, original: string): string => `${serverId}\u0000${original}`;
const filterKey = (c: ServerConfig): string => JSON.stringify([c.tools, c.limits, c.enabled]);

function utf8(s: string | undefined): number {
  return s === undefined ? 0 : Buffer.byteLength(s, 'utf8');
}

function annotationsView(tool: Tool): ToolAnnotationsView {
  const a = tool.annotations;
  if (!a) return {};
  const out: ToolAnnotationsView = {};
  if (typeof a.readOnlyHint === 'boolean') out.readOnlyHint = a.readOnlyHint;
  if (typeof a.destructiveHint === 'boolean') out.destructiveHint = a.destructiveHint;
  if (typeof a.idempotentHint === 'boolean') out.idempotentHint = a.idempotentHint;
  if (typeof a.openWorldHint === 'boolean') out.openWorldHint = a.openWorldHint;
  if (typeof a.title === 'string') out.title = sanitizeText(a.title);
  return out;
}

function flagsOf(a: ToolAnnotationsView): number {
  return (
    (a.readOnlyHint ? ANN_READ_ONLY : 0) |
    (a.destructiveHint ? ANN_DESTRUCTIVE : 0) |
    (a.idempotentHint ? ANN_IDEMPOTENT : 0) |
    (a.openWorldHint ? ANN_OPEN_WORLD : 0)
  );
}

const ANNOTATION_FLAG: Record<NonNullable<CatalogQuery['annotation']>, number> = {
  readOnly: ANN_READ_ONLY,
  destructive: ANN_DESTRUCTIVE,
  idempotent: ANN_IDEMPOTENT,
  openWorld: ANN_OPEN_WORLD,
};

function toAppError(err: unknown, serverId: string): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : 'The tool list could not be fetched';
  return new AppError('server_error', `Listing tools failed: ${sanitizeText(message).slice(0, 500)}`, { serverId, cause: err });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
  });
}

/** The catalog of every server's tools. */
export class Catalog implements CatalogPort {
  readonly #deps: CatalogDeps;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  /** Local name → owning server, for every identity ever assigned in a live registration. */
  readonly #owners = new Map<string, string>();
  readonly #pins: Map<string, PinRecord>;
  #revision = 0;
  #pendingConnects = new Set<string>();
  #connectTimer: ReturnType<typeof setTimeout> | undefined;
  #searchCache: { key: string; hits: SearchHit[] } | undefined;
  readonly #unsubscribe: (() => void)[] = [];
  #disposed = false;

  constructor(deps: CatalogDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
    this.#pins = deps.pins.load();
    for (const config of deps.configs()) this.#entries.set(config.id, new Entry(config));
    this.#unsubscribe.push(deps.sessionEvents.subscribe((e) => this.#onSession(e)));
    this.#unsubscribe.push(
      deps.events.subscribe((event) => {
        if (event === 'servers.changed') this.#syncConfigs();
      }),
    );
  }

  /** Current catalog revision. */
  get revision(): number {
    return this.#revision;
  }

  /** Counters of one server (tests). */
  stats(id: string): CatalogStats {
    return { ...this.#entry(id).stats };
  }

  /** Whether a server needs a refresh before its catalog is trusted. */
  isDirty(id: string): boolean {
    return this.#entry(id).dirty;
  }

  /** Stops timers and listen streams, and writes pending approvals. */
  dispose(): void {
    this.#disposed = true;
    for (const u of this.#unsubscribe) u();
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
    for (const entry of this.#entries.values()) this.#retire(entry);
    this.#deps.pins.flush();
  }

  // ---------------------------------------------------------------- session events

  #onSession(event: SessionEvent): void {
    if (this.#disposed) return;
    switch (event.type) {
      case 'connected': {
        const entry = this.#ensureEntry(event.id);
        if (!entry) return;
        entry.client = event.client;
        this.#captureMeta(entry, event.client);
        // A reconnect refreshes the live catalog, unless the last listing is still fresh per its ttlMs.
        const fresh = entry.published && this.#now() < entry.freshUntil && !entry.dirty;
        if (!entry.awaitingClient && !fresh) {
          entry.dirty = true;
          this.#scheduleConnectRefresh(entry.id);
        }
        this.#maybeListen(entry, event.client);
        return;
      }
      case 'closed': {
        const entry = this.#entries.get(event.id);
        if (!entry) return;
        entry.client = undefined;
        this.#closeListen(entry);
        return;
      }
      case 'removed':
        this.#drop(event.id);
        return;
      case 'toolsListChanged': {
        const entry = this.#entries.get(event.id);
        if (!entry) return;
        this.#markDirty(entry);
        return;
      }
      default:
        return;
    }
  }

  /** list_changed (or a listen gap): the snapshot can no longer be trusted; refresh soon if connected. */
  #markDirty(entry: Entry): void {
    entry.dirty = true;
    entry.freshUntil = 0;
    if (entry.autoTimer || !entry.client) return;
    entry.autoTimer = setTimeout(() => {
      entry.autoTimer = undefined;
      if (entry.dirty && entry.client && !entry.registration.signal.aborted) void this.#refreshEntry(entry, { force: false });
    }, this.#deps.autoRefreshDelayMs ?? 50);
    entry.autoTimer.unref?.();
  }

  #scheduleConnectRefresh(id: string): void {
    this.#pendingConnects.add(id);
    if (this.#connectTimer) return;
    this.#connectTimer = setTimeout(() => {
      this.#connectTimer = undefined;
      const ids = [...this.#pendingConnects];
      this.#pendingConnects.clear();
      void this.#refreshBatch(ids, false);
    }, this.#deps.connectBatchMs ?? 30);
    this.#connectTimer.unref?.();
  }

  #captureMeta(entry: Entry, client: Client): void {
    const info = client.getServerVersion();
    const title = info?.title ? sanitizeText(info.title) : undefined;
    const description = typeof info?.description === 'string' ? sanitizeText(info.description) : undefined;
    const rawInstructions = client.getInstructions();
    let instructions = rawInstructions ? sanitizeText(rawInstructions) : undefined;
    // Combined server metadata budget: cut the instructions (then the description) rather than fail the server.
    const budget = entry.config.limits.serverMetadataBytes;
    let desc = description;
    if (utf8(title) + utf8(desc) + utf8(instructions) > budget) {
      const room = Math.max(0, budget - utf8(title) - utf8(desc));
      instructions = instructions
        ? `${Buffer.from(instructions, 'utf8')
            .subarray(0, room)
            .toString('utf8')
            .replace(/\uFFFD+$/, '')}…`
        : undefined;
      if (utf8(title) + utf8(desc) > budget) desc = desc?.slice(0, Math.max(0, budget - utf8(title)));
    }
    entry.meta = { ...(title ? { title } : {}), ...(desc ? { description: desc } : {}), ...(instructions ? { instructions } : {}) };
  }

  /** 2026-07-28 peers that advertise tools.listChanged: keep one `subscriptions/listen` stream open per session. */
  #maybeListen(entry: Entry, client: Client): void {
    if (client.getProtocolEra() !== 'modern') return;
    if (!client.getServerCapabilities()?.tools?.listChanged) return;
    if (entry.listenClient === client) return;
    this.#closeListen(entry);
    entry.listenClient = client;
    void this.#listenLoop(entry, client);
  }

  async #listenLoop(entry: Entry, client: Client): Promise<void> {
    let failures = 0;
    let first = true;
    const live = (): boolean =>
      entry.listenClient === client && entry.client === client && !entry.registration.signal.aborted && !this.#disposed;
    while (live()) {
      let sub: McpSubscription;
      try {
        sub = await client.listen({ toolsListChanged: true });
      } catch {
        failures++;
        if (failures > 5 || !live()) return;
        await sleep(Math.min(5000, 250 * 2 ** failures));
        continue;
      }
      if (!live()) {
        await sub.close().catch(() => undefined);
        return;
      }
      entry.listen = sub;
      // The time between two streams is a gap in which a change may have been missed: treat it as dirty.
      if (!first) this.#markDirty(entry);
      first = false;
      failures = 0;
      const how = await sub.closed;
      if (entry.listen === sub) entry.listen = undefined;
      if (how === 'local' || !live()) return;
      this.#markDirty(entry);
      await sleep(100);
    }
  }

  #closeListen(entry: Entry): void {
    entry.listenClient = undefined;
    const sub = entry.listen;
    entry.listen = undefined;
    if (sub) void sub.close().catch(() => undefined);
  }

  // ---------------------------------------------------------------- registrations

  #ensureEntry(id: string): Entry | undefined {
    const existing = this.#entries.get(id);
    if (existing) return existing;
    const config = this.#deps.configs().find((c) => c.id === id);
    if (!config) return undefined;
    const entry = new Entry(config);
    this.#entries.set(id, entry);
    return entry;
  }

  #syncConfigs(): void {
    const configs = this.#deps.configs();
    const ids = new Set(configs.map((c) => c.id));
    for (const id of [...this.#entries.keys()]) if (!ids.has(id)) this.#drop(id);
    for (const config of configs) {
      const entry = this.#entries.get(config.id);
      if (!entry) {
        this.#entries.set(config.id, new Entry(config));
        continue;
      }
      const changed = filterKey(entry.config) !== filterKey(config);
      entry.config = config;
      if (changed) this.#markDirty(entry);
    }
  }

  #retire(entry: Entry): void {
    entry.registration.abort(new AppError('cancelled', 'The server was removed', { serverId: entry.id }));
    if (entry.autoTimer) clearTimeout(entry.autoTimer);
    entry.autoTimer = undefined;
    this.#closeListen(entry);
    for (const waiter of entry.idleWaiters.splice(0)) waiter();
  }

  /** Removal: cancels the registration (in-flight fetches cannot publish) and forgets its names. */
  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#retire(entry);
    for (const name of entry.identities.values()) if (this.#owners.get(name) === id) this.#owners.delete(name);
    if (entry.published || entry.stale) this.#changed([id], true);
  }

  #entry(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new AppError('not_found', `No server with id "${id}"`, { serverId: id });
    return entry;
  }

  #sortedEntries(): Entry[] {
    return [...this.#entries.values()].sort(byId);
  }

  #changed(serverIds: string[], bump: boolean): void {
    if (bump) this.#revision++;
    this.#searchCache = undefined;
    this.#deps.events.emit('catalog.changed', { revision: this.#revision, serverIds });
  }

  // ---------------------------------------------------------------- refresh

  /** Explicit refresh of one server or all (clears cached listings first); snapshots apply in server-id order. */
  async refresh(id?: string): Promise<RefreshReport> {
    const entries = id === undefined ? this.#sortedEntries().filter((e) => e.config.enabled) : [this.#entry(id)];
    for (const entry of entries) {
      entry.freshUntil = 0;
      this.#deps.clearResponseCache?.(entry.id);
    }
    const outcomes = await this.#refreshBatch(
      entries.map((e) => e.id),
      true,
    );
    return {
      revision: this.#revision,
      servers: outcomes.map((o) => {
        const entry = this.#entries.get(o.id);
        return {
          id: o.id,
          ok: o.ok,
          ...(o.error ? { error: o.error.message } : {}),
          toolCount: entry?.tools.size ?? 0,
          ...(entry?.stale ? { stale: true } : {}),
        };
      }),
    };
  }

  /** Refreshes servers concurrently; each applies only after the previous one (by id) has applied or failed. */
  async #refreshBatch(ids: string[], force: boolean): Promise<Outcome[]> {
    const entries = ids
      .map((id) => this.#entries.get(id))
      .filter((e): e is Entry => e !== undefined)
      .sort(byId);
    let previous: Promise<unknown> = Promise.resolve();
    const all: Promise<Outcome>[] = [];
    for (const entry of entries) {
      const p = this.#refreshEntry(entry, { force, applyAfter: previous });
      all.push(p);
      previous = p;
    }
    return Promise.all(all);
  }

  /** One shared, serialized refresh per server; a refresh requested while the current one is stale queues one more. */
  #refreshEntry(entry: Entry, opts: RefreshOptions): Promise<Outcome> {
    if (entry.inflight) {
      if (!entry.dirty && !opts.force) return entry.inflight;
      entry.queued ??= entry.inflight.then(() => {
        entry.queued = undefined;
        return this.#start(entry, opts);
      });
      return entry.queued;
    }
    return this.#start(entry, opts);
  }

  #start(entry: Entry, opts: RefreshOptions): Promise<Outcome> {
    if (entry.inflight) return entry.inflight;
    entry.dirty = false;
    const p = this.#run(entry, opts).finally(() => {
      if (entry.inflight === p) entry.inflight = undefined;
    });
    entry.inflight = p;
    return p;
  }

  async #run(entry: Entry, opts: RefreshOptions): Promise<Outcome> {
    const signals = [entry.registration.signal, ...(opts.signal ? [opts.signal] : [])];
    const signal = signals.length === 1 ? signals[0]! : AbortSignal.any(signals);
    let listing: Listing;
    let client: Client;
    try {
      client = await this.#clientFor(entry);
      signal.throwIfAborted();
      entry.stats.listings++;
      listing = await fetchListing(client, {
        serverId: entry.id,
        limits: entry.config.limits,
        filter: entry.config.tools,
        signal,
        timeoutMs: entry.config.timeouts.listSecs * 1000,
      });
      if (opts.applyAfter) await opts.applyAfter.catch(() => undefined);
      signal.throwIfAborted();
      await this.#waitForCalls(entry, signal);
      signal.throwIfAborted();
      this.#apply(entry, listing, client);
      return { id: entry.id, ok: true };
    } catch (err) {
      if (signal.aborted || (err instanceof AppError && err.code === 'cancelled')) {
        // Cancelled before publication: whatever made it dirty still holds.
        entry.dirty = true;
        return {
          id: entry.id,
          ok: false,
          cancelled: true,
          error: new AppError('cancelled', 'The refresh was cancelled', { serverId: entry.id }),
        };
      }
      const error = toAppError(err, entry.id);
      entry.dirty = true;
      if (error.code !== 'connection_closed' || entry.published) {
        entry.stale = { reason: error.message, since: this.#now() };
        this.#changed([entry.id], false);
      }
      return { id: entry.id, ok: false, error };
    }
  }

  async #clientFor(entry: Entry): Promise<Client> {
    if (entry.client) return entry.client;
    const connect = this.#deps.connect;
    if (!connect) throw new AppError('connection_closed', `${entry.config.name} is not connected`, { serverId: entry.id });
    entry.awaitingClient = true;
    try {
      const client = await connect(entry.id);
      if (entry.client !== client) {
        entry.client = client;
        this.#captureMeta(entry, client);
        this.#maybeListen(entry, client);
      }
      return client;
    } finally {
      entry.awaitingClient = false;
    }
  }

  /** Publication waits for calls already using this server's catalog. */
  #waitForCalls(entry: Entry, signal: AbortSignal): Promise<void> {
    if (entry.activeCalls === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(new AppError('cancelled', 'The refresh was cancelled', { serverId: entry.id }));
      signal.addEventListener('abort', onAbort, { once: true });
      entry.idleWaiters.push(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }

  /** Publishes a validated listing: names, pins, routes, index, revision. Synchronous once it starts. */
  #apply(entry: Entry, listing: Listing, client: Client): void {
    const id = entry.id;
    const originals = listing.tools.map((t) => t.tool.name);
    const { names, added } = assignLocalNames(id, originals, entry.identities, (name) => {
      const owner = this.#owners.get(name);
      return owner !== undefined && owner !== id;
    });
    if (entry.identities.size + added.size > entry.config.limits.catalogItems) {
      throw new AppError(
        'limit_exceeded',
        `More than ${entry.config.limits.catalogItems} tool identities were assigned in this registration; remove and add the server again to reset them`,
        { serverId: id },
      );
    }
    for (const [original, name] of added) {
      entry.identities.set(original, name);
      this.#owners.set(name, id);
    }
    const nextRevision = this.#revision + 1;
    const tools = new Map<string, Published>();
    const byOriginal = new Map<string, string>();
    let pinsChanged = false;
    let changed = listing.tools.length !== entry.tools.size;
    for (const listed of listing.tools) {
      const tool = listed.tool;
      const localName = names.get(tool.name)!;
      const definition = pinnedDefinition(tool);
      const fingerprint = fingerprintOf(definition);
      const key = pinKey(id, tool.name);
      let record = this.#pins.get(key);
      if (!record) {
        // First sight: this definition becomes the approved one.
        record = { fingerprint, definition };
        this.#pins.set(key, record);
        pinsChanged = true;
      }
      if (record.fingerprint !== fingerprint && sameDefinition(record.definition, definition)) {
        // Same definition, keys in another order: not a change.
        record = { fingerprint, definition };
        this.#pins.set(key, record);
        pinsChanged = true;
      }
      const pin = record.fingerprint === fingerprint ? 'approved' : 'changed';
      const title = tool.title ?? tool.annotations?.title;
      const displayKey = `${fingerprint}|${pin}|${listed.appOnly}|${listed.schemaOmitted}|${title ?? ''}`;
      const old = entry.tools.get(localName);
      if (old && old.key === displayKey) {
        tools.set(localName, old);
      } else {
        changed = true;
        const annotations = annotationsView(tool);
        const route: ToolRoute = {
          localName,
          serverId: id,
          originalName: tool.name,
          revision: nextRevision,
          tool,
          appOnly: listed.appOnly,
          pin,
        };
        const description = sanitizeText(tool.description ?? '');
        const summary: ToolSummary = {
          name: localName,
          originalName: escapeUnsafe(tool.name),
          serverId: id,
          ...(title !== undefined ? { title: sanitizeText(title) } : {}),
          description: description.length > LIST_DESCRIPTION_CHARS ? `${description.slice(0, LIST_DESCRIPTION_CHARS)}…` : description,
          annotations,
          appOnly: listed.appOnly,
          pin,
        };
        tools.set(localName, { route, fingerprint, schemaOmitted: listed.schemaOmitted, summary, key: displayKey });
      }
      byOriginal.set(tool.name, localName);
    }
    if (!changed) for (const name of entry.tools.keys()) if (!tools.has(name)) changed = true;
    if (pinsChanged) this.#deps.pins.save(this.#pins);
    entry.freshUntil = listing.ttlMs !== undefined ? this.#now() + listing.ttlMs : 0;
    entry.published = true;
    this.#captureMeta(entry, client);
    const wasStale = entry.stale !== undefined;
    entry.stale = undefined;
    if (changed) {
      entry.tools = tools;
      entry.byOriginal = byOriginal;
      entry.index = new ServerIndex(
        id,
        [...tools.values()].map((p) => ({
          localName: p.route.localName,
          originalName: p.route.originalName,
          title: p.summary.title,
          description: p.summary.description,
          flags: flagsOf(p.summary.annotations),
        })),
      );
      entry.stats.publications++;
      this.#changed([id], true);
    } else if (wasStale) {
      this.#changed([id], false);
    }
  }

  // ---------------------------------------------------------------- CatalogPort

  /** Resolves a local name, refreshing its server first when dirty. */
  async route(localName: string, signal?: AbortSignal): Promise<ToolRoute> {
    let entry = this.#entryForName(localName);
    if (!entry) {
      // The tool may be new on a dirty server whose id normalizes to the name's server segment.
      const segment = /^mcp__(.+?)__/.exec(localName)?.[1];
      const candidates = this.#sortedEntries().filter((e) => e.dirty && segment !== undefined && normalizeSegment(e.id) === segment);
      const outcomes = await Promise.all(candidates.map((e) => this.#awaitRefresh(e, signal)));
      const cancelled = outcomes.find((o) => o.cancelled);
      if (cancelled) throw cancelled.error ?? new AppError('cancelled', 'Cancelled');
      entry = this.#entryForName(localName);
    }
    if (!entry) throw new AppError('not_found', `No tool named "${localName}"`);
    if (entry.dirty) {
      const outcome = await this.#awaitRefresh(entry, signal);
      if (outcome.cancelled) throw outcome.error ?? new AppError('cancelled', 'Cancelled', { serverId: entry.id });
      // A failed refresh keeps the last good snapshot (marked stale): the call may still use it.
    }
    const published = entry.tools.get(localName);
    if (!published) throw new AppError('not_found', `No tool named "${localName}"`, { serverId: entry.id });
    if (published.route.pin === 'changed') {
      throw new AppError(
        'tool_changed',
        `The definition of ${localName} changed since it was approved; review and approve it before calling`,
        {
          serverId: entry.id,
        },
      );
    }
    return published.route;
  }

  /**
   * Runs (or joins) a server refresh for a caller. The caller's signal cancels the refresh it started; when it
   * joined a shared refresh, aborting only stops this caller's wait.
   */
  #awaitRefresh(entry: Entry, signal: AbortSignal | undefined): Promise<Outcome> {
    const shared = entry.inflight !== undefined;
    const p = this.#refreshEntry(entry, { force: false, ...(signal && !shared ? { signal } : {}) });
    if (!signal) return p;
    const cancelled: Outcome = {
      id: entry.id,
      ok: false,
      cancelled: true,
      error: new AppError('cancelled', 'Cancelled', { serverId: entry.id }),
    };
    if (signal.aborted) return Promise.resolve(cancelled);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(cancelled);
      signal.addEventListener('abort', onAbort, { once: true });
      void p.then((o) => {
        signal.removeEventListener('abort', onAbort);
        resolve(o);
      });
    });
  }

  /** Throws stale_route when the captured route is no longer the published one. */
  validate(route: ToolRoute): void {
    const entry = this.#entries.get(route.serverId);
    const current = entry?.tools.get(route.localName);
    if (!current || current.route.revision !== route.revision || current.route.originalName !== route.originalName) {
      throw new AppError('stale_route', `The catalog changed while ${route.localName} was being called; try again`, {
        serverId: route.serverId,
      });
    }
    if (current.route.pin !== 'approved') {
      throw new AppError('tool_changed', `The definition of ${route.localName} changed since it was approved`, {
        serverId: route.serverId,
      });
    }
  }

  /** Marks a call as using a server's catalog; publication waits until the release runs. */
  beginCall(serverId: string): () => void {
    const entry = this.#entries.get(serverId);
    if (!entry) return () => undefined;
    entry.activeCalls++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.activeCalls--;
      if (entry.activeCalls === 0) for (const waiter of entry.idleWaiters.splice(0)) waiter();
    };
  }

  #entryForName(localName: string): Entry | undefined {
    const owner = this.#owners.get(localName);
    return owner === undefined ? undefined : this.#entries.get(owner);
  }

  // ---------------------------------------------------------------- discovery

  #group(entry: Entry, withMembers = true): GroupCard {
    // Members: what is callable now (published, model-visible, approved); sorted, unique by construction.
    const members: string[] = [];
    for (const p of entry.tools.values()) if (!p.route.appOnly && p.route.pin === 'approved') members.push(p.route.localName);
    members.sort();
    return {
      id: `mcp:${entry.id}`,
      serverId: entry.id,
      title: entry.meta.title ?? `MCP server ${entry.id}`,
      description: entry.meta.description ?? `Tools offered by the MCP server "${entry.id}".`,
      ...(entry.meta.instructions ? { instructions: entry.meta.instructions } : {}),
      memberCount: members.length,
      members: withMembers ? members : [],
      ...(entry.stale ? { stale: { ...entry.stale } } : {}),
      toolCount: entry.tools.size,
    };
  }

  /** The groups directory: one card per server that has published tools or a stale marker (no schemas). */
  groups(): GroupCard[] {
    return this.#sortedEntries()
      .filter((e) => e.published || e.stale)
      .map((e) => this.#group(e));
  }

  #detail(entry: Entry, p: Published): ToolDetail {
    const tool = p.route.tool;
    const record = this.#pins.get(pinKey(entry.id, p.route.originalName));
    const diff = p.route.pin === 'changed' && record ? pinDiff(record.definition, pinnedDefinition(tool)) : [];
    return {
      ...p.summary,
      ...(entry.stale ? { stale: true } : {}),
      fullDescription: sanitizeText(tool.description ?? ''),
      inputSchema: tool.inputSchema as Record<string, unknown>,
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      revision: p.route.revision,
      fingerprint: p.fingerprint,
      diff,
      ...(p.schemaOmitted ? { schemaOmitted: true } : {}),
    };
  }

  #find(localName: string): { entry: Entry; published: Published } {
    const entry = this.#entryForName(localName);
    const published = entry?.tools.get(localName);
    if (!entry || !published) throw new AppError('not_found', `No tool named "${localName}"`);
    return { entry, published };
  }

  /** One tool's detail. */
  tool(localName: string): ToolDetail {
    const { entry, published } = this.#find(localName);
    return this.#detail(entry, published);
  }

  /** Full schemas of a group's members or of named tools within 256 KiB / 128 schemas; the rest is named in `omitted`. */
  select(args: { group?: string; tools?: string[] }): CatalogSelection {
    const wanted: { entry: Entry; published: Published }[] = [];
    const seen = new Set<string>();
    const push = (entry: Entry, published: Published): void => {
      if (seen.has(published.route.localName)) return;
      seen.add(published.route.localName);
      wanted.push({ entry, published });
    };
    if (args.group !== undefined) {
      const entry = args.group.startsWith('mcp:') ? this.#entries.get(args.group.slice(4)) : undefined;
      if (!entry || !(entry.published || entry.stale)) throw new AppError('not_found', `No group "${args.group}"`);
      for (const name of this.#group(entry).members) push(entry, entry.tools.get(name)!);
    }
    for (const name of args.tools ?? []) {
      const entry = this.#entryForName(name);
      const published = entry?.tools.get(name);
      if (entry && published) push(entry, published);
    }
    if (wanted.length === 0) throw new AppError('not_found', 'None of the requested tools exist');
    const tools: ToolDetail[] = [];
    const omitted: string[] = [];
    let bytes = 0;
    for (const { entry, published } of wanted) {
      const detail = this.#detail(entry, published);
      const size = utf8(JSON.stringify(detail));
      if (tools.length >= SELECT_MAX_SCHEMAS || bytes + size > SELECT_BUDGET_BYTES) {
        omitted.push(detail.name);
        continue;
      }
      bytes += size;
      tools.push(detail);
    }
    const groupIds = new Set(wanted.map((w) => w.entry.id));
    const groups = this.#sortedEntries()
      .filter((e) => groupIds.has(e.id))
      .map((e) => this.#group(e));
    return { tools, omitted, groups };
  }

  /** Ranked search across every server with filters and paging. */
  search(q: CatalogQuery): CatalogSearchResult {
    const serverFilter = q.serverIds ? new Set(q.serverIds) : undefined;
    const indexes = this.#sortedEntries()
      .filter((e) => e.index !== undefined && (serverFilter === undefined || serverFilter.has(e.id)))
      .map((e) => e.index!);
    const flagMask = q.annotation ? ANNOTATION_FLAG[q.annotation] : 0;
    const cacheKey = JSON.stringify([this.#revision, q.query, q.serverIds ?? null, q.annotation ?? null]);
    let hits: SearchHit[];
    if (this.#searchCache?.key === cacheKey) hits = this.#searchCache.hits;
    else {
      hits = searchIndexes(indexes, q.query, flagMask);
      this.#searchCache = { key: cacheKey, hits };
    }
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 200;
    const tools: ToolSummary[] = [];
    const serverIds = new Set<string>();
    for (const hit of hits.slice(offset, offset + limit)) {
      const entry = this.#entries.get(hit.index.serverId);
      const published = entry?.tools.get(hit.index.names[hit.id]!);
      if (!entry || !published) continue;
      tools.push(entry.stale ? { ...published.summary, stale: true } : published.summary);
      serverIds.add(entry.id);
    }
    const groups =
      q.includeGroups === false
        ? []
        : this.#sortedEntries()
            .filter((e) => serverIds.has(e.id))
            .map((e) => this.#group(e));
    return { tools, total: hits.length, groups, revision: this.#revision };
  }

  /** Approves the current definition of a tool (the fingerprint the user was shown). */
  approveTool(localName: string, fingerprint: string): ToolDetail {
    const { entry, published } = this.#find(localName);
    if (published.fingerprint !== fingerprint) {
      throw new AppError('tool_changed', 'The definition changed again since it was shown; review it again', { serverId: entry.id });
    }
    const key = pinKey(entry.id, published.route.originalName);
    this.#pins.set(key, { fingerprint, definition: pinnedDefinition(published.route.tool) });
    this.#deps.pins.save(this.#pins);
    if (published.route.pin !== 'approved') {
      const revision = this.#revision + 1;
      const route: ToolRoute = { ...published.route, pin: 'approved', revision };
      const summary: ToolSummary = { ...published.summary, pin: 'approved' };
      const next: Published = { ...published, route, summary, key: published.key.replace('|changed|', '|approved|') };
      entry.tools.set(localName, next);
      this.#changed([entry.id], true);
      return this.#detail(entry, next);
    }
    return this.#detail(entry, published);
  }
}
