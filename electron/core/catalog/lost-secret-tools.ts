// A tool of a server that cannot start because secrets its approved launch had are gone (a restart without an OS
// keychain loses them): after such a restart the server never listed, so its tools are not in the catalog, and a call
// by name would read "No tool named …". The catalog's listings are not kept across restarts; the tool approvals
// (pins, by server and original name) are, so a name is recognised as the server's by its prefix or by an approved
// tool's local name, and the call fails with `secret_missing` naming the secrets and the fix instead.
// The approvals also hold each tool's approved definition, so the person's views list those tools as they were last
// known, marked unavailable with the reason and the fix (`lastKnownTools`); the gateway never asks for them, so its
// clients are not offered tools that cannot run.
import type { ServerConfig } from '../../../shared/config.js';
import type { ToolAnnotationsView, ToolDetail, ToolSummary, ToolUnavailable } from '../../../shared/domains/catalog.js';
import { escapeUnsafe } from '../../../shared/domains/catalog-text.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { sanitizeText } from '../text.js';
import type { CatalogState } from './catalog-state.js';
import { assignLocalNames, baseLocalName, hashedLocalName, normalizeSegment } from './naming.js';
import type { PinRecord } from './pins.js';
import { ANN_DESTRUCTIVE, ANN_IDEMPOTENT, ANN_OPEN_WORLD, ANN_READ_ONLY, ServerIndex, type IndexInput } from './search-index.js';

/** The `secret_missing` error for a local name of a server whose launch lacks secrets, or undefined. */
export function lostSecretTool(state: CatalogState, localName: string): AppError | undefined {
  const refusal = state.deps.launchRefusal;
  if (!refusal) return undefined;
  for (const config of state.deps.configs()) {
    if (!belongsTo(state, config.id, localName)) continue;
    const missing = refusal(config)?.evidence?.missingSecrets ?? [];
    if (missing.length === 0) continue;
    return lostSecretError(config, localName, missing);
  }
  return undefined;
}

function belongsTo(state: CatalogState, serverId: string, localName: string): boolean {
  if (localName.startsWith(`mcp__${normalizeSegment(serverId)}__`)) return true;
  const prefix = `${serverId}\u0000`;
  for (const key of state.pins.keys()) {
    if (!key.startsWith(prefix)) continue;
    const original = key.slice(prefix.length);
    if (baseLocalName(serverId, original) === localName || hashedLocalName(serverId, original) === localName) return true;
  }
  return false;
}

function lostSecretError(config: ServerConfig, localName: string, missing: readonly string[]): AppError {
  const one = missing.length === 1;
  const names = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
  return new AppError(
    'secret_missing',
    `${localName.slice(0, 100)} is a tool of ${config.name}, which cannot start: secret missing: the secret${one ? '' : 's'} ${names} ` +
      `${one ? 'is' : 'are'} no longer stored. Enter ${one ? 'it' : 'them'} again on ${config.name}'s page, then approve its launch.`,
    { serverId: config.id, evidence: { missingSecrets: [...missing] } },
  );
}

const LIST_DESCRIPTION_CHARS = 240;

/** One last-known tool of a server that lost its secrets: what the person's views list and open. */
export interface LastKnownTool {
  summary: ToolSummary;
  detail: Omit<ToolDetail, 'revision'>;
}

/** The last-known tools of one server, with their search index. */
export interface LastKnownServer {
  serverId: string;
  /** Changes when what is listed would change (missing secrets, approvals of the server). */
  signature: string;
  tools: Map<string, LastKnownTool>;
  index: ServerIndex;
  /** Why none of them can be called, with the fix (the same on every tool). */
  unavailable: ToolUnavailable;
}

const cache = new WeakMap<CatalogState, Map<string, LastKnownServer>>();

/**
 * Every server that cannot start because its secrets are gone and has published nothing in this run, with its
 * tools as last approved (from the pins), in server-id order. Rebuilt only when a server's signature changes.
 */
