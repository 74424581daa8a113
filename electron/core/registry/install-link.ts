// Reading what a person pastes or the OS hands over to install a server: a `switchboard://install?...` link, a
// server.json, or an mcp.json / Claude / Cursor / VS Code snippet. The link format:
//
//   switchboard://install?name=<display name>&config=<base64url JSON of one mcp.json entry: {command,args,env} | {type,url,headers}>
//   switchboard://install?server=<base64url server.json>
//   switchboard://install?registry=<entry name>[&version=<version>][&source=<registry URL>]
//
// (`config` may also be URL-encoded JSON.) Links are bounded in length, nesting and decoded size, and any
// javascript:, file:, data:, vbscript: or blob: URL anywhere inside refuses the whole text. Parsing never saves,
// approves or connects anything: it only says what the text holds.
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';

/** Longest install link accepted. */
export const MAX_LINK_CHARS = 16 * 1024;
/** Largest decoded payload of a link. */
export const MAX_LINK_PAYLOAD = 12 * 1024;
/** Deepest JSON nesting accepted in pasted or linked definitions. */
export const MAX_DEPTH = 16;
/** The scheme of install links. */
export const INSTALL_SCHEME = 'switchboard:';

const DANGEROUS = /^\s*(javascript|file|data|vbscript|blob)\s*:/i;

/** What install text holds. */
export type InstallPayload =
  | { type: 'serverJson'; value: unknown }
  | { type: 'registry'; name: string; version?: string; source?: string }
  | { type: 'config'; text: string };

/** Parsed install text. */
export interface ParsedInstall {
  /** What the text was recognised as. */
  kind: 'link' | 'server.json' | 'config';
  /** Its content. */
  payload: InstallPayload;
}

/** Refuses a value that nests too deeply or carries a dangerous URL in any string (keys included). */
export function checkPayload(value: unknown, depth = 0): void {
  if (depth > MAX_DEPTH) throw new AppError('config_invalid', `The definition nests deeper than ${MAX_DEPTH} levels`);
  if (typeof value === 'string') {
    const scheme = DANGEROUS.exec(value)?.[1];
    if (scheme !== undefined) throw new AppError('url_refused', `The text carries a ${scheme.toLowerCase()}: URL and was refused`);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) checkPayload(item, depth + 1);
    return;
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      checkPayload(key, depth + 1);
      checkPayload(item, depth + 1);
    }
  }
}

/** The deepest bracket nesting of JSON text (strings skipped), counted before parsing so deep input cannot exhaust the stack. */
export function jsonNesting(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) max = Math.max(max, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

/** Parses JSON or JSONC text, or throws config_invalid. */
export function parseJsonText(text: string): unknown {
  if (jsonNesting(text) > MAX_DEPTH) throw new AppError('config_invalid', `The definition nests deeper than ${MAX_DEPTH} levels`);
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || value === undefined) throw new AppError('config_invalid', 'The text is not valid JSON');
  return value;
}

/** True for a server.json (bare, or wrapped as a registry ServerResponse). */
export function looksLikeServerJson(value: unknown): boolean {
  const server = isObject(value) && isObject(value['server']) ? value['server'] : value;
  return (
    isObject(server) &&
    typeof server['name'] === 'string' &&
    server['name'].includes('/') &&
    (Array.isArray(server['packages']) || Array.isArray(server['remotes']))
  );
}

/** Wraps a bare entry or a map of entries as an mcp.json document the importer reads. */
export function normalizeConfig(value: unknown, name = 'server'): string {
  if (!isObject(value)) throw new AppError('config_invalid', 'A server definition is a JSON object');
  const container = isObject(value['mcp']) ? value['mcp'] : value;
  if (isObject(container['mcpServers']) || isObject(container['servers'])) return JSON.stringify(value);
  const isEntry = (v: unknown): boolean =>
    isObject(v) && (typeof v['command'] === 'string' || typeof v['url'] === 'string' || typeof v['serverUrl'] === 'string');
  if (isEntry(value)) return JSON.stringify({ mcpServers: { [name]: value } });
  const entries = Object.values(value);
  if (entries.length > 0 && entries.every(isEntry)) return JSON.stringify({ mcpServers: value });
  throw new AppError(
    'config_invalid',
    'No server definition found: expected a server.json, an mcp.json with "mcpServers" or "servers", or one entry with "command" or "url"',
  );
}

