// Discovery: the groups directory, tool details, budgeted schema selection (256 KiB / 128 schemas) and search.
import type {
  CatalogQuery,
  CatalogSearchResult,
  CatalogSelection,
  GroupCard,
  ToolDetail,
  ToolSummary,
} from '../../../shared/domains/catalog.js';
import { AppError } from '../../../shared/errors.js';
import { toolUi } from '../apps/tool-ui.js';
import { sanitizeText, truncate } from '../text.js';
import type { CatalogState } from './catalog-state.js';
import type { Entry, Published } from './entry.js';
import { lastKnownTool, lastKnownTools, type LastKnownServer } from './lost-secret-tools.js';
import { pinDiff, pinKey, pinnedDefinition } from './pins.js';
import { ANN_DESTRUCTIVE, ANN_IDEMPOTENT, ANN_OPEN_WORLD, ANN_READ_ONLY, searchIndexes, type SearchHit } from './search-index.js';
import { utf8 } from './server-meta.js';

/** Event type names shown on a group card at most. */
export const EVENT_TYPE_NAMES = 20;

/** Discovery output budget (seed 000): 256 KiB, at most 128 schemas. */
export const SELECT_BUDGET_BYTES = 256 * 1024;
export const SELECT_MAX_SCHEMAS = 128;

const ANNOTATION_FLAG: Record<NonNullable<CatalogQuery['annotation']>, number> = {
  readOnly: ANN_READ_ONLY,
  destructive: ANN_DESTRUCTIVE,
  idempotent: ANN_IDEMPOTENT,
  openWorld: ANN_OPEN_WORLD,
};

/** Read-side views of the published catalog: group cards, tool details, selections and search results. */
/** A group's members: what is callable now (published, model-visible, approved); sorted, unique by construction. */
function membersOf(entry: Entry): string[] {
  const members: string[] = [];
  for (const p of entry.tools.values()) if (!p.route.appOnly && p.route.pin === 'approved') members.push(p.route.localName);
  return members.sort();
}

/** The card of a server that lost its secrets: its last-known tools counted, none callable. */
function lostGroup(known: LastKnownServer, withMembers: boolean): GroupCard {
  return {
    id: `mcp:${known.serverId}`,
    serverId: known.serverId,
    title: `MCP server ${known.serverId}`,
    description: `Tools last offered by the MCP server "${known.serverId}"; it cannot start until its secrets are entered again.`,
    memberCount: 0,
    ...(withMembers ? { members: [] } : {}),
    toolCount: known.tools.size,
    unavailable: known.unavailable,
  };
}

export class Discovery {
  readonly #state: CatalogState;

  constructor(state: CatalogState) {
    this.#state = state;
  }

  /** A server's group card; `withMembers` adds the members' local names (what is callable now). */
  group(entry: Entry, withMembers = true): GroupCard {
    const members = membersOf(entry);
    const eventTypes = this.#state.deps.eventTypes?.(entry.id);
    return {
      id: `mcp:${entry.id}`,
      serverId: entry.id,
      title: entry.meta.title ?? `MCP server ${entry.id}`,
      description: entry.meta.description ?? `Tools offered by the MCP server "${entry.id}".`,
      ...(entry.meta.instructions ? { instructions: entry.meta.instructions } : {}),
      memberCount: members.length,
      ...(withMembers ? { members } : {}),
      ...(entry.stale ? { stale: { ...entry.stale } } : {}),
      toolCount: entry.tools.size + entry.appTools.size,
      ...(eventTypes && eventTypes.length > 0
        ? { eventTypeCount: eventTypes.length, eventTypes: eventTypes.slice(0, EVENT_TYPE_NAMES).map((n) => truncate(sanitizeText(n), 80)) }
        : {}),
    };
  }

  /**
   * The groups directory: one card per server that has published tools or a stale marker (no schemas). With
   * `includeUnavailable` (the person's views; never the gateway), each server that lost its secrets gets a card too,
   * marked `unavailable`, counting its last-known tools and no callable member; cards stay in server-id order.
   */
  groups(withMembers = true, opts: { includeUnavailable?: boolean } = {}): GroupCard[] {
    const cards = this.#state
      .sortedEntries()
      .filter((e) => e.published || e.stale)
      .map((e) => this.group(e, withMembers));
    if (opts.includeUnavailable !== true) return cards;
    const lost = lastKnownTools(this.#state).map((k) => lostGroup(k, withMembers));
    if (lost.length === 0) return cards;
    return [...cards, ...lost].sort((a, b) => (a.serverId < b.serverId ? -1 : a.serverId > b.serverId ? 1 : 0));
  }

  /** One published tool's detail, with the diff against its approved definition when it changed. */
  detail(entry: Entry, p: Published): ToolDetail {
    const tool = p.route.tool;
    const record = this.#state.pins.get(pinKey(entry.id, p.route.originalName));
    const diff = p.route.pin === 'changed' && record ? pinDiff(record.definition, pinnedDefinition(tool)) : [];
    const ui = toolUi(tool);
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
      ...(ui ? { ui } : {}),
    };
  }

