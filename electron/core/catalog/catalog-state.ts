// The catalog's shared state: server entries, local-name owners, pins, the revision and change notifications.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { SessionEvents } from '../sessions/session-events.js';
import { byId, Entry, type Published } from './entry.js';
import type { PinRecord, PinStore } from './pins.js';
import type { SearchHit } from './search-index.js';

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
  /** Names of the event types a server offers (MCP Events extension), when listed; shown on its group card. */
  eventTypes?: (id: string) => readonly string[] | undefined;
  /**
   * Why a server's launch may not start now (the launch gate); a refusal naming lost secrets (evidence
   * `missingSecrets`) turns a call to one of its tools into `secret_missing` instead of "No tool named …".
   */
  launchRefusal?: (config: ServerConfig) => AppError | undefined;
  /** Clock (tests). */
  now?: () => number;
  /** Delay before a list_changed-driven refresh, so a burst coalesces (ms, default 50). */
  autoRefreshDelayMs?: number;
  /** Window in which connects are batched so their snapshots apply in server-id order (ms, default 30). */
  connectBatchMs?: number;
}

/** State shared by the catalog's parts: entries by id, name owners, pins, revision and the search cache. */
export class CatalogState {
  readonly deps: CatalogDeps;
  readonly now: () => number;
  readonly entries = new Map<string, Entry>();
  /** Local name → owning server, for every identity ever assigned in a live registration. */
  readonly owners = new Map<string, string>();
  readonly pins: Map<string, PinRecord>;
  revision = 0;
  searchCache: { key: string; hits: SearchHit[] } | undefined;
  disposed = false;

  constructor(deps: CatalogDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
    this.pins = deps.pins.load();
    for (const config of deps.configs()) this.entries.set(config.id, new Entry(config));
  }

  /** The entry of a server; throws `not_found` when there is none. */
  entry(id: string): Entry {
    const entry = this.entries.get(id);
    if (!entry) throw new AppError('not_found', `No server with id "${id}"`, { serverId: id });
    return entry;
  }

  /** Every entry in server-id order. */
  sortedEntries(): Entry[] {
    return [...this.entries.values()].sort(byId);
  }

  /** The entry owning a local name, if any. */
  entryForName(localName: string): Entry | undefined {
    const owner = this.owners.get(localName);
    return owner === undefined ? undefined : this.entries.get(owner);
  }

  /** A published tool (catalog or app-only table) by local name; throws `not_found` when there is none. */
  find(localName: string): { entry: Entry; published: Published } {
    const entry = this.entryForName(localName);
    const published = entry?.tools.get(localName) ?? entry?.appTools.get(localName);
    if (!entry || !published) throw new AppError('not_found', `No tool named "${localName}"`);
    return { entry, published };
  }

  /** Announces a change of some servers' catalogs, bumping the revision when what is published changed. */
  changed(serverIds: string[], bump: boolean): void {
    if (bump) this.revision++;
    this.searchCache = undefined;
    this.deps.events.emit('catalog.changed', { revision: this.revision, serverIds });
  }
}
