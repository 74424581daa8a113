// Contract types for the tool catalog (issue: catalog). Owned by the catalog work.
import { z } from 'zod';
import type { ToolUi } from './apps.js';

/** Hints a server gave about a tool; never treated as approval. */
export interface ToolAnnotationsView {
  /** Tool only reads. */
  readOnlyHint?: boolean;
  /** Tool may destroy data. */
  destructiveHint?: boolean;
  /** Repeated calls have no extra effect. */
  idempotentHint?: boolean;
  /** Tool reaches an open world (network, ...). */
  openWorldHint?: boolean;
  /** Server-given title in the annotations. */
  title?: string;
}

/** Whether the user approved a tool's current definition. */
export type PinState = 'approved' | 'changed';

/** Why a listed tool cannot be called now; the tool is shown from its last-known (approved) definition. */
export interface ToolUnavailable {
  /** Its server cannot start because secrets its approved launch had are gone (a restart without an OS keychain). */
  reason: 'secret_missing';
  /** Names of the lost secrets (env names, never values). */
  missingSecrets: string[];
  /** What happened and the fix, in the words the person sees. */
  message: string;
}

/** One catalog row: enough to list and search, no schemas. */
export interface ToolSummary {
  /** Stable local name `mcp__<server>__<tool>`. */
  name: string;
  /** The tool's original MCP name. */
  originalName: string;
  /** Server that offers it. */
  serverId: string;
  /** Display title (sanitized). */
  title?: string;
  /** Description, sanitized and shortened for lists. */
  description: string;
  /** Server hints. */
  annotations: ToolAnnotationsView;
  /** MCP Apps visibility excludes the model: shown but marked app-only. */
  appOnly: boolean;
  /** The tool has an MCP App (`_meta.ui.resourceUri`): its results can be shown in the app. */
  hasApp?: boolean;
  /** Pin state of its definition. */
  pin: PinState;
  /** The server's catalog is stale (its last listing was rejected); this row comes from the last good snapshot. */
  stale?: boolean;
  /** Set when the tool is not callable now: a last-known tool of a server that lost its secrets (never in the gateway). */
  unavailable?: ToolUnavailable;
}

/** A change between the approved and the current definition of a tool. */
export interface PinDiffEntry {
  /** Which part changed: description, inputSchema, outputSchema, annotations, title. */
  field: string;
  /** The approved value, pretty-printed. */
  before: string;
  /** The current value, pretty-printed. */
  after: string;
}

/** Everything the tool detail panel shows. */
export interface ToolDetail extends ToolSummary {
  /** Full description (sanitized). */
  fullDescription: string;
  /** JSON Schema of the arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of structured results, when given. */
  outputSchema?: Record<string, unknown>;
  /** Catalog revision the route belongs to. */
  revision: number;
  /** Fingerprint of the current definition; sent back with catalog.approveTool. */
  fingerprint: string;
  /** What changed since approval, when pin is 'changed'. */
  diff: PinDiffEntry[];
  /** App-only tools skip the schema budget; an over-budget schema is replaced by `{}` and flagged here. */
  schemaOmitted?: boolean;
  /** MCP Apps metadata (`_meta.ui`): the app's resource and who may use the tool. */
  ui?: ToolUi;
}

/** One capability group (one per server). */
export interface GroupCard {
  /** `mcp:<server>`. */
  id: string;
  /** Server id. */
  serverId: string;
  /** Server title, else "MCP server <id>". */
  title: string;
  /** Server description or a generic line. */
  description: string;
  /** Server instructions (untrusted, sanitized). */
  instructions?: string;
  /** Number of callable members. */
  memberCount: number;
  /** Local names of the members; over the bridge only when asked for (`includeMembers`), as 20,000 names are ~500 KB. */
  members?: string[];
  /** Set when the last listing was rejected and an older snapshot is shown. */
  stale?: { reason: string; since: number };
  /** Tools shown for this server (members plus app-only and changed tools). */
  toolCount: number;
  /** Number of event types the server offers (MCP Events extension), when it offers any. */
  eventTypeCount?: number;
  /** Names of the first 20 of those event types (sanitized, cut to 80 characters). */
  eventTypes?: string[];
  /** Set on the card of a server that lost its secrets: its last-known tools are listed, none callable (person's views only). */
  unavailable?: ToolUnavailable;
}