export function lastKnownTools(state: CatalogState): LastKnownServer[] {
  const refusal = state.deps.launchRefusal;
  if (!refusal) return [];
  let byServer = cache.get(state);
  if (!byServer) cache.set(state, (byServer = new Map()));
  const out: LastKnownServer[] = [];
  const seen = new Set<string>();
  for (const config of [...state.deps.configs()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const entry = state.entries.get(config.id);
    if (entry && (entry.published || entry.stale)) continue;
    const missing = refusal(config)?.evidence?.missingSecrets ?? [];
    if (missing.length === 0) continue;
    const prefix = `${config.id}\u0000`;
    const pins: [string, PinRecord][] = [];
    for (const [key, record] of state.pins) if (key.startsWith(prefix)) pins.push([key.slice(prefix.length), record]);
    if (pins.length === 0) continue;
    const signature = JSON.stringify([config.name, missing, pins.map(([name, r]) => [name, r.fingerprint])]);
    seen.add(config.id);
    const cached = byServer.get(config.id);
    if (cached && cached.signature === signature) {
      out.push(cached);
      continue;
    }
    const built = build(state, config, missing, pins, signature);
    byServer.set(config.id, built);
    out.push(built);
  }
  for (const id of [...byServer.keys()]) if (!seen.has(id)) byServer.delete(id);
  return out;
}

/** One last-known tool by local name, or undefined. */
export function lastKnownTool(state: CatalogState, localName: string): LastKnownTool | undefined {
  for (const server of lastKnownTools(state)) {
    const tool = server.tools.get(localName);
    if (tool) return tool;
  }
  return undefined;
}

function build(
  state: CatalogState,
  config: ServerConfig,
  missing: readonly string[],
  pins: readonly [string, PinRecord][],
  signature: string,
): LastKnownServer {
  const originals = pins.map(([name]) => name).sort();
  // The names the tools would get if the server listed them now: another server's published name is not taken.
  const { names } = assignLocalNames(config.id, originals, new Map(), (name) => {
    const owner = state.owners.get(name);
    return owner !== undefined && owner !== config.id;
  });
  const unavailable = unavailableReason(config, missing);
  const tools = new Map<string, LastKnownTool>();
  const inputs: IndexInput[] = [];
  for (const [original, record] of pins) {
    const localName = names.get(original);
    if (localName === undefined) continue;
    const def = record.definition;
    const annotations = annotationsView(def.annotations);
    const description = sanitizeText(typeof def.description === 'string' ? def.description : '');
    const summary: ToolSummary = {
      name: localName,
      originalName: escapeUnsafe(original),
      serverId: config.id,
      ...(annotations.title !== undefined ? { title: annotations.title } : {}),
      description: description.length > LIST_DESCRIPTION_CHARS ? `${description.slice(0, LIST_DESCRIPTION_CHARS)}…` : description,
      annotations,
      appOnly: false,
      pin: 'approved',
      unavailable,
    };
    const inputSchema = isObject(def.inputSchema) ? def.inputSchema : { type: 'object' };
    const detail: Omit<ToolDetail, 'revision'> = {
      ...summary,
      fullDescription: description,
      inputSchema,
      ...(isObject(def.outputSchema) ? { outputSchema: def.outputSchema } : {}),
      fingerprint: record.fingerprint,
      diff: [],
    };
    tools.set(localName, { summary, detail });
    inputs.push({ localName, originalName: original, title: summary.title, description, flags: flagsOf(annotations) });
  }
  return { serverId: config.id, signature, tools, index: new ServerIndex(config.id, inputs), unavailable };
}

function unavailableReason(config: ServerConfig, missing: readonly string[]): ToolUnavailable {
  const one = missing.length === 1;
  const names = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` and ${missing.length - 10} more` : '');
  return {
    reason: 'secret_missing',
    missingSecrets: [...missing],
    message:
      `The secret${one ? '' : 's'} ${names} ${one ? 'was' : 'were'} lost when Switchboard restarted — enter ${one ? 'it' : 'them'} ` +
      `again on ${sanitizeText(config.name)}'s page, then approve its launch. Until then this tool cannot be called.`,
  };
}

function annotationsView(raw: unknown): ToolAnnotationsView {
  if (!isObject(raw)) return {};
  const out: ToolAnnotationsView = {};
  if (typeof raw['readOnlyHint'] === 'boolean') out.readOnlyHint = raw['readOnlyHint'];
  if (typeof raw['destructiveHint'] === 'boolean') out.destructiveHint = raw['destructiveHint'];
  if (typeof raw['idempotentHint'] === 'boolean') out.idempotentHint = raw['idempotentHint'];
  if (typeof raw['openWorldHint'] === 'boolean') out.openWorldHint = raw['openWorldHint'];
  if (typeof raw['title'] === 'string') out.title = sanitizeText(raw['title']);
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
