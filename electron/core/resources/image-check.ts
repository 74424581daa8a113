// Image checks for resources and prompt messages: the type comes from the magic bytes (never the claimed MIME),
// and byte and pixel caps bound what the renderer is asked to decode.

/** Image types the preview decodes. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Caps applied to every image. */
export const IMAGE_MAX_SIDE = 16384;
export const IMAGE_MAX_PIXELS = 40_000_000;

/** Outcome of checking an image. */
export type ImageCheck = { ok: true; mime: ImageMime; width: number; height: number } | { ok: false; reason: string };

function sniff(b: Uint8Array): ImageMime | undefined {
  if (
    b.length >= 8 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  )
    return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && String.fromCharCode(...b.subarray(0, 6)).match(/^GIF8[79]a$/)) return 'image/gif';
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP')
    return 'image/webp';
  return undefined;
}

function size(mime: ImageMime, b: Buffer): { width: number; height: number } | undefined {
  switch (mime) {
    case 'image/png':
      if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
      return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
    case 'image/gif':
      if (b.length < 10) return undefined;
      return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
    case 'image/webp': {
      if (b.length < 30) return undefined;
      const chunk = b.toString('latin1', 12, 16);
      if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
      if (chunk === 'VP8L') {
        const bits = b.readUInt32LE(21);
        return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
      }
      if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
      return undefined;
    }
    case 'image/jpeg': {
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return undefined;
        const marker = b[i + 1] ?? 0;
        if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
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

/** Decoded byte length of base64 text without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/[\s]/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

/** Checks base64 image data against the magic bytes and the byte and pixel caps. */
export function checkImage(data: string, maxBytes: number): ImageCheck {
  const bytes = base64Bytes(data);
  if (bytes > maxBytes)
    return { ok: false, reason: `Image not shown: ${bytes} bytes is over the ${maxBytes}-byte limit (limits.mediaBytes)` };
  const buf = Buffer.from(data, 'base64');
  const mime = sniff(buf);
  if (!mime) return { ok: false, reason: 'Image not shown: its bytes are not a PNG, JPEG, GIF or WebP image' };
  const dims = size(mime, buf);
  if (!dims || dims.width === 0 || dims.height === 0) return { ok: false, reason: 'Image not shown: its size could not be read' };
  if (dims.width > IMAGE_MAX_SIDE || dims.height > IMAGE_MAX_SIDE || dims.width * dims.height > IMAGE_MAX_PIXELS) {
    return { ok: false, reason: `Image not shown: ${dims.width}×${dims.height} pixels is over the limit` };
  }
  return { ok: true, mime, ...dims };
}
