// Server-provided text is shown as text only; before that, control and bidirectional-override characters are
// removed (the core sanitizes too: this is the renderer's own line of defence), line breaks and tabs kept.
import { formatSize } from '../../../shared/format-size';

// C0 controls except tab and line feed, DEL, C1 controls, bidi embeddings/overrides/isolates, zero-width and BOM.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** `text` without control, bidi-override or zero-width characters. */
export function cleanText(text: string | undefined | null): string {
  return (text ?? '').replace(/\r\n?/g, '\n').replace(UNSAFE, '');
}

/** A one-line version of `text` (runs of whitespace become one space). */
export function oneLine(text: string | undefined | null): string {
  return cleanText(text).replace(/\s+/g, ' ').trim();
}

/** Bytes in words ("512 bytes", "1.5 KiB", "2 MiB"), or "unknown size". */
export function sizeLabel(n: number | undefined): string {
  return n === undefined ? 'unknown size' : formatSize(n);
}

/** A duration in words ("85 ms", "1.2 s", "2 min 5 s"). */
export function durationLabel(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const min = Math.floor(ms / 60_000);
  return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
}
