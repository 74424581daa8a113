// The tool catalog: one published snapshot per server with stable local names, revisions, pins, groups and a
// search index; refreshes driven by session events (connect, list_changed, change-stream gaps) and by the
// user. Implements the CatalogPort the tool calls use (seed 000: Discovery, Refresh, Tool Naming, Capability Groups,
// Catalog Consistency And Budgets). This class wires the parts: registrations follow session events and the server
// definitions; refresh.ts, publication.ts, routes.ts and discovery.ts do the work.
import type { ServerConfig } from '../../../shared/config.js';
import type {
  CatalogQuery,
  CatalogSearchResult,
  CatalogSelection,
  GroupCard,
  RefreshReport,
  ToolDetail,
  ToolSummary,
} from '../../../shared/domains/catalog.js';
import { AppError } from '../../../shared/errors.js';
import type { SessionEvent } from '../sessions/session-events.js';
import { CatalogState, type CatalogDeps } from './catalog-state.js';
import type { CatalogPort, ToolRoute } from './catalog-port.js';
import { Discovery } from './discovery.js';
import { Entry, type CatalogStats } from './entry.js';
import { Publisher } from './publication.js';
import { Refresher } from './refresh.js';
import { lastKnownTools, lostSecretTool } from './lost-secret-tools.js';
import { CatalogRoutes } from './routes.js';
import { captureMeta } from './server-meta.js';

export type { CatalogDeps } from './catalog-state.js';
export type { CatalogStats } from './entry.js';
export { SELECT_BUDGET_BYTES, SELECT_MAX_SCHEMAS } from './discovery.js';

const filterKey = (c: ServerConfig): string => JSON.stringify([c.tools, c.limits, c.enabled]);

/** The catalog of every server's tools. */
export class Catalog implements CatalogPort {
  readonly #state: CatalogState;
  readonly #publisher: Publisher;
  readonly #refresher: Refresher;
  readonly #routes: CatalogRoutes;
  readonly #discovery: Discovery;
  readonly #unsubscribe: (() => void)[] = [];
  /** What the last-known tools of servers that lost their secrets were at the last definitions change. */
  #lostSignature = '';