/** Decodes a base64url (or base64) or URL-encoded JSON parameter of a link. */
function decodeParam(raw: string, what: string): unknown {
  const trimmed = raw.trim();
  let text: string;
  if (trimmed.startsWith('{')) text = trimmed;
  else {
    if (!/^[A-Za-z0-9_+/=-]+$/.test(trimmed)) throw new AppError('config_invalid', `The link's ${what} is neither base64 nor JSON`);
    text = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  }
  if (Buffer.byteLength(text) > MAX_LINK_PAYLOAD)
    throw new AppError('limit_exceeded', `The link's ${what} is larger than ${MAX_LINK_PAYLOAD / 1024} KiB`);
  return parseJsonText(text);
}

/** Parses a `switchboard://install?...` link. */
export function parseInstallLink(link: string): ParsedInstall {
  if (link.length > MAX_LINK_CHARS) throw new AppError('limit_exceeded', `The link is longer than ${MAX_LINK_CHARS / 1024} KiB`);
  if (/[\u0000-\u001f\u007f]/.test(link)) throw new AppError('config_invalid', 'The link contains control characters');
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new AppError('config_invalid', 'The link is not a valid URL');
  }
  if (url.protocol !== INSTALL_SCHEME) throw new AppError('url_refused', 'Only switchboard:// install links are accepted');
  const action = `${url.host}${url.pathname}`.replace(/^\/+|\/+$/g, '');
  if (action !== 'install') throw new AppError('config_invalid', `Unknown link action "${action.slice(0, 40)}"; only install links exist`);
  const params = url.searchParams;
  for (const value of params.values()) checkPayload(value);
  const name = params.get('name') ?? undefined;
  const config = params.get('config');
  const server = params.get('server');
  const registry = params.get('registry');
  const given = [config, server, registry].filter((v) => v !== null).length;
  if (given !== 1) throw new AppError('config_invalid', 'An install link carries exactly one of config, server or registry');
  if (server !== null) {
    const value = decodeParam(server, 'server.json');
    checkPayload(value);
    return { kind: 'link', payload: { type: 'serverJson', value } };
  }
  if (registry !== null) {
    if (!/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(registry) || registry.length > 200) {
      throw new AppError('config_invalid', 'The link names a registry entry that is not "namespace/name"');
    }
    const version = params.get('version') ?? undefined;
    const source = params.get('source') ?? undefined;
    return {
      kind: 'link',
      payload: {
        type: 'registry',
        name: registry,
        ...(version !== undefined ? { version } : {}),
        ...(source !== undefined ? { source } : {}),
      },
    };
  }
  const value = decodeParam(config ?? '', 'config');
  checkPayload(value);
  if (looksLikeServerJson(value)) return { kind: 'link', payload: { type: 'serverJson', value } };
  const display = name !== undefined && name.trim() !== '' ? name.trim().slice(0, 200) : undefined;
  return { kind: 'link', payload: { type: 'config', text: normalizeConfig(value, display) } };
}

/** Parses anything pasted: a link, a server.json or a config snippet. */
export function parseInstallText(text: string): ParsedInstall {
  const trimmed = text.trim();
  if (trimmed === '') throw new AppError('config_invalid', 'Nothing was pasted');
  if (/^switchboard:/i.test(trimmed)) return parseInstallLink(trimmed);
  if (/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !trimmed.startsWith('{')) {
    throw new AppError('url_refused', 'Only switchboard:// install links, server.json and MCP config snippets can be pasted here');
  }
  const value = parseJsonText(trimmed);
  checkPayload(value);
  if (looksLikeServerJson(value)) return { kind: 'server.json', payload: { type: 'serverJson', value } };
  return { kind: 'config', payload: { type: 'config', text: normalizeConfig(value) } };
}

/** Builds an install link for a definition (one mcp.json entry), the inverse of parseInstallLink. */
export function buildInstallLink(name: string, entry: Record<string, unknown>): string {
  const config = Buffer.from(JSON.stringify(entry)).toString('base64url');
  return `switchboard://install?name=${encodeURIComponent(name)}&config=${config}`;
}
