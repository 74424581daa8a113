// The discovery helpers a progressive client starts with, over the catalog's capability groups and search:
// `tools_groups` (compact directory, no schemas), `tools_select` (full schemas of a group or named tools, added to
// the session's tool list) and `tools_search` (ranked matches with their groups). Every output stays within the
// discovery budget (256 KiB); a session accumulates at most 128 definitions / 256 KiB. All of it is limited to
// what the client's profile sees.
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CatalogSelection, GroupCard } from '../../../shared/domains/catalog.js';
import { AppError } from '../../../shared/errors.js';
import { SELECT_BUDGET_BYTES, SELECT_MAX_SCHEMAS } from '../catalog/catalog.js';
import { sanitizeText, truncate } from '../text.js';
import type { ProfileView } from './profile.js';
import { SESSION_MAX_BYTES, SESSION_MAX_DEFINITIONS, type SessionScope } from './session-scope.js';
import { toolDefinition, type GatewayCatalog, type VisibleTools } from './tool-listing.js';

/** What the discovery tools read. */
export interface DiscoveryContext {
  view: ProfileView;
  scope: SessionScope;
  catalog: GatewayCatalog;
  visible(): VisibleTools;
  /** Why a server cannot be used right now (e.g. it needs sign-in), for the directory. */
  serverNote(serverId: string): string | undefined;
  /** A server's display name. */
  serverName(serverId: string): string;
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/** The discovery tools' definitions. */
export const DISCOVERY_TOOLS: Tool[] = [
  {
    name: 'tools_groups',
    title: 'List tool groups',
    description:
      'Lists the capability groups (one per connected server) as a compact directory: id, title, description and member count, no schemas. Start here, then call tools_select with a group id.',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: READ_ONLY,
  },
  {
    name: 'tools_select',
    title: 'Select tools',
    description:
      "Returns the full schemas of a group's tools (`group`) or of tools named exactly (`tools`) and adds them to this session's tool list (you then get notifications/tools/list_changed). Schemas that do not fit the output budget are named in `omitted`; select those by exact name. `clear` first drops the session's earlier selections.",
    inputSchema: {
      type: 'object',
      properties: {
        group: { type: 'string', description: 'A group id from tools_groups, e.g. "mcp:github".' },
        tools: { type: 'array', items: { type: 'string' }, maxItems: SELECT_MAX_SCHEMAS, description: 'Exact tool names.' },
        clear: { type: 'boolean', description: "Drop this session's earlier selections first." },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  {
    name: 'tools_search',
    title: 'Search tools',
    description:
      'Ranked, typo-tolerant search over the names, titles and descriptions of every tool you may use. Returns compact matches (no schemas) with their groups; pass the names to tools_select to get schemas.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 500 },
        limit: { type: 'integer', minimum: 1, maximum: 50, description: 'Matches to return (default 20).' },
        annotation: { type: 'string', enum: ['readOnly', 'destructive', 'idempotent', 'openWorld'] },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: READ_ONLY,
  },
];

const SelectArgs = z
  .object({
    group: z.string().max(200).optional(),
    tools: z.array(z.string().max(512)).max(SELECT_MAX_SCHEMAS).optional(),
    clear: z.boolean().optional(),
  })
  .strict();
const SearchArgs = z
  .object({
    query: z.string().max(500),
    limit: z.number().int().min(1).max(50).optional(),
    annotation: z.enum(['readOnly', 'destructive', 'idempotent', 'openWorld']).optional(),
  })
  .strict();

const bytesOf = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');
const text = (s: string, max: number): string => truncate(sanitizeText(s), max);

function textResult(value: unknown, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], ...(isError ? { isError: true } : {}) };
}

/** A tool-level error for a discovery call. */
function discoveryError(message: string): CallToolResult {
  return textResult({ error: message }, true);
}

interface GroupOut {
  id: string;
  title: string;
  description: string;
  instructions?: string;
  member_count: number;
  members?: string[];
  members_truncated?: true;
  status?: string;
}

function groupOut(card: GroupCard, ctx: DiscoveryContext, members: number | undefined): GroupOut {
  const note = ctx.serverNote(card.serverId);
  const all = card.members ?? [];
  const shown = members === undefined ? undefined : all.slice(0, members);
  return {
    id: card.id,
    title: text(card.title, 512),
    description: text(card.description, 2048),
    ...(card.instructions && members !== undefined ? { instructions: text(card.instructions, 8192) } : {}),
    member_count: card.memberCount,
    ...(shown ? { members: shown } : {}),
    ...(shown && shown.length < all.length ? { members_truncated: true as const } : {}),
    ...(note ? { status: note } : {}),
  };
}

/** Shrinks the member lists of groups until `build()` fits the budget; returns the fitted output. */
function fitGroups<T>(build: (members: number) => T, budget: number): T {
  for (const members of [200, 50, 10, 0]) {
    const out = build(members);
    if (bytesOf(out) <= budget) return out;
  }
  return build(0);
}

/** tools_groups: the directory of the groups the profile sees, plus its servers that cannot be used now. */
function groups(ctx: DiscoveryContext): CallToolResult {
  const cards = ctx.catalog.groups(false).filter((g) => ctx.view.sees(g.serverId));
  const listed = new Set(cards.map((c) => c.serverId));
  const out: GroupOut[] = [];
  let bytes = 200;
  let truncated = 0;
  const unlisted = ctx.view
    .servers()
    .filter((id) => !listed.has(id) && ctx.serverNote(id) !== undefined)
    .map((id): GroupOut => ({
      id: `mcp:${id}`,
      title: text(ctx.serverName(id), 512),
      description: 'No tools are available from this server right now.',
      member_count: 0,
      status: ctx.serverNote(id)!,
    }));
  for (const g of [...cards.map((c) => groupOut(c, ctx, undefined)), ...unlisted]) {
    const size = bytesOf(g) + 1;
    if (bytes + size > SELECT_BUDGET_BYTES) {
      truncated++;
      continue;
    }
    bytes += size;
    out.push(g);
  }
  return textResult({
    groups: out,
    ...(truncated > 0 ? { groups_omitted: truncated } : {}),
    hint: 'Call tools_select with {"group": "<id>"} to get the schemas of a group and add its tools to your tool list, or tools_search to find tools by what they do.',
  });
}

/**
 * Fits a selection into `budget`: group member lists shrink first, then schemas move (from the end) to the
 * omitted names, and the omitted names themselves are listed only as far as they fit (`omitted_count` gives all).
 */
function fitSelection(defs: Tool[], omitted: string[], groupsFor: (members: number) => GroupOut[], budget: number) {
  const build = (kept: number, members: number, shown: number) => {
    const all = [...defs.slice(kept).map((d) => d.name), ...omitted];
    return {
      tools: defs.slice(0, kept),
      omitted: all.slice(0, shown),
      ...(shown < all.length ? { omitted_count: all.length, omitted_truncated: true } : {}),
      groups: groupsFor(members),
    };
  };
  const everything = defs.length + omitted.length;
  for (const members of [200, 50, 10]) {
    const out = build(defs.length, members, everything);
    if (bytesOf(out) <= budget) return out;
  }
  // Schemas in order while they fit (sizes summed, not re-serialized per step), then checked once.
  let kept = 0;
  let used = bytesOf(build(0, 0, 0));
  for (const d of defs) {
    const cost = bytesOf(d) + 1;
    if (used + cost > budget) break;
    used += cost;
    kept++;
  }
  while (kept > 0 && bytesOf(build(kept, 0, 0)) > budget) kept--;
  const base = bytesOf(build(kept, 0, 0));
  const names = [...defs.slice(kept).map((d) => d.name), ...omitted];
  let room = budget - base - 64;
  let shown = 0;
  for (const n of names) {
    const cost = Buffer.byteLength(n, 'utf8') + 3;
    if (cost > room) break;
    room -= cost;
    shown++;
  }
  return build(kept, 0, shown);
}

/** tools_select: schemas of a group or of named tools, added to the session within its budget. */
function select(rawArgs: unknown, ctx: DiscoveryContext): CallToolResult {
  const parsed = SelectArgs.safeParse(rawArgs ?? {});
  if (!parsed.success) return discoveryError(`Invalid arguments: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const { group, tools: names, clear } = parsed.data;
  if (group === undefined && (names === undefined || names.length === 0) && !clear)
    return discoveryError('Give a "group" id (from tools_groups) or "tools" (exact names).');
  const visible = ctx.visible();
  const unknown = (names ?? []).filter((n) => !visible.byLocal.has(n));
  const known = (names ?? []).filter((n) => visible.byLocal.has(n));
  if (group !== undefined && !(group.startsWith('mcp:') && ctx.view.sees(group.slice(4))))
    return discoveryError(`No group "${text(group, 200)}"`);
  const cleared = clear === true ? ctx.scope.clear(group === undefined && known.length === 0) : false;
  let selection: CatalogSelection = { tools: [], omitted: [], groups: [] };
  if (group !== undefined || known.length > 0) {
    try {
      selection = ctx.catalog.select({ ...(group !== undefined ? { group } : {}), ...(known.length > 0 ? { tools: known } : {}) });
    } catch (err) {
      if (!cleared) return discoveryError(err instanceof AppError ? err.message : 'Nothing could be selected');
    }
  }
  const details = selection.tools.filter((d) => visible.byLocal.has(d.name));
  const defs = details.map((d) => toolDefinition(d, d.name));
  const omitted = [...selection.omitted.filter((n) => visible.byLocal.has(n))];
  const cards = selection.groups.filter((g) => ctx.view.sees(g.serverId));
  const out = fitSelection(defs, omitted, (members) => cards.map((c) => groupOut(c, ctx, members)), SELECT_BUDGET_BYTES - 8 * 1024);
  const outcome = ctx.scope.add(out.tools.map((d) => ({ name: d.name, bytes: visible.byLocal.get(d.name)?.bytes ?? bytesOf(d) })));
  const usage = ctx.scope.usage();
  return textResult({
    ...out,
    ...(unknown.length > 0 ? { unknown: unknown.slice(0, 50) } : {}),
    session: {
      added: outcome.added.length,
      ...(outcome.refused.length > 0 ? { not_added: outcome.refused.slice(0, 50) } : {}),
      ...(cleared ? { cleared: true } : {}),
      definitions: usage.definitions,
      bytes: usage.bytes,
      max_definitions: SESSION_MAX_DEFINITIONS,
      max_bytes: SESSION_MAX_BYTES,
    },
    hint:
      outcome.refused.length > 0
        ? 'This session reached its budget of selected tools; call tools_select with "clear": true to start over.'
        : 'The selected tools are now in your tool list.',
  });
}

/** tools_search: ranked matches the profile may use, with their groups. */
function search(rawArgs: unknown, ctx: DiscoveryContext): CallToolResult {
  const parsed = SearchArgs.safeParse(rawArgs ?? {});
  if (!parsed.success) return discoveryError(`Invalid arguments: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const { query, limit = 20, annotation } = parsed.data;
  const servers = ctx.view.servers();
  if (servers.length === 0) return textResult({ tools: [], total: 0, groups: [] });
  const visible = ctx.visible();
  const found = ctx.catalog.search({ query, serverIds: servers, limit: limit * 4, ...(annotation ? { annotation } : {}) });
  const tools = found.tools
    .filter((t) => visible.byLocal.has(t.name))
    .slice(0, limit)
    .map((t) => ({
      name: t.name,
      ...(t.title !== undefined ? { title: text(t.title, 512) } : {}),
      description: text(t.description, 1024),
      server: t.serverId,
      ...(Object.keys(t.annotations).length > 0 ? { annotations: t.annotations } : {}),
    }));
  const ids = new Set(tools.map((t) => t.server));
  const cards = found.groups.filter((g) => ids.has(g.serverId) && ctx.view.sees(g.serverId));
  const build = (members: number) => ({ tools, total: found.total, groups: cards.map((c) => groupOut(c, ctx, Math.min(members, 50))) });
  return textResult({
    ...fitGroups(build, SELECT_BUDGET_BYTES - 1024),
    hint: 'Call tools_select with {"tools": [names]} to get their schemas and add them to your tool list.',
  });
}

/** Runs a discovery tool, or returns undefined when `name` is not one. */
export function runDiscoveryTool(name: string, args: unknown, ctx: DiscoveryContext): CallToolResult | undefined {
  switch (name) {
    case 'tools_groups':
      return groups(ctx);
    case 'tools_select':
      return select(args, ctx);
    case 'tools_search':
      return search(args, ctx);
    default:
      return undefined;
  }
}
