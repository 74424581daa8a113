// Turns read results and prompt messages into bounded display data. Text is never markup: HTML and SVG
// become source, JSON is pretty-printed, Markdown is left for the renderer's safe element renderer.
// URIs inside results are shown, never fetched.
import type { GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';
import type { PromptMessageView, ResourcePart, ResourcePartKind } from '../../../shared/domains/resources.js';
import { AppError } from '../../../shared/errors.js';
import { jsonDepth } from '../ingress/depth.js';
import { VIEW_MAX_DEPTH } from '../ingress/limits.js';
import { sanitizeText, truncate } from '../text.js';
import { base64Bytes, checkImage } from './image-check.js';
import { formatSize } from '../../../shared/format-size.js';

/** The budgets a read is held to. */
export interface ReadBudget {
  /** Joined text and blob bytes of one read (limits.resourceBytes). */
  resourceBytes: number;
  /** Bytes of one image shown inline (limits.mediaBytes). */
  mediaBytes: number;
}

function ext(uri: string): string {
  const path = uri.split(/[?#]/)[0] ?? '';
  const dot = path.lastIndexOf('.');
  return dot >= 0 && dot > path.lastIndexOf('/') ? path.slice(dot + 1).toLowerCase() : '';
}

/** Picks the view for text from its MIME type, else its extension. */
export function textKind(mimeType: string | undefined, uri: string): ResourcePartKind {
  const m = (mimeType ?? '').toLowerCase().split(';')[0]?.trim() ?? '';
  const e = ext(uri);
  if (m === 'image/svg+xml' || e === 'svg') return 'svg';
  if (m === 'text/html' || m === 'application/xhtml+xml' || e === 'html' || e === 'htm' || e === 'xhtml') return 'html';
  if (m === 'application/json' || m.endsWith('+json') || e === 'json') return 'json';
  if (m === 'text/markdown' || m === 'text/x-markdown' || e === 'md' || e === 'markdown') return 'markdown';
  return 'text';
}

function prettyJson(text: string): { kind: ResourcePartKind; text: string } {
  try {
    const value = JSON.parse(text) as unknown;
    // Indenting JSON nested deeper than a view shows would multiply its size: show such text as it came.
    if (jsonDepth(value, VIEW_MAX_DEPTH) > VIEW_MAX_DEPTH) return { kind: 'text', text };
    return { kind: 'json', text: JSON.stringify(value, null, 2) };
  } catch {
    return { kind: 'text', text };
  }
}

/**
 * Bounds and classifies a resources/read result. Throws `limit_exceeded` when the joined text and blob bytes
 * exceed the budget, so a huge resource is a clear error rather than a frozen view.
 */
export function presentResource(result: ReadResourceResult, budget: ReadBudget, serverId: string): ResourcePart[] {
  let total = 0;
  for (const c of result.contents) {
    total +=
      'text' in c && typeof c.text === 'string'
        ? Buffer.byteLength(c.text, 'utf8')
        : 'blob' in c && typeof c.blob === 'string'
          ? base64Bytes(c.blob)
          : 0;
    if (total > budget.resourceBytes) {
      throw new AppError(
        'limit_exceeded',
        `The resource is larger than the ${formatSize(budget.resourceBytes)} read limit (limits.resourceBytes); it was not shown`,
        { serverId },
      );
    }
  }
  return result.contents.map((c): ResourcePart => {
    const uri = truncate(sanitizeText(c.uri), 8192);
    const mimeType = typeof c.mimeType === 'string' ? truncate(sanitizeText(c.mimeType), 200) : undefined;
    const base = { uri, ...(mimeType !== undefined ? { mimeType } : {}) };
    if ('text' in c && typeof c.text === 'string') {
      const kind = textKind(mimeType, uri);
      if (kind === 'json') return { ...base, ...prettyJson(sanitizeText(c.text)) };
      return { ...base, kind, text: sanitizeText(c.text) };
    }
    const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : '';
    const bytes = base64Bytes(blob);
    const kind = textKind(mimeType, uri);
    if (kind === 'svg' || kind === 'html') {
      // Markup sent as a blob is still only ever shown as source.
      return { ...base, kind, text: sanitizeText(Buffer.from(blob, 'base64').toString('utf8')), blobBytes: bytes };
    }
    if ((mimeType ?? '').startsWith('image/')) {
      const checked = checkImage(blob, budget.mediaBytes);
      if (checked.ok) {
        return {
          ...base,
          kind: 'image',
          blobBytes: bytes,
          imageData: blob,
          imageMime: checked.mime,
          imageSize: { width: checked.width, height: checked.height },
        };
      }
      return { ...base, kind: 'blob', blobBytes: bytes, blobData: blob, notice: checked.reason };
    }
    return { ...base, kind: 'blob', blobBytes: bytes, blobData: blob };
  });
}

const PROMPT_TEXT_MAX = 1024 * 1024;

/** Bounds a prompts/get result into messages by role; images are checked; links and resources never fetched. */
export function presentPrompt(result: GetPromptResult, budget: ReadBudget): { description?: string; messages: PromptMessageView[] } {
  let total = 0;
  const messages = result.messages.map((m): PromptMessageView => {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const c = m.content;
    switch (c.type) {
      case 'text':
        total += c.text.length;
        return { role, text: truncate(sanitizeText(c.text), PROMPT_TEXT_MAX) };
      case 'image': {
        const checked = checkImage(c.data, budget.mediaBytes);
        return checked.ok ? { role, image: { mimeType: checked.mime, data: c.data } } : { role, notice: checked.reason };
      }
      case 'audio':
        return { role, notice: `Audio (${sanitizeText(c.mimeType)}, ${formatSize(base64Bytes(c.data))}) is not played here` };
      case 'resource': {
        const r = c.resource;
        const uri = truncate(sanitizeText(r.uri), 8192);
        const mimeType = typeof r.mimeType === 'string' ? sanitizeText(r.mimeType) : undefined;
        if ('text' in r && typeof r.text === 'string') {
          total += r.text.length;
          return { role, resource: { uri, ...(mimeType ? { mimeType } : {}), text: truncate(sanitizeText(r.text), PROMPT_TEXT_MAX) } };
        }
        const bytes = 'blob' in r && typeof r.blob === 'string' ? base64Bytes(r.blob) : 0;
        return { role, resource: { uri, ...(mimeType ? { mimeType } : {}) }, notice: `Embedded binary resource, ${formatSize(bytes)}` };
      }
      case 'resource_link':
        return {
          role,
          resource: { uri: truncate(sanitizeText(c.uri), 8192), ...(c.mimeType ? { mimeType: sanitizeText(c.mimeType) } : {}), link: true },
        };
      default:
        return { role, notice: 'Unsupported content' };
    }
  });
  if (total > budget.resourceBytes) {
    throw new AppError('limit_exceeded', `The prompt is larger than the ${formatSize(budget.resourceBytes)} limit (limits.resourceBytes)`);
  }
  return { ...(result.description ? { description: truncate(sanitizeText(result.description), 8192) } : {}), messages };
}
