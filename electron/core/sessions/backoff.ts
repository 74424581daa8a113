// Reconnect backoff after repeated failures: 1 s doubling to 60 s.

/** First backoff step in milliseconds. */
export const BACKOFF_BASE_MS = 1000;
/** Longest backoff step in milliseconds. */
export const BACKOFF_MAX_MS = 60_000;

/** Milliseconds to wait before the next automatic attempt after `failures` consecutive failures (0 → none). */
export function backoffDelay(failures: number, baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS): number {
  if (failures <= 0) return 0;
  // Cap the exponent so 2 ** n never overflows into Infinity arithmetic.
  const step = baseMs * 2 ** Math.min(failures - 1, 30);
  return Math.min(maxMs, step);
}
