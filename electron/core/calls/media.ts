// Media checks for tool results: the bytes must be what the label says (magic numbers), within size and pixel caps.

/** Largest width or height of an inline image. */
export const MAX_IMAGE_SIDE = 16_384;
/** Largest pixel count of an inline image. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** Result of checking one media block. */
export type MediaCheck = { ok: true; mimeType: string; width?: number; height?: number } | { ok: false; reason: string };

type ImageKind = 'png' | 'jpeg' | 'gif' | 'webp';

const IMAGE_MIME: Record<string, ImageKind> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const CANONICAL_IMAGE: Record<ImageKind, string> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function ascii(buf: Uint8Array, start: number, end: number): string {
  return Buffer.from(buf.subarray(start, end)).toString('latin1');
}

/** Which image format the bytes are, by magic number. */
export function sniffImage(buf: Uint8Array): ImageKind | undefined {
  if (
    buf.length >= 8 &&
    buf[0] === 0x89 &&
    ascii(buf, 1, 4) === 'PNG' &&
    buf[4] === 0x0d &&
    buf[5] === 0x0a &&
    buf[6] === 0x1a &&
    buf[7] === 0x0a
  )
    return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 6 && (ascii(buf, 0, 6) === 'GIF87a' || ascii(buf, 0, 6) === 'GIF89a')) return 'gif';
  if (buf.length >= 12 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP') return 'webp';
  return undefined;
}

/** Width and height read from the image header, when it can be read. */
export function imageSize(kind: ImageKind, buf: Uint8Array): { width: number; height: number } | undefined {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  switch (kind) {
    case 'png':
      return b.length >= 24 && ascii(buf, 12, 16) === 'IHDR' ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : undefined;
    case 'gif':
      return b.length >= 10 ? { width: b.readUInt16LE(6), height: b.readUInt16LE(8) } : undefined;
    case 'webp': {
      const chunk = ascii(buf, 12, 16);
      if (chunk === 'VP8X' && b.length >= 30) return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
      if (chunk === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L' && b.length >= 25) {
        const bits = b.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      return undefined;
    }
    case 'jpeg': {
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return undefined;
        const marker = b[i + 1]!;
        if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
          i += 2;
          continue;
        }
        const len = b.readUInt16BE(i + 2);
        if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
          return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
        }
        i += 2 + len;
      }
      return undefined;
    }
  }
}

/** Checks an image block's bytes against its declared type and the size caps. */
export function checkImage(declared: string, buf: Uint8Array): MediaCheck {
  const mime = declared.toLowerCase().split(';')[0]!.trim();
  if (mime === 'image/svg+xml') return { ok: false, reason: 'SVG images are not displayed (they can carry scripts)' };
  const expected = IMAGE_MIME[mime];
  if (!expected) return { ok: false, reason: `unsupported image type ${mime.slice(0, 60)}` };
  const actual = sniffImage(buf);
  if (actual !== expected) {
    return {
      ok: false,
      reason: `labelled ${mime} but the bytes are ${actual ? CANONICAL_IMAGE[actual] : looksLikeSvg(buf) ? 'SVG/XML' : 'not an image of that type'}`,
    };
  }
  const size = imageSize(actual, buf);
  if (!size) return { ok: false, reason: `the ${mime} header could not be read` };
  if (size.width === 0 || size.height === 0) return { ok: false, reason: 'the image has no pixels' };
  if (size.width > MAX_IMAGE_SIDE || size.height > MAX_IMAGE_SIDE || size.width * size.height > MAX_IMAGE_PIXELS) {
    return { ok: false, reason: `the image is too large (${size.width}×${size.height} pixels)` };
  }
  return { ok: true, mimeType: CANONICAL_IMAGE[actual], ...size };
}

function looksLikeSvg(buf: Uint8Array): boolean {
  const head = ascii(buf, 0, Math.min(buf.length, 256)).trimStart().toLowerCase();
  return head.startsWith('<svg') || head.startsWith('<?xml') || head.startsWith('<!doctype svg');
}

type AudioKind = 'wav' | 'mpeg' | 'ogg' | 'flac' | 'webm' | 'mp4';

const AUDIO_MIME: Record<string, AudioKind> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/mpeg': 'mpeg',
  'audio/mp3': 'mpeg',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'audio/webm': 'webm',
  'audio/mp4': 'mp4',
  'audio/x-m4a': 'mp4',
  'audio/m4a': 'mp4',
  'audio/aac': 'mp4',
};

const CANONICAL_AUDIO: Record<AudioKind, string> = {
  wav: 'audio/wav',
  mpeg: 'audio/mpeg',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  webm: 'audio/webm',
  mp4: 'audio/mp4',
};

/** Which audio container the bytes are, by magic number. */
export function sniffAudio(buf: Uint8Array): AudioKind | undefined {
  if (buf.length >= 12 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WAVE') return 'wav';
  if (buf.length >= 3 && ascii(buf, 0, 3) === 'ID3') return 'mpeg';
  if (buf.length >= 2 && buf[0] === 0xff && (buf[1]! & 0xe0) === 0xe0) return (buf[1]! & 0x06) === 0 ? 'mp4' : 'mpeg';
  if (buf.length >= 4 && ascii(buf, 0, 4) === 'OggS') return 'ogg';
  if (buf.length >= 4 && ascii(buf, 0, 4) === 'fLaC') return 'flac';
  if (buf.length >= 4 && buf[0] === 0x1a && buf[1] === 0x45 && buf[2] === 0xdf && buf[3] === 0xa3) return 'webm';
  if (buf.length >= 8 && ascii(buf, 4, 8) === 'ftyp') return 'mp4';
  return undefined;
}

/** Checks an audio block's bytes against its declared type. */
export function checkAudio(declared: string, buf: Uint8Array): MediaCheck {
  const mime = declared.toLowerCase().split(';')[0]!.trim();
  const expected = AUDIO_MIME[mime];
  if (!expected) return { ok: false, reason: `unsupported audio type ${mime.slice(0, 60)}` };
  const actual = sniffAudio(buf);
  if (actual !== expected)
    return { ok: false, reason: `labelled ${mime} but the bytes are ${actual ? CANONICAL_AUDIO[actual] : 'not audio of that type'}` };
  return { ok: true, mimeType: CANONICAL_AUDIO[actual] };
}

/** Decoded size of base64 text without decoding it. */
export function base64Size(data: string): number {
  const len = data.length;
  if (len === 0) return 0;
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((len * 3) / 4) - pad;
}

/** True when the text is strict base64 (no whitespace, correct padding). */
export function isStrictBase64(data: string): boolean {
  return data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data);
}
