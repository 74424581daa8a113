// Folds runs of repeated log lines ("Retrying in 1000 ms." ×5) into one, so a retry loop cannot push the
// interesting lines out of view. Lines count as repeats when they differ only in their numbers.
import type { LogEntry } from '../../../shared/contract';

/** A log line as shown: the newest entry of a run of repeats, and how many there were. */
export interface FoldedLine {
  /** The newest entry of the run. */
  entry: LogEntry;
  /** How many consecutive entries the run holds (1: not folded). */
  count: number;
}

const shape = (e: LogEntry): string => `${e.source}\u0000${e.level}\u0000${e.text.replace(/\d+/g, '#')}`;

/** Consecutive entries of the same source, level and text (numbers aside) become one line with a count. */
export function foldLogLines(entries: readonly LogEntry[]): FoldedLine[] {
  const out: FoldedLine[] = [];
  let last: string | undefined;
  for (const entry of entries) {
    const key = shape(entry);
    const prev = out[out.length - 1];
    if (prev && key === last) {
      prev.entry = entry;
      prev.count += 1;
    } else {
      out.push({ entry, count: 1 });
      last = key;
    }
  }
  return out;
}
