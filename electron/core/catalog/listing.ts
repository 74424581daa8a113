// One server's `tools/list`, page by page, within its budgets (seed 000 "Catalog Consistency And Budgets"):
// pages, cursor size, repeated cursors, duplicate raw names, then per published tool the schema, description and
// title budgets. Excluded and app-only tools never fail their server. Nothing here dereferences a `$ref`.
import type { Client, Tool } from '@modelcontextprotocol/client';
import * as z from 'zod';
import type { Limits } from '../../../shared/config.js';
import { AppError } from '../../../shared/errors.js';
import { jsonDepth } from '../ingress/depth.js';
import { VIEW_MAX_DEPTH } from '../ingress/limits.js';
import { isAppOnly } from '../apps/tool-ui.js';

/** Per-server allow and deny lists of original tool names. */
export interface ToolFilter {
  allow?: string[] | undefined;
  deny: string[];
}

/** A tool that passed the budgets and will be published. */
export interface ListedTool {
  /** The tool as listed (schemas adapted, nothing else changed). */
  tool: Tool;
  /** MCP Apps visibility excludes the model. */
  appOnly: boolean;
  /** App-only tool whose schema was over budget and is shown as `{}`. */
  schemaOmitted: boolean;
}

/** A complete, validated listing. */
export interface Listing {
  tools: ListedTool[];
  /** Tools left out by the allow/deny lists. */
  excluded: number;
  /** Pages fetched. */
  pages: number;
  /** SEP-2549 freshness of the first page, when the server gave one. */
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
}

/** Options for one listing. */
export interface ListingOptions {
  limits: Limits;
  filter: ToolFilter;
  signal?: AbortSignal;
  /** Per-request timeout (ms). */
  timeoutMs?: number;
  serverId: string;
}

// A deliberately loose page shape: we validate tools ourselves so that a null `properties` can be adapted and so
// that one bad excluded tool cannot fail the listing.
const PageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
  ttlMs: z.number().optional(),
  cacheScope: z.string().optional(),
});

const utf8 = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Deepest nesting of a published tool's input or output schema (what the renderer's form is given). */
export const SCHEMA_MAX_DEPTH = VIEW_MAX_DEPTH;

