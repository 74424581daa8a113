// Server-provided text is shown as text only; before that, terminal sequences, control, bidi and invisible characters
// are removed by the same rule the core applies (shared/untrusted-text.ts: the core sanitizes too, this is the
// renderer's own line of defence), line breaks and tabs kept.
import { formatSize } from '../../../shared/format-size';
import { stripUnsafe } from '../../../shared/untrusted-text';

/** `text` without terminal sequences or control, bidi-override or invisible characters (line breaks normalised to LF). */
export function cleanText(text: string | undefined | null): string {
  return stripUnsafe((text ?? '').replace(/\r\n?/g, '\n'));
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
