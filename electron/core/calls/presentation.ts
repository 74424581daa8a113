// The bounded view of a tool result (seed 000 "Results And Model Presentation"): visible text with a
// truncation marker, checked inline media within budget, explicit notices, links and embedded resources.
// Top-level and block-level `_meta` never enter the view; the full envelope is kept apart.
import type { Limits } from '../../../shared/config.js';
import type { MediaView, Presentation } from '../../../shared/domains/calls.js';
import { jsonDepth } from '../ingress/depth.js';
import { VIEW_MAX_DEPTH } from '../ingress/limits.js';
import { boundForView } from '../ingress/view.js';
import { sanitizeText } from '../text.js';
import { base64Size, checkAudio, checkImage, isStrictBase64 } from './media.js';
import { isObject } from '../json.js';

/** Budgets of a presentation (from the server's limits). */
export type PresentationLimits = Pick<Limits, 'resultTextBytes' | 'mediaBytes' | 'mediaBlocks'>;

/** Bytes of pretty-printed structured content shown. */
export const STRUCTURED_BYTES = 16 * 1024;
/** Characters of an embedded text resource shown. */
export const EMBEDDED_TEXT_CHARS = 2048;
/** Links and embedded resources listed. */
export const MAX_LISTED = 50;
const MAX_NOTICES = 50;

type Json = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Cuts UTF-8 text to at most `max` bytes on a character boundary. */
export function cutUtf8(text: string, max: number): { text: string; cut: boolean; bytes: number } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= max) return { text, cut: false, bytes };
  // Slicing by UTF-16 units first keeps huge strings from being encoded whole.
  let s = text.slice(0, max);
  while (Buffer.byteLength(s, 'utf8') > max)
    s = s.slice(0, Math.max(0, s.length - Math.ceil((Buffer.byteLength(s, 'utf8') - max) / 3) - 1));
  if (/[\uD800-\uDBFF]$/.test(s)) s = s.slice(0, -1);
  return { text: s, cut: true, bytes };
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a as Json);
  const kb = Object.keys(b as Json);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Json)[k], (b as Json)[k]));
}

/** True when a text block only repeats the structured content as serialized JSON. */
function repeatsStructured(text: string, structured: unknown): boolean {
  if (structured === undefined) return false;
  const t = text.trim();
  if (!t.startsWith('{') && !t.startsWith('[')) return false;
  if (t.length > 4 * 1024 * 1024) return false;
  try {
    return deepEqual(JSON.parse(t), structured);
  } catch {
    return false;
  }
}