  constructor(deps: CatalogDeps) {
    const state = new CatalogState(deps);
    this.#state = state;
    this.#publisher = new Publisher(state);
    this.#refresher = new Refresher(state, this.#publisher);
    this.#routes = new CatalogRoutes(state, this.#refresher, this.#publisher);
    this.#discovery = new Discovery(state);
    this.#unsubscribe.push(deps.sessionEvents.subscribe((e) => this.#onSession(e)));
    this.#unsubscribe.push(
      deps.events.subscribe(
        (event) => {
          if (event === 'servers.changed') this.#syncConfigs();
        },
        { internal: true },
      ),
    );
  }

  /** Current catalog revision. */
  get revision(): number {
    return this.#state.revision;
  }

  /** The `secret_missing` error for a tool name of a server whose launch lost its secrets (not listed since), or undefined. */
  lostSecretTool(localName: string): AppError | undefined {
    return lostSecretTool(this.#state, localName);
  }

  /** Counters of one server (tests). */
  stats(id: string): CatalogStats {
    const entry = this.#state.entry(id);
    return { ...entry.stats, publishing: entry.publishing };
  }

  /** Whether a server needs a refresh before its catalog is trusted. */
  isDirty(id: string): boolean {
    return this.#state.entry(id).dirty;
  }

  /** Stops timers and writes pending approvals. */
  async dispose(): Promise<void> {
    this.#state.disposed = true;
    for (const u of this.#unsubscribe) u();
    this.#refresher.dispose();
    for (const entry of this.#state.entries.values()) this.#retire(entry);
    await this.#state.deps.pins.flush();
  }

  // ---------------------------------------------------------------- session events

  #onSession(event: SessionEvent): void {
    if (this.#state.disposed) return;
    switch (event.type) {
      case 'connected': {
        const entry = this.#ensureEntry(event.id);
        if (!entry) return;
        entry.client = event.client;
        captureMeta(entry, event.client);
        // A reconnect refreshes the live catalog, unless the last listing is still fresh per its ttlMs.
        const fresh = entry.published && this.#state.now() < entry.freshUntil && !entry.dirty;
        if (!entry.awaitingClient && !fresh) {
          entry.dirty = true;
          this.#refresher.scheduleConnectRefresh(entry.id);
        }
        return;
      }
      case 'closed': {
        const entry = this.#state.entries.get(event.id);
        if (!entry) return;
        entry.client = undefined;
        return;
      }
      case 'removed':
        this.#drop(event.id);
        return;
      case 'toolsListChanged': {
        const entry = this.#state.entries.get(event.id);
        if (!entry) return;
        this.#refresher.markDirty(entry);
        return;
      }
      default:
        return;
    }
  }

  // ---------------------------------------------------------------- registrations

  #ensureEntry(id: string): Entry | undefined {
    const existing = this.#state.entries.get(id);
    if (existing) return existing;
    const config = this.#state.deps.configs().find((c) => c.id === id);
    if (!config) return undefined;
    const entry = new Entry(config);
    this.#state.entries.set(id, entry);
    return entry;
  }

  #syncConfigs(): void {
    const configs = this.#state.deps.configs();
    const ids = new Set(configs.map((c) => c.id));
    for (const id of [...this.#state.entries.keys()]) if (!ids.has(id)) this.#drop(id);
    for (const config of configs) {
      const entry = this.#state.entries.get(config.id);
      if (!entry) {
        this.#state.entries.set(config.id, new Entry(config));
        continue;
      }
      const changed = filterKey(entry.config) !== filterKey(config);
      entry.config = config;
      if (changed) this.#refresher.markDirty(entry);
    }
    // A secret lost or entered again changes which last-known tools the person's views list as unavailable: tell
    // them (a new revision, so their cached pages are dropped), though nothing published changed.
    const lost = lastKnownTools(this.#state);
    const signature = lost.map((k) => k.signature).join('\n');
    if (signature !== this.#lostSignature) {
      this.#lostSignature = signature;
      this.#state.changed(
        lost.map((k) => k.serverId),
        true,
      );
    }
  }

  #retire(entry: Entry): void {
    entry.registration.abort(new AppError('cancelled', 'The server was removed', { serverId: entry.id }));
    if (entry.autoTimer) clearTimeout(entry.autoTimer);
    entry.autoTimer = undefined;
    for (const waiter of entry.idleWaiters.splice(0)) waiter();
    for (const waiter of entry.publishWaiters.splice(0)) waiter();
  }

  /** Removal: cancels the registration (in-flight fetches cannot publish) and forgets its names. */
  #drop(id: string): void {
    const entry = this.#state.entries.get(id);
    if (!entry) return;
    this.#state.entries.delete(id);
    this.#retire(entry);
    for (const name of entry.identities.values()) if (this.#state.owners.get(name) === id) this.#state.owners.delete(name);
    if (entry.published || entry.stale) this.#state.changed([id], true);
  }

  // ---------------------------------------------------------------- refresh

  /** Explicit refresh of one server or all (clears cached listings first); snapshots apply in server-id order. */
  refresh(id?: string): Promise<RefreshReport> {
    return this.#refresher.refresh(id);
  }

  // ---------------------------------------------------------------- CatalogPort

  /** Resolves a local name, refreshing its server first when dirty. */
  route(localName: string, signal?: AbortSignal): Promise<ToolRoute> {
    return this.#routes.route(localName, signal);
  }

  /** Resolves a `tools/call` from a server's own app by original name (catalog or app-only route table). */
  appRoute(serverId: string, originalName: string, signal?: AbortSignal): Promise<ToolRoute> {
    return this.#routes.appRoute(serverId, originalName, signal);
  }

  /** Throws stale_route when the captured route is no longer the published one. */
  validate(route: ToolRoute): void {
    this.#routes.validate(route);
  }

  /** Resolves once no publication of the server is waiting for its calls (call before `beginCall`). */
  whenPublishable(serverId: string, signal?: AbortSignal): Promise<void> {
    return this.#routes.whenPublishable(serverId, signal);
  }

  /** Marks a call as using a server's catalog; publication waits until the release runs. */
  beginCall(serverId: string): () => void {
    return this.#routes.beginCall(serverId);
  }

  // ---------------------------------------------------------------- discovery

  /**
   * The groups directory: one card per server that has published tools or a stale marker (no schemas);
   * `includeUnavailable` adds a card, marked `unavailable`, for each server that lost its secrets.
   */
  groups(withMembers = true, opts: { includeUnavailable?: boolean } = {}): GroupCard[] {
    return this.#discovery.groups(withMembers, opts);
  }

  /** One tool's detail; `includeUnavailable` also finds a last-known tool of a server that lost its secrets. */
  tool(localName: string, opts: { includeUnavailable?: boolean } = {}): ToolDetail {
    return this.#discovery.tool(localName, opts);
  }

  /** Whether a server's published catalog (or app-only table) has a tool of this original name. */
  offers(serverId: string, originalName: string): boolean {
    const entry = this.#state.entries.get(serverId);
    const local = entry?.byOriginal.get(originalName);
    return local !== undefined && (entry!.tools.has(local) || entry!.appTools.has(local));
  }

  /** Every published tool of one server (catalog and app-only table), with its route; empty when it has none. */
  serverTools(serverId: string): { route: ToolRoute; summary: ToolSummary; fingerprint: string }[] {
    const entry = this.#state.entries.get(serverId);
    if (!entry) return [];
    return [...entry.tools.values(), ...entry.appTools.values()].map((p) => ({
      route: p.route,
      summary: p.summary,
      fingerprint: p.fingerprint,
    }));
  }

  /** Full schemas of a group's members or of named tools within 256 KiB / 128 schemas; the rest is named in `omitted`. */
  select(args: { group?: string; tools?: string[] }): CatalogSelection {
    return this.#discovery.select(args);
  }

  /** Ranked search across every server with filters and paging. */
  search(q: CatalogQuery): CatalogSearchResult {
    return this.#discovery.search(q);
  }

  /** Approves the current definition of a tool (the fingerprint the user was shown). */
  approveTool(localName: string, fingerprint: string): ToolDetail {
    const { entry, published } = this.#publisher.approve(localName, fingerprint);
    return this.#discovery.detail(entry, published);
  }
}
