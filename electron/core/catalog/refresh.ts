// Refresh scheduling: dirty flags, list_changed debounce, id-ordered connect batches, one serialized refresh per server.
import type { Client } from '@modelcontextprotocol/client';
import type { RefreshReport } from '../../../shared/domains/catalog.js';
import { AppError } from '../../../shared/errors.js';
import { sanitizeText } from '../text.js';
import type { CatalogState } from './catalog-state.js';
import { byId, type Entry, type Outcome } from './entry.js';
import { fetchListing, type Listing } from './listing.js';
import type { Publisher } from './publication.js';
import { captureMeta } from './server-meta.js';

interface RefreshOptions {
  /** Re-list even when an in-flight refresh would do (explicit refresh). */
  force: boolean;
  /** Apply only after this settles (server-id order in a batch). */
  applyAfter?: Promise<unknown>;
  signal?: AbortSignal;
}

function toAppError(err: unknown, serverId: string): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : 'The tool list could not be fetched';
  return new AppError('server_error', `Listing tools failed: ${sanitizeText(message).slice(0, 500)}`, { serverId, cause: err });
}

/** Decides when servers are re-listed and runs those refreshes through to publication. */
export class Refresher {
  readonly #state: CatalogState;
  readonly #publisher: Publisher;
  #pendingConnects = new Set<string>();
  #connectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(state: CatalogState, publisher: Publisher) {
    this.#state = state;
    this.#publisher = publisher;
  }

  /** Cancels a pending connect batch (dispose). */
  dispose(): void {
    if (this.#connectTimer) clearTimeout(this.#connectTimer);
  }

  /** list_changed (or a change-stream gap): the snapshot can no longer be trusted; refresh soon if connected. */
  markDirty(entry: Entry): void {
    entry.dirty = true;
    entry.freshUntil = 0;
    if (entry.autoTimer || !entry.client) return;
    entry.autoTimer = setTimeout(() => {
      entry.autoTimer = undefined;
      if (entry.dirty && entry.client && !entry.registration.signal.aborted) void this.#refreshEntry(entry, { force: false });
    }, this.#state.deps.autoRefreshDelayMs ?? 50);
    entry.autoTimer.unref?.();
  }

  /** Queues a connected server's refresh into the current connect batch. */
  scheduleConnectRefresh(id: string): void {
    this.#pendingConnects.add(id);
    if (this.#connectTimer) return;
    this.#connectTimer = setTimeout(() => {
      this.#connectTimer = undefined;
      const ids = [...this.#pendingConnects];
      this.#pendingConnects.clear();
      void this.#refreshBatch(ids, false);
    }, this.#state.deps.connectBatchMs ?? 30);
    this.#connectTimer.unref?.();
  }

  /** Explicit refresh of one server or all (clears cached listings first); snapshots apply in server-id order. */
  async refresh(id?: string): Promise<RefreshReport> {
    const entries = id === undefined ? this.#state.sortedEntries().filter((e) => e.config.enabled) : [this.#state.entry(id)];
    for (const entry of entries) {
      entry.freshUntil = 0;
      this.#state.deps.clearResponseCache?.(entry.id);
    }
    const outcomes = await this.#refreshBatch(
      entries.map((e) => e.id),
      true,
    );
    return {
      revision: this.#state.revision,
      servers: outcomes.map((o) => {
        const entry = this.#state.entries.get(o.id);
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
      .map((id) => this.#state.entries.get(id))
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
      const validated = listing;
      await this.#publisher.publishWhenIdle(entry, signal, () => this.#publisher.apply(entry, validated, client));
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
        entry.stale = { reason: error.message, since: this.#state.now() };
        this.#state.changed([entry.id], false);
      }
      return { id: entry.id, ok: false, error };
    }
  }

  async #clientFor(entry: Entry): Promise<Client> {
    if (entry.client) return entry.client;
    const connect = this.#state.deps.connect;
    if (!connect) throw new AppError('connection_closed', `${entry.config.name} is not connected`, { serverId: entry.id });
    entry.awaitingClient = true;
    try {
      const client = await connect(entry.id);
      if (entry.client !== client) {
        entry.client = client;
        captureMeta(entry, client);
      }
      return client;
    } finally {
      entry.awaitingClient = false;
    }
  }

  /**
   * Runs (or joins) a server refresh for a caller. The caller's signal cancels the refresh it started; when it
   * joined a shared refresh, aborting only stops this caller's wait.
   */
  awaitRefresh(entry: Entry, signal: AbortSignal | undefined): Promise<Outcome> {
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
}
