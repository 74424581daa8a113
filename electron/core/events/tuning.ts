// The timings and bounds of the events client, in one place. The defaults are the product's; tests shorten some
// (a stream's silence timeout above all) through the Host's `eventsTuning` option.

/** Timings and bounds of the events client. */
export interface EventsTuning {
  /** A push stream with neither an event nor a heartbeat for this long is reopened (ms). */
  streamSilenceMs: number;
  /** Shortest wait between polls, whatever `nextPollMs` says (ms). */
  pollFloorMs: number;
  /** Longest wait between polls (ms). */
  pollCeilingMs: number;
  /** Shortest wait between polls while the server says it has more (a backlog drains at this pace at most) (ms). */
  pollMoreFloorMs: number;
  /** Wait between polls when the server suggests none (ms). */
  pollDefaultMs: number;
  /** Events asked for per poll. */
  pollMaxEvents: number;
  /** First retry delay after a failure; doubles per failure (ms). */
  retryBaseMs: number;
  /** Longest retry delay (ms). */
  retryMaxMs: number;
  /** Pause before reopening a stream the server ended after it had delivered (ms). */
  reopenPauseMs: number;
  /** Notifications a push stream may hold while the feed catches up; one more and the stream is reopened. */
  streamBuffer: number;
  /** Feed entries not yet on disk above which push streams hold notifications (back-pressure). */
  backlogLimit: number;
  /** Occurrences kept in the feed. */
  feedLimit: number;
  /** Host activity entries kept in the feed. */
  activityLimit: number;
  /** Payload bytes kept in the feed. */
  feedMaxBytes: number;
  /** Delay that coalesces feed and position writes (ms). */
  writeDelayMs: number;
  /** Delay that coalesces live pushes to the renderer (ms). */
  pushDelayMs: number;
  /** Entries per live push at most (the rest is counted in `more`). */
  pushMaxEntries: number;
  /** Webhook lifetime suggested to the server (ms). */
  webhookTtlMs: number;
  /** Webhook check interval when the server grants no expiry (ms). */
  webhookHealthMs: number;
  /** Bound on unsubscribing when a webhook subscription is removed or paused (ms). */
  unsubscribeTimeoutMs: number;
  /** How long a long-poll `events/poll` asks the server to hold the request when no event is ready (`timeoutMs`). */
  pollHoldMs: number;
}

/** The product's defaults. */
export const DEFAULT_EVENTS_TUNING: EventsTuning = {
  streamSilenceMs: 60_000,
  pollFloorMs: 1000,
  pollCeilingMs: 5 * 60_000,
  pollMoreFloorMs: 100,
  pollDefaultMs: 10_000,
  pollMaxEvents: 100,
  retryBaseMs: 2000,
  retryMaxMs: 5 * 60_000,
  reopenPauseMs: 250,
  streamBuffer: 256,
  backlogLimit: 20_000,
  feedLimit: 10_000,
  activityLimit: 2_000,
  feedMaxBytes: 32 * 1024 * 1024,
  writeDelayMs: 250,
  pushDelayMs: 150,
  pushMaxEntries: 100,
  webhookTtlMs: 60 * 60_000,
  webhookHealthMs: 30 * 60_000,
  unsubscribeTimeoutMs: 10_000,
  pollHoldMs: 25_000,
};

/** Clamps a server-suggested poll interval to the floor and ceiling. */
export function clampPollMs(suggested: number | undefined, t: EventsTuning): number {
  const ms = typeof suggested === 'number' && Number.isFinite(suggested) ? suggested : t.pollDefaultMs;
  return Math.min(t.pollCeilingMs, Math.max(t.pollFloorMs, ms));
}

/**
 * The wait after the `stuck`-th poll in a row that said "more" but handed the same cursor back: the floor, doubled
 * each time, up to the ceiling (such a server would otherwise be asked again at once, forever).
 */
export function stuckPollMs(stuck: number, t: EventsTuning): number {
  return Math.min(t.pollCeilingMs, t.pollFloorMs * 2 ** Math.min(30, Math.max(0, stuck - 1)));
}