/** Filters for a catalog search. */
export interface CatalogQuery {
  /** Free text over name, title and description. */
  query: string;
  /** Only these servers. */
  serverIds?: string[];
  /** Only tools whose hint matches. */
  annotation?: 'readOnly' | 'destructive' | 'idempotent' | 'openWorld';
  /** Page start. */
  offset?: number;
  /** Page size (default 200, at most 25,000). */
  limit?: number;
  /** Attach the groups of the returned tools (default true; the UI turns it off). */
  includeGroups?: boolean;
  /** Also list last-known tools that cannot be called now, marked `unavailable` (the person's views; never the gateway). */
  includeUnavailable?: boolean;
}

/** A page of search results. */
export interface CatalogSearchResult {
  /** Matching tools, best first. */
  tools: ToolSummary[];
  /** Total matches before paging. */
  total: number;
  /** Groups the returned tools belong to. */
  groups: GroupCard[];
  /** Current catalog revision. */
  revision: number;
}

/** Result of expanding a group or named tools with full schemas within the byte budget. */
export interface CatalogSelection {
  /** Tools with schemas. */
  tools: ToolDetail[];
  /** Names whose schemas did not fit the budget. */
  omitted: string[];
  /** Groups the tools belong to. */
  groups: GroupCard[];
}

/** Outcome of a refresh per server. */
export interface RefreshReport {
  /** One line per refreshed server. */
  servers: { id: string; ok: boolean; error?: string; toolCount: number; stale?: boolean }[];
  /** Catalog revision after the refresh. */
  revision: number;
}

/** Catalog methods: name → (argument object) → result. */
export interface CatalogInvokeMap {
  /** The capability groups directory (one per server, no schemas). */
  'catalog.groups': (args: { includeMembers?: boolean; includeUnavailable?: boolean }) => Promise<GroupCard[]>;
  /** Full schemas of a group's members or of named tools, within the discovery byte budget. */
  'catalog.select': (args: { group?: string; tools?: string[] }) => Promise<CatalogSelection>;
  /** Ranked search across every server, with filters and paging. */
  'catalog.search': (args: CatalogQuery) => Promise<CatalogSearchResult>;
  /** One tool's detail by local name. */
  'catalog.tool': (args: { name: string }) => Promise<ToolDetail>;
  /** Re-lists tools of one server or all (clears the response cache first). */
  'catalog.refresh': (args: { id?: string }) => Promise<RefreshReport>;
  /** Approves a tool's current definition (the fingerprint the user saw). */
  'catalog.approveTool': (args: { name: string; fingerprint: string }) => Promise<ToolDetail>;
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const localName = z.string().min(1).max(512);

/** Validators for catalog.* arguments. */
export const catalogArgSchemas = {
  'catalog.groups': z.object({ includeMembers: z.boolean().optional(), includeUnavailable: z.boolean().optional() }).strict(),
  'catalog.select': z
    .object({ group: z.string().max(200).optional(), tools: z.array(localName).max(2048).optional() })
    .strict()
    .refine((a) => a.group !== undefined || (a.tools !== undefined && a.tools.length > 0), 'Give a group or tool names'),
  'catalog.search': z
    .object({
      query: z.string().max(1000),
      serverIds: z.array(z.string().max(200)).max(1000).optional(),
      annotation: z.enum(['readOnly', 'destructive', 'idempotent', 'openWorld']).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(25_000).optional(),
      includeGroups: z.boolean().optional(),
      includeUnavailable: z.boolean().optional(),
    })
    .strict(),
  'catalog.tool': z.object({ name: localName }).strict(),
  'catalog.refresh': z.object({ id: z.string().max(200).optional() }).strict(),
  'catalog.approveTool': z.object({ name: localName, fingerprint: z.string().min(1).max(200) }).strict(),
} as const;
