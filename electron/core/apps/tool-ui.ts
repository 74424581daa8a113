// A tool's MCP Apps metadata (`_meta.ui.resourceUri` or the older flat `_meta["ui/resourceUri"]`, and
// `_meta.ui.visibility`), read with the extension package's own helpers. Server data: a malformed URI means
// "no app", never an exception.
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppVisibility, ToolUi } from '../../../shared/domains/apps.js';
import { isObject } from '../json.js';
import { sanitizeText } from '../text.js';

/** Longest `ui://` URI accepted. */
export const MAX_UI_URI = 2048;

const BOTH: AppVisibility[] = ['model', 'app'];

/** The tool's visibility: `['model', 'app']` unless `_meta.ui.visibility` says otherwise (unknown entries dropped). */
export function toolVisibility(tool: { _meta?: unknown }): AppVisibility[] {
  const ui = isObject(tool._meta) ? tool._meta['ui'] : undefined;
  const visibility = isObject(ui) ? ui['visibility'] : undefined;
  if (!Array.isArray(visibility)) return [...BOTH];
  return BOTH.filter((v) => visibility.includes(v));
}

/** True when MCP Apps visibility metadata is present and leaves out `model` (such tools stay out of the model's catalog). */
export function isAppOnly(tool: { _meta?: unknown }): boolean {
  return !toolVisibility(tool).includes('model');
}

/** True when the tool's own app may call it (`app` in its visibility, the default). */
export function isAppVisible(tool: { _meta?: unknown }): boolean {
  return toolVisibility(tool).includes('app');
}

/** The tool's `ui://` resource, or undefined when it has none or gave one that is not a clean `ui://` URI. */
export function toolResourceUri(tool: { _meta?: unknown }): string | undefined {
  let uri: string | undefined;
  try {
    uri = getToolUiResourceUri(tool as Parameters<typeof getToolUiResourceUri>[0]);
  } catch {
    return undefined;
  }
  if (typeof uri !== 'string' || uri.length > MAX_UI_URI || sanitizeText(uri) !== uri || /\s/.test(uri)) return undefined;
  return uri;
}

/** The catalog's view of a tool's MCP Apps metadata, or undefined when the tool carries none. */
export function toolUi(tool: { _meta?: unknown }): ToolUi | undefined {
  const meta = tool._meta;
  if (!isObject(meta) || (!isObject(meta['ui']) && meta['ui/resourceUri'] === undefined)) return undefined;
  const resourceUri = toolResourceUri(tool);
  return { ...(resourceUri !== undefined ? { resourceUri } : {}), visibility: toolVisibility(tool) };
}
