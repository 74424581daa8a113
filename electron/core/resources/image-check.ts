// Image checks for resources and prompt messages: the type comes from the magic bytes (never the claimed MIME),
// and byte and pixel caps bound what the renderer is asked to decode. Sniffing is shared with tool results.
import { imageSize, MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, sniffImage } from '../calls/media.js';

/** Image types the preview decodes. */
export type ImageMime = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** Caps applied to every image (the same as for tool results). */
export const IMAGE_MAX_SIDE = MAX_IMAGE_SIDE;
export const IMAGE_MAX_PIXELS = MAX_IMAGE_PIXELS;

/** Outcome of checking an image. */
export type ImageCheck = { ok: true; mime: ImageMime; width: number; height: number } | { ok: false; reason: string };

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
  const kind = sniffImage(buf);
  if (!kind) return { ok: false, reason: 'Image not shown: its bytes are not a PNG, JPEG, GIF or WebP image' };
  const mime: ImageMime = `image/${kind}`;
  const dims = imageSize(kind, buf);
  if (!dims || dims.width === 0 || dims.height === 0) return { ok: false, reason: 'Image not shown: its size could not be read' };
  if (dims.width > IMAGE_MAX_SIDE || dims.height > IMAGE_MAX_SIDE || dims.width * dims.height > IMAGE_MAX_PIXELS) {
    return { ok: false, reason: `Image not shown: ${dims.width}×${dims.height} pixels is over the limit` };
  }
  return { ok: true, mime, ...dims };
}