  /**
   * One tool's detail. With `includeUnavailable` (the person's views), a last-known tool of a server that lost its
   * secrets is found too, marked `unavailable`; without it (the gateway) such a name is `not_found`.
   */
  tool(localName: string, opts: { includeUnavailable?: boolean } = {}): ToolDetail {
    if (opts.includeUnavailable === true && this.#state.entryForName(localName)?.tools.get(localName) === undefined) {
      const known = lastKnownTool(this.#state, localName);
      if (known) return { ...known.detail, revision: this.#state.revision };
    }
    const { entry, published } = this.#state.find(localName);
    return this.detail(entry, published);
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
      const entry = args.group.startsWith('mcp:') ? this.#state.entries.get(args.group.slice(4)) : undefined;
      if (!entry || !(entry.published || entry.stale)) throw new AppError('not_found', `No group "${args.group}"`);
      for (const name of membersOf(entry)) push(entry, entry.tools.get(name)!);
    }
    for (const name of args.tools ?? []) {
      const entry = this.#state.entryForName(name);
      const published = entry?.tools.get(name);
      if (entry && published) push(entry, published);
    }
    if (wanted.length === 0) throw new AppError('not_found', 'None of the requested tools exist');
    const tools: ToolDetail[] = [];
    const omitted: string[] = [];
    let bytes = 0;
    for (const { entry, published } of wanted) {
      const detail = this.detail(entry, published);
      const size = utf8(JSON.stringify(detail));
      if (tools.length >= SELECT_MAX_SCHEMAS || bytes + size > SELECT_BUDGET_BYTES) {
        omitted.push(detail.name);
        continue;
      }
      bytes += size;
      tools.push(detail);
    }
    const groupIds = new Set(wanted.map((w) => w.entry.id));
    const groups = this.#state
      .sortedEntries()
      .filter((e) => groupIds.has(e.id))
      .map((e) => this.group(e));
    return { tools, omitted, groups };
  }

  /** Ranked search across every server with filters and paging. */
  search(q: CatalogQuery): CatalogSearchResult {
    const serverFilter = q.serverIds ? new Set(q.serverIds) : undefined;
    const indexes = this.#state
      .sortedEntries()
      .filter((e) => e.index !== undefined && (serverFilter === undefined || serverFilter.has(e.id)))
      .map((e) => e.index!);
    // Last-known tools of servers that lost their secrets rank after live ones on ties (their indexes come last).
    const unavailable = q.includeUnavailable
      ? lastKnownTools(this.#state).filter((k) => serverFilter === undefined || serverFilter.has(k.serverId))
      : [];
    const lastKnown = new Map(unavailable.map((k) => [k.index, k] as const));
    indexes.push(...lastKnown.keys());
    const flagMask = q.annotation ? ANNOTATION_FLAG[q.annotation] : 0;
    const cacheKey = JSON.stringify([
      this.#state.revision,
      q.query,
      q.serverIds ?? null,
      q.annotation ?? null,
      unavailable.map((k) => k.signature),
    ]);
    let hits: SearchHit[];
    if (this.#state.searchCache?.key === cacheKey) hits = this.#state.searchCache.hits;
    else {
      hits = searchIndexes(indexes, q.query, flagMask);
      this.#state.searchCache = { key: cacheKey, hits };
    }
    const offset = q.offset ?? 0;
    const limit = q.limit ?? 200;
    const tools: ToolSummary[] = [];
    const serverIds = new Set<string>();
    for (const hit of hits.slice(offset, offset + limit)) {
      const known = lastKnown.get(hit.index)?.tools.get(hit.index.names[hit.id]!);
      if (known) {
        tools.push(known.summary);
        continue;
      }
      const entry = this.#state.entries.get(hit.index.serverId);
      const published = entry?.tools.get(hit.index.names[hit.id]!);
      if (!entry || !published) continue;
      tools.push(entry.stale ? { ...published.summary, stale: true } : published.summary);
      serverIds.add(entry.id);
    }
    const groups =
      q.includeGroups === false
        ? []
        : this.#state
            .sortedEntries()
            .filter((e) => serverIds.has(e.id))
            .map((e) => this.group(e));
    return { tools, total: hits.length, groups, revision: this.#state.revision };
  }
}
