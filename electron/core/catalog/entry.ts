// One server's catalog record: its published tools, refresh and call bookkeeping and counters.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { ToolSummary } from '../../../shared/domains/catalog.js';
import type { AppError } from '../../../shared/errors.js';
import type { ToolRoute } from './catalog-port.js';
import type { ServerIndex } from './search-index.js';

/** One published tool. */
export interface Published {
  route: ToolRoute;
  fingerprint: string;
  schemaOmitted: boolean;
  summary: ToolSummary;
  /** Fingerprint + display facts: a republication with the same key keeps the route (and its revision). */
  key: string;
}

/** The outcome of one server refresh. */
export interface Outcome {
  id: string;
  ok: boolean;
  cancelled?: boolean;
  error?: AppError;
}

/** Counters for tests and diagnostics. */
export interface CatalogCounters {
  listings: number;
  publications: number;
}

/** The counters, with the publications under way (each waits for the calls using the catalog), for tests. */
export interface CatalogStats extends CatalogCounters {
  publishing: number;
}

/** The catalog's record of one registered server. */
export class Entry {
  readonly id: string;
  config: ServerConfig;
  readonly registration = new AbortController();
  dirty = true;
  client: Client | undefined;
  awaitingClient = false;
  inflight: Promise<Outcome> | undefined;
  queued: Promise<Outcome> | undefined;
  /** Published tools the model may see (the catalog proper). */
  tools = new Map<string, Published>();
  /** The app-only route table: tools whose MCP Apps visibility leaves out the model, callable only from the server's app. */
  appTools = new Map<string, Published>();
  byOriginal = new Map<string, string>();
  readonly identities = new Map<string, string>();
  index: ServerIndex | undefined;
  published = false;
  stale: { reason: string; since: number } | undefined;
  freshUntil = 0;
  meta: { title?: string; description?: string; instructions?: string } = {};
  activeCalls = 0;
  idleWaiters: (() => void)[] = [];
  /** Publications waiting for the active calls to finish; new calls hold back meanwhile (no starvation). */
  publishing = 0;
  publishWaiters: (() => void)[] = [];
  autoTimer: ReturnType<typeof setTimeout> | undefined;
  readonly stats: CatalogCounters = { listings: 0, publications: 0 };

  constructor(config: ServerConfig) {
    this.id = config.id;
    this.config = config;
  }
}

/** Orders entries (or anything with an id) by server id. */
export const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
