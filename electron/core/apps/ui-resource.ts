// Reads an app's `ui://` resource through the server's session and checks it before anything renders it: the MIME
// type must be `text/html;profile=mcp-app`, the HTML must fit the app budget, and the server must actually serve
// the URI. Failures are typed errors with plain-words messages the result view shows in place of the app.
import { createHash } from 'node:crypto';
import { ProtocolError, type Client, type ReadResourceResult } from '@modelcontextprotocol/client';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ServerConfig } from '../../../shared/config.js';
import type { AppCsp, AppCspRefusal, AppPermission } from '../../../shared/domains/apps.js';
import { AppError } from '../../../shared/errors.js';
import { isObject } from '../json.js';
import { base64Bytes } from '../resources/image-check.js';
import { requestError } from '../resources/request-error.js';
import { sanitizeText, truncate } from '../text.js';
import { parseCsp } from './csp.js';
import { formatSize } from '../../../shared/format-size.js';

/** Largest app HTML rendered (further capped by the server's `limits.resourceBytes`). */
export const APP_HTML_BYTES = 4 * 1024 * 1024;

/** The HTML budget of a server's apps. */
export function appHtmlBudget(config: ServerConfig): number {
  return Math.min(APP_HTML_BYTES, config.limits.resourceBytes);
}

/** A checked UI resource. */
export interface UiResource {
  html: string;
  bytes: number;
  sha256: string;
  csp: AppCsp;
  cspRefused: AppCspRefusal[];
  requested: AppPermission[];
  prefersBorder?: boolean;
  /** The dedicated origin the app asked for (`_meta.ui.domain`), sanitized and shortened. */
  domain?: string;
}

const PERMISSION_KEYS: AppPermission[] = ['camera', 'microphone', 'geolocation', 'clipboardWrite'];

/** True for `text/html;profile=mcp-app` (case, spaces, quotes and a charset parameter tolerated). */
export function isAppMimeType(mimeType: unknown): boolean {
  if (typeof mimeType !== 'string') return false;
  const [type, ...params] = mimeType
    .toLowerCase()
    .split(';')
    .map((p) => p.trim());
  if (type !== 'text/html') return false;
  return params.some((p) => {
    const [name, value] = p.split('=').map((x) => x.trim());
    return name === 'profile' && value?.replace(/^"(.*)"$/, '$1') === 'mcp-app';
  });
}

/** The permissions an app requests in `_meta.ui.permissions` (unknown keys ignored). */
export function requestedPermissions(raw: unknown): AppPermission[] {
  if (!isObject(raw)) return [];
  return PERMISSION_KEYS.filter((k) => raw[k] === true || isObject(raw[k]));
}

const shown = (uri: string): string => truncate(sanitizeText(uri), 200);

/** Checks a resources/read result for `uri` against the app rules; throws the typed error a person sees. */
export function checkUiResource(result: ReadResourceResult, uri: string, budget: number, serverId: string): UiResource {
  const contents = Array.isArray(result.contents) ? result.contents : [];
  const item = contents.find((c) => c.uri === uri) ?? (contents.length === 1 ? contents[0] : undefined);
  if (!item) throw new AppError('not_found', `The server returned no content for ${shown(uri)}`, { serverId });
  if (!isAppMimeType(item.mimeType)) {
    const got = typeof item.mimeType === 'string' ? `"${truncate(sanitizeText(item.mimeType), 100)}"` : 'no MIME type';
    throw new AppError('app_invalid', `${shown(uri)} is served with ${got}, not ${RESOURCE_MIME_TYPE}, so it is not run as an app`, {
      serverId,
    });
  }
  let html: string;
  if ('text' in item && typeof item.text === 'string') {
    const bytes = Buffer.byteLength(item.text, 'utf8');
    if (bytes > budget) throw tooBig(uri, bytes, budget, serverId);
    html = item.text;
  } else if ('blob' in item && typeof item.blob === 'string') {
    const bytes = base64Bytes(item.blob);
    if (bytes > budget) throw tooBig(uri, bytes, budget, serverId);
    html = Buffer.from(item.blob, 'base64').toString('utf8');
  } else {
    throw new AppError('app_invalid', `${shown(uri)} has neither text nor blob content`, { serverId });
  }
  if (html.trim().length === 0) throw new AppError('app_invalid', `${shown(uri)} is empty`, { serverId });
  const meta = isObject(item._meta) ? item._meta : {};
  const ui = isObject(meta['ui']) ? meta['ui'] : {};
  const { csp, refused } = parseCsp(ui['csp']);
  const bytes = Buffer.byteLength(html, 'utf8');
  return {
    html,
    bytes,
    sha256: createHash('sha256').update(html, 'utf8').digest('hex'),
    csp,
    cspRefused: refused,
    requested: requestedPermissions(ui['permissions']),
    ...(typeof ui['prefersBorder'] === 'boolean' ? { prefersBorder: ui['prefersBorder'] } : {}),
    ...(typeof ui['domain'] === 'string' && ui['domain'].trim() !== '' ? { domain: truncate(sanitizeText(ui['domain'].trim()), 200) } : {}),
  };
}

function tooBig(uri: string, bytes: number, budget: number, serverId: string): AppError {
  return new AppError(
    'limit_exceeded',
    `${shown(uri)} is ${formatSize(bytes)}, over the ${formatSize(budget)} app budget; it was not loaded`,
    { serverId },
  );
}

/** True when a read failed because the server does not serve the URI (-32002, or -32602 from current SDKs). */
function notServed(err: unknown): boolean {
  return err instanceof ProtocolError && (err.code === -32002 || err.code === -32602);
}

/** Reads `uri` through the session (request timeout, transport byte limits) and checks it. */
export async function readUiResource(client: Client, config: ServerConfig, uri: string): Promise<UiResource> {
  if (!uri.startsWith('ui://')) throw new AppError('app_invalid', `${shown(uri)} is not a ui:// resource`, { serverId: config.id });
  let result: ReadResourceResult;
  try {
    result = await client.readResource({ uri }, { timeout: config.timeouts.requestSecs * 1000 });
  } catch (err) {
    if (notServed(err)) throw new AppError('not_found', `The server does not serve ${shown(uri)}`, { serverId: config.id });
    throw requestError(err, config.id, `reading ${shown(uri)}`, config.timeouts.requestSecs);
  }
  return checkUiResource(result, uri, appHtmlBudget(config), config.id);
}