/** Builds the bounded presentation of a raw tool result. */
export function buildPresentation(raw: unknown, limits: PresentationLimits): Presentation {
  const result = isObject(raw) ? raw : {};
  const notices: string[] = [];
  const notice = (n: string): void => {
    if (notices.length < MAX_NOTICES) notices.push(sanitizeText(n));
    else if (notices.length === MAX_NOTICES) notices.push('Further notices omitted.');
  };
  const texts: string[] = [];
  const media: MediaView[] = [];
  const links: Presentation['links'] = [];
  const resources: Presentation['resources'] = [];
  let mediaBudget = limits.mediaBytes;
  const structured = result.structuredContent;
  let droppedCopy = false;

  if (jsonDepth(result, VIEW_MAX_DEPTH) > VIEW_MAX_DEPTH) {
    notice(`The result is nested deeper than ${VIEW_MAX_DEPTH} levels; the deeper parts are not shown.`);
  }

  const content = Array.isArray(result.content) ? result.content : [];
  if (result.content !== undefined && !Array.isArray(result.content)) notice('The result\'s "content" is not a list and was ignored.');

  for (const [index, block] of content.entries()) {
    if (!isObject(block)) {
      notice(`Content block ${index + 1} is not an object and was omitted.`);
      continue;
    }
    const type = str(block.type) ?? '(none)';
    switch (type) {
      case 'text': {
        const text = str(block.text) ?? '';
        if (!droppedCopy && repeatsStructured(text, structured)) {
          droppedCopy = true;
          break;
        }
        texts.push(text);
        break;
      }
      case 'image':
      case 'audio': {
        const kind = type;
        const data = str(block.data) ?? '';
        const declared = str(block.mimeType) ?? '(no type)';
        const size = base64Size(data);
        if (media.length >= limits.mediaBlocks) {
          notice(`${kind === 'image' ? 'Image' : 'Audio'} (${declared}) omitted: at most ${limits.mediaBlocks} media blocks are shown.`);
          break;
        }
        if (size > mediaBudget) {
          notice(
            `${kind === 'image' ? 'Image' : 'Audio'} (${declared}, ${size} bytes) omitted: over the ${limits.mediaBytes}-byte media budget.`,
          );
          break;
        }
        if (!isStrictBase64(data)) {
          notice(`${kind === 'image' ? 'Image' : 'Audio'} (${declared}) omitted: the data is not valid base64.`);
          break;
        }
        const bytes = Buffer.from(data, 'base64');
        const check = kind === 'image' ? checkImage(declared, bytes) : checkAudio(declared, bytes);
        if (!check.ok) {
          notice(`${kind === 'image' ? 'Image' : 'Audio'} refused: ${check.reason}.`);
          break;
        }
        mediaBudget -= bytes.length;
        media.push({
          kind,
          mimeType: check.mimeType,
          data,
          bytes: bytes.length,
          ...(check.width !== undefined ? { width: check.width } : {}),
          ...(check.height !== undefined ? { height: check.height } : {}),
        });
        break;
      }
      case 'resource_link': {
        const uri = str(block.uri);
        if (!uri) {
          notice('A resource link without a URI was omitted.');
          break;
        }
        if (links.length >= MAX_LISTED) {
          notice('Further resource links omitted.');
          break;
        }
        const name = str(block.name) ?? str(block.title);
        const mimeType = str(block.mimeType);
        links.push({
          uri: sanitizeText(uri).slice(0, 2048),
          ...(name !== undefined ? { name: sanitizeText(name).slice(0, 256) } : {}),
          ...(mimeType !== undefined ? { mimeType: sanitizeText(mimeType).slice(0, 128) } : {}),
        });
        break;
      }
      case 'resource': {
        const res = isObject(block.resource) ? block.resource : undefined;
        const uri = res ? str(res.uri) : undefined;
        if (!res || !uri) {
          notice('An embedded resource without a URI was omitted.');
          break;
        }
        if (resources.length >= MAX_LISTED) {
          notice('Further embedded resources omitted.');
          break;
        }
        const mimeType = str(res.mimeType);
        const text = str(res.text);
        const blob = str(res.blob);
        resources.push({
          uri: sanitizeText(uri).slice(0, 2048),
          ...(mimeType !== undefined ? { mimeType: sanitizeText(mimeType).slice(0, 128) } : {}),
          ...(text !== undefined
            ? { text: sanitizeText(text.length > EMBEDDED_TEXT_CHARS ? `${text.slice(0, EMBEDDED_TEXT_CHARS)}… [shortened]` : text) }
            : blob !== undefined
              ? { text: `(binary, ${base64Size(blob)} bytes)` }
              : {}),
        });
        break;
      }
      default:
        notice(`Content of type "${type.slice(0, 60)}" is not supported and was omitted.`);
    }
  }

  const joined = texts.join('\n\n');
  const cut = cutUtf8(joined, limits.resultTextBytes);
  const text = cut.cut
    ? `${sanitizeText(cut.text)}\n… [truncated: showing ${limits.resultTextBytes} of ${cut.bytes} bytes; open the full result to see the rest]`
    : sanitizeText(cut.text);

  const presentation: Presentation = {
    isError: result.isError === true,
    text,
    truncated: cut.cut,
    media,
    notices,
    links,
    resources,
  };
  if (structured !== undefined) {
    let pretty: string;
    try {
      pretty = JSON.stringify(boundForView(structured, 'The structured content').value, null, 2) ?? 'null';
    } catch {
      pretty = '(structured content could not be shown)';
    }
    const s = cutUtf8(pretty, STRUCTURED_BYTES);
    presentation.structured = s.cut ? `${s.text}\n… [truncated: ${s.bytes} bytes]` : s.text;
    if (s.cut) presentation.structuredTruncated = true;
  }
  return presentation;
}

/** A presentation that is only a tool-level error message. */
export function errorPresentation(text: string): Presentation {
  return { isError: true, text: sanitizeText(text), truncated: false, media: [], notices: [], links: [], resources: [] };
}
