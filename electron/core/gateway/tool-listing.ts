// The tools a profile sees, as MCP tool definitions: every callable member of its visible capability groups
// (published, model-visible, approved), under the local name `mcp__<server>__<tool>` or, for an original-names
// profile, the server's own name. Built from the catalog's published snapshot and cached per catalog revision.
import type { AppError } from '../../../shared/errors.js';
import type { Tool } from '@modelcontextprotocol/server';
import type { CatalogQuery, CatalogSearchResult, CatalogSelection, GroupCard, ToolDetail } from '../../../shared/domains/catalog.js';
import type { ToolRoute } from '../catalog/catalog-port.js';
import type { ProfileView } from './profile.js';

/** What the gateway reads from the catalog (the same catalog the UI reads). */
export interface GatewayCatalog {
  /** Current revision (bumps on every publication). */
  readonly revision: number;
  /** The groups directory. */
  groups(withMembers?: boolean): GroupCard[];
  /** One published tool. */
  tool(localName: string): ToolDetail;
  /** Why a name not in the catalog is still a tool of a server that lost its secrets (`secret_missing`), or undefined. */
  lostSecretTool?(localName: string): AppError | undefined;
  /** Budgeted schema selection. */
  select(args: { group?: string; tools?: string[] }): CatalogSelection;
  /** Ranked search. */
  search(q: CatalogQuery): CatalogSearchResult;
  /** The route of a local name (refreshing a dirty server first). */
  route(localName: string, signal?: AbortSignal): Promise<ToolRoute>;
}

/** One tool as a gateway client sees it. */
export interface GatewayTool {
  /** The name the client uses. */
  name: string;
  /** The catalog's local name. */
  localName: string;
  /** Server id. */
  serverId: string;
  /** The definition sent in tools/list. */
  def: Tool;
  /** Bytes of the definition as JSON. */
  bytes: number;
}

/** The tools one profile sees at one catalog revision. */
export interface VisibleTools {
  revision: number;
  tools: GatewayTool[];
  byName: Map<string, GatewayTool>;
  byLocal: Map<string, GatewayTool>;
}

/** An MCP tool definition from a catalog detail (sanitized text, schemas as listed). */
export function toolDefinition(detail: ToolDetail, name: string): Tool {
  const input = detail.inputSchema;
  const inputSchema = input && typeof input === 'object' && input['type'] === 'object' ? input : { type: 'object', ...(input ?? {}) };
  const a = detail.annotations;
  const annotations = Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined));
  const description = detail.schemaOmitted
    ? `${detail.fullDescription}\n\n(Its input schema was too large for Switchboard's budget and is omitted.)`.trim()
    : detail.fullDescription;
  return {
    name,
    ...(detail.title !== undefined ? { title: detail.title } : {}),
    description,
    inputSchema: inputSchema as Tool['inputSchema'],
    ...(detail.outputSchema ? { outputSchema: detail.outputSchema as Tool['outputSchema'] } : {}),
    ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
  };
}

const CACHE_SIZE = 8;

/** Builds and caches the visible tools of profiles. */
export class ToolListing {
  readonly #catalog: GatewayCatalog;
  readonly #cache = new Map<string, VisibleTools>();

  constructor(catalog: GatewayCatalog) {
    this.#catalog = catalog;
  }

  /** The tools a profile sees now. */
  visible(view: ProfileView): VisibleTools {
    const revision = this.#catalog.revision;
    const key = `${revision}|${view.key}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const tools: GatewayTool[] = [];
    for (const group of this.#catalog.groups(true)) {
      if (!view.sees(group.serverId)) continue;
      for (const localName of group.members ?? []) {
        let detail: ToolDetail;
        try {
          detail = this.#catalog.tool(localName);
        } catch {
          continue;
        }
        const name = view.original ? detail.originalName : localName;
        const def = toolDefinition(detail, name);
        tools.push({ name, localName, serverId: group.serverId, def, bytes: Buffer.byteLength(JSON.stringify(def), 'utf8') });
      }
    }
    const result: VisibleTools = {
      revision,
      tools,
      byName: new Map(tools.map((t) => [t.name, t])),
      byLocal: new Map(tools.map((t) => [t.localName, t])),
    };
    this.#cache.set(key, result);
    for (const old of this.#cache.keys()) {
      if (this.#cache.size <= CACHE_SIZE) break;
      this.#cache.delete(old);
    }
    return result;
  }
}
