// `ui/download-file`: what an app asks to save, turned into files the person can be asked about. The app's data is
// untrusted: every item must be an embedded resource (text or base64 blob) or a link to a resource of the app's own
// server (read through the core, within its read budget); names are reduced to one safe file name, types to a plain
// MIME type, and the whole request is bounded in files and bytes. Anything else is refused with the reason, before
// the person is asked.
import { formatSize } from '../../../shared/format-size';

/** Largest total a download may have (bytes, after decoding). */
export const MAX_DOWNLOAD_BYTES = 2 * 1024 * 1024;
/** Most files one request may save. */
export const MAX_DOWNLOAD_FILES = 8;
/** Longest file name kept (characters). */
const MAX_NAME = 120;

/** One file an app asks to save, ready for the consent dialog and the save. */
export interface DownloadFile {
  /** A safe file name (no folders, no control or reserved characters). */
  name: string;
  /** A plain MIME type (`type/subtype`), `application/octet-stream` when none or a bad one was given. */
  mimeType: string;
  /** The exact bytes. */
  bytes: Uint8Array<ArrayBuffer>;
}

/** The outcome of reading a request: the files, or why it is refused. */
export type DownloadCheck = { ok: true; files: DownloadFile[]; totalBytes: number } | { ok: false; reason: string };

/** Reads one resource of the app's own server (the launch's resources/read). */
export type ReadOwnResource = (uri: string) => Promise<{ contents: Record<string, unknown>[] }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const MIME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** A plain MIME type from what the app gave (parameters dropped), or application/octet-stream. */
export function safeMimeType(raw: unknown): string {
  if (typeof raw !== 'string') return 'application/octet-stream';
  const type = raw.split(';')[0]!.trim().toLowerCase();
  return MIME.test(type) ? type : 'application/octet-stream';
}

/** One safe file name from a name or a URI's last segment: no folders, control or reserved characters, no leading dots. */
export function safeFileName(raw: unknown, fallback = 'download'): string {
  if (typeof raw !== 'string') return fallback;
  let name = raw;
  try {
    // A URI names its file by its last path segment (percent-decoded where it decodes).
    if (/^[a-z][a-z0-9+.-]*:/i.test(name)) name = new URL(name).pathname;
  } catch {
    // Not a URL after all: the text as given.
  }
  const last = name.split(/[/\\]/).pop() ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // Keep the encoded form.
  }
  const cleaned = decoded
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .slice(0, MAX_NAME);
  return cleaned === '' || /^_+$/.test(cleaned) ? fallback : cleaned;
}

/** The bytes of base64 text, or undefined when it is not base64. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
  try {
    const binary = atob(clean);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}

/** The decoded size of base64 text, without decoding it (so an oversized blob is refused before it is copied). */
const base64Size = (text: string): number => {
  const clean = text.replace(/\s+/g, '');
  return Math.floor((clean.length * 3) / 4) - (clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0);
};

/** A file from resource contents (`{ uri, mimeType, text | blob }`), or the reason it cannot be one. */
function fromContents(contents: unknown, name: unknown, budget: number): DownloadFile | { reason: string; over?: number } {
  if (!isRecord(contents)) return { reason: 'a resource without contents' };
  const fileName = safeFileName(name ?? contents['uri']);
  const mimeType = safeMimeType(contents['mimeType']);
  if (typeof contents['text'] === 'string') {
    const bytes = new TextEncoder().encode(contents['text']);
    if (bytes.byteLength > budget) return { reason: 'over', over: bytes.byteLength };
    return { name: fileName, mimeType, bytes };
  }
  if (typeof contents['blob'] === 'string') {
    const size = base64Size(contents['blob']);
    if (size > budget) return { reason: 'over', over: size };
    const bytes = decodeBase64(contents['blob']);
    if (!bytes) return { reason: `${fileName}: its blob is not base64` };
    return { name: fileName, mimeType, bytes };
  }
  return { reason: `${fileName} has neither text nor blob content` };
}

const overLimit = (bytes: number, limit: number): string =>
  `The download is at least ${formatSize(bytes)}, over the ${formatSize(limit)} limit for a download from an app; nothing was saved`;

/**
 * Reads a `ui/download-file` request's `contents` into files. Resource links are read from the app's own server
 * (`read`); each file counts against one budget for the whole request.
 */
export async function readDownload(contents: unknown, read: ReadOwnResource, limit = MAX_DOWNLOAD_BYTES): Promise<DownloadCheck> {
  if (!Array.isArray(contents) || contents.length === 0) return { ok: false, reason: 'The app asked to download nothing' };
  if (contents.length > MAX_DOWNLOAD_FILES)
    return { ok: false, reason: `The app asked to download ${contents.length} files at once; at most ${MAX_DOWNLOAD_FILES} are allowed` };
  const files: DownloadFile[] = [];
  let total = 0;
  for (const item of contents) {
    if (!isRecord(item)) return { ok: false, reason: 'An item of the download is not a resource' };
    let got: DownloadFile | { reason: string; over?: number };
    if (item['type'] === 'resource') {
      got = fromContents(item['resource'], undefined, limit - total);
    } else if (item['type'] === 'resource_link') {
      const uri = item['uri'];
      if (typeof uri !== 'string' || uri.length === 0 || uri.length > 8192)
        return { ok: false, reason: 'A resource link has no usable URI' };
      if (/^(https?|wss?|file|data|blob|javascript):/i.test(uri))
        return {
          ok: false,
          reason: 'Only embedded content or a resource of the app’s own server can be downloaded, not a web or file address',
        };
      let read_: { contents: Record<string, unknown>[] };
      try {
        read_ = await read(uri);
      } catch (err) {
        return { ok: false, reason: `The linked resource could not be read: ${err instanceof Error ? err.message : 'unknown error'}` };
      }
      const match = read_.contents.find((c) => c['uri'] === uri) ?? read_.contents[0];
      const linkName = typeof item['name'] === 'string' && item['name'] !== '' ? item['name'] : uri;
      got = fromContents(
        match && typeof item['mimeType'] === 'string' && match['mimeType'] === undefined ? { ...match, mimeType: item['mimeType'] } : match,
        linkName,
        limit - total,
      );
    } else {
      return { ok: false, reason: 'Only embedded resources and resource links can be downloaded' };
    }
    if ('reason' in got) return { ok: false, reason: got.over !== undefined ? overLimit(total + got.over, limit) : got.reason };
    total += got.bytes.byteLength;
    files.push(got);
  }
  return { ok: true, files: uniqueNames(files), totalBytes: total };
}

/** Two files of one request never share a name (the second is `name (2).ext`). */
function uniqueNames(files: DownloadFile[]): DownloadFile[] {
  const seen = new Set<string>();
  return files.map((f) => {
    let name = f.name;
    for (let n = 2; seen.has(name.toLowerCase()); n++) {
      const dot = f.name.lastIndexOf('.');
      name = dot > 0 ? `${f.name.slice(0, dot)} (${n})${f.name.slice(dot)}` : `${f.name} (${n})`;
    }
    seen.add(name.toLowerCase());
    return { ...f, name };
  });
}