function reject(serverId: string, message: string): AppError {
  return new AppError('catalog_invalid', message, { serverId, evidence: { phase: 'listing' } });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SUBSCHEMA_KEYS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames'] as const;
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SUBSCHEMA_MAPS = ['properties', '$defs', 'definitions', 'patternProperties'] as const;

function isObjectSchema(s: Record<string, unknown>): boolean {
  const t = s['type'];
  return t === 'object' || (Array.isArray(t) && t.includes('object'));
}

/**
 * Fills a missing or null `properties` on object schemas (recursively through subschemas); everything else —
 * constraints, compositions, `$ref`s — is preserved untouched. Returns the same object when nothing changed.
 */
export function adaptSchema(schema: Record<string, unknown>, depth = 0): Record<string, unknown> {
  if (depth > 64) return schema;
  let out: Record<string, unknown> | undefined;
  const write = (key: string, value: unknown): void => {
    out ??= { ...schema };
    out[key] = value;
  };
  if (isObjectSchema(schema) && (schema['properties'] === undefined || schema['properties'] === null)) write('properties', {});
  for (const key of SUBSCHEMA_KEYS) {
    const sub = schema[key];
    if (isPlainObject(sub)) {
      const next = adaptSchema(sub, depth + 1);
      if (next !== sub) write(key, next);
    }
  }
  for (const key of SUBSCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    let changed = false;
    const next = list.map((item: unknown) => {
      if (!isPlainObject(item)) return item;
      const adapted = adaptSchema(item, depth + 1);
      if (adapted !== item) changed = true;
      return adapted;
    });
    if (changed) write(key, next);
  }
  for (const key of SUBSCHEMA_MAPS) {
    const map = schema[key];
    if (!isPlainObject(map)) continue;
    let next: Record<string, unknown> | undefined;
    for (const [name, sub] of Object.entries(map)) {
      if (!isPlainObject(sub)) continue;
      const adapted = adaptSchema(sub, depth + 1);
      if (adapted !== sub) {
        next ??= { ...map };
        next[name] = adapted;
      }
    }
    if (next) write(key, next);
  }
  return out ?? schema;
}

/** Checks one tool that would be published; returns it adapted, or throws the budget it broke. */
function admit(raw: Record<string, unknown>, name: string, appOnly: boolean, o: ListingOptions): ListedTool {
  const { limits, serverId } = o;
  const fail = (what: string): never => {
    throw reject(serverId, `Tool "${name.slice(0, 80)}" ${what}`);
  };
  const description = raw['description'];
  if (description !== undefined && typeof description !== 'string') fail('has a description that is not text');
  const title = raw['title'];
  if (title !== undefined && typeof title !== 'string') fail('has a title that is not text');
  const annotations = raw['annotations'];
  if (annotations !== undefined && !isPlainObject(annotations)) fail('has malformed annotations');
  const annTitle = isPlainObject(annotations) ? annotations['title'] : undefined;
  const input = raw['inputSchema'];
  if (!isPlainObject(input)) fail('has no input schema object');
  const output = raw['outputSchema'];
  if (output !== undefined && !isPlainObject(output)) fail('has an output schema that is not an object');

  let tool = raw as unknown as Tool;
  let schemaOmitted = false;
  const overText = (s: unknown, max: number): boolean => typeof s === 'string' && utf8(s) > max;
  // Depth first: a schema nested deeper than the renderer's form can walk is over budget whatever its size, and
  // measuring its bytes would walk it recursively.
  const inputDeep = jsonDepth(input, SCHEMA_MAX_DEPTH) > SCHEMA_MAX_DEPTH;
  const outputDeep = output !== undefined && jsonDepth(output, SCHEMA_MAX_DEPTH) > SCHEMA_MAX_DEPTH;
  const inputBytes = inputDeep ? Infinity : utf8(JSON.stringify(input));
  const outputBytes = output === undefined ? 0 : outputDeep ? Infinity : utf8(JSON.stringify(output));
  if (appOnly) {
    // Budgets do not fail the server for app-only tools; clamp what is shown instead.
    if (inputBytes > limits.schemaBytes || outputBytes > limits.schemaBytes) {
      const { outputSchema: _drop, ...rest } = tool;
      tool = { ...rest, inputSchema: { type: 'object', properties: {} } };
      schemaOmitted = true;
    }
    if (overText(description, limits.descriptionBytes))
      tool = { ...tool, description: (description as string).slice(0, limits.descriptionBytes) };
    if (overText(title, limits.titleBytes)) tool = { ...tool, title: (title as string).slice(0, limits.titleBytes) };
  } else {
    if (inputDeep) fail(`has an input schema nested deeper than ${SCHEMA_MAX_DEPTH} levels (budget ${SCHEMA_MAX_DEPTH} levels)`);
    if (outputDeep) fail(`has an output schema nested deeper than ${SCHEMA_MAX_DEPTH} levels (budget ${SCHEMA_MAX_DEPTH} levels)`);
    if (inputBytes > limits.schemaBytes) fail(`has an input schema of ${inputBytes} bytes (budget ${limits.schemaBytes})`);
    if (outputBytes > limits.schemaBytes) fail(`has an output schema of ${outputBytes} bytes (budget ${limits.schemaBytes})`);
    if (overText(description, limits.descriptionBytes)) fail(`has a description over ${limits.descriptionBytes} bytes`);
    if (overText(title, limits.titleBytes) || overText(annTitle, limits.titleBytes)) fail(`has a title over ${limits.titleBytes} bytes`);
  }
  if (!schemaOmitted) {
    const adaptedIn = adaptSchema(tool.inputSchema as Record<string, unknown>);
    if (adaptedIn !== tool.inputSchema) tool = { ...tool, inputSchema: adaptedIn as Tool['inputSchema'] };
    if (tool.outputSchema !== undefined) {
      const adaptedOut = adaptSchema(tool.outputSchema as Record<string, unknown>);
      if (adaptedOut !== tool.outputSchema) tool = { ...tool, outputSchema: adaptedOut as NonNullable<Tool['outputSchema']> };
    }
  }
  return { tool, appOnly, schemaOmitted };
}

/** Lists every page of a server's tools within its budgets, or throws `catalog_invalid` / `limit_exceeded`. */
export async function fetchListing(client: Client, o: ListingOptions): Promise<Listing> {
  const { limits, filter, serverId } = o;
  const deny = new Set(filter.deny);
  const allow = filter.allow ? new Set(filter.allow) : undefined;
  const seenCursors = new Set<string>();
  const seenNames = new Set<string>();
  const tools: ListedTool[] = [];
  let excluded = 0;
  let pages = 0;
  let cursor: string | undefined;
  let ttlMs: number | undefined;
  let cacheScope: 'public' | 'private' | undefined;
  for (;;) {
    if (pages >= limits.catalogPages)
      throw new AppError('limit_exceeded', `The tool list has more than ${limits.catalogPages} pages`, { serverId });
    const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, PageSchema, {
      ...(o.signal ? { signal: o.signal } : {}),
      ...(o.timeoutMs ? { timeout: o.timeoutMs } : {}),
    });
    o.signal?.throwIfAborted();
    if (pages === 0) {
      if (typeof page.ttlMs === 'number' && page.ttlMs > 0) ttlMs = page.ttlMs;
      if (page.cacheScope === 'public' || page.cacheScope === 'private') cacheScope = page.cacheScope;
    }
    pages++;
    for (const item of page.tools) {
      if (!isPlainObject(item) || typeof item['name'] !== 'string' || item['name'].length === 0) {
        throw reject(serverId, 'The tool list contains an entry without a name');
      }
      const name = item['name'];
      if (seenNames.has(name)) throw reject(serverId, `The tool list names "${name.slice(0, 80)}" twice`);
      seenNames.add(name);
      if (deny.has(name) || (allow !== undefined && !allow.has(name))) {
        excluded++;
        continue;
      }
      const appOnly = isAppOnly(item);
      if (tools.length >= limits.catalogItems) {
        // An app-only tool cannot fail its server: past the budget it is simply not kept.
        if (appOnly) {
          excluded++;
          continue;
        }
        throw new AppError('limit_exceeded', `The server lists more than ${limits.catalogItems} tools (the item budget)`, { serverId });
      }
      tools.push(admit(item, name, appOnly, o));
    }
    const next = page.nextCursor;
    if (next === undefined) break;
    if (utf8(next) > limits.cursorBytes)
      throw new AppError('limit_exceeded', `A page cursor is over ${limits.cursorBytes} bytes`, { serverId });
    if (seenCursors.has(next)) throw reject(serverId, 'The server repeated a page cursor (the listing would never end)');
    seenCursors.add(next);
    cursor = next;
  }
  return { tools, excluded, pages, ...(ttlMs !== undefined ? { ttlMs } : {}), ...(cacheScope ? { cacheScope } : {}) };
}
