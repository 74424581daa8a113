// The poll loop of one subscription: `events/poll {name, arguments, cursor, maxEvents}`; `hasMore` polls again
// after a short floor (when the batch was not empty), otherwise the loop waits `nextPollMs` clamped to the floor and
// ceiling. A server that keeps saying "more" while handing the same cursor back would be asked again at once,
// forever: that backs off (doubling from the floor) and is said once in the feed's activity. The events of a
// response are stored before the response's cursor becomes the position; `truncated` leaves a gap marker.
import { afterFailure } from './after-failure.js';
import type { RunContext } from './run-context.js';
import { clampPollMs, stuckPollMs } from './tuning.js';
import { EventMethods, PollResultSchema } from './wire.js';

/** Runs a poll subscription until its context stops or it ends. */
export async function runPoll(ctx: RunContext): Promise<void> {
  const { sub, tuning, signal } = ctx;
  let failures = 0;
  /** Polls in a row that said "more" and returned the cursor they were sent. */
  let stuck = 0;
  while (!signal.aborted) {
    let client;
    try {
      client = await ctx.client();
    } catch {
      return;
    }
    let result;
    const sent = ctx.cursor();
    const timeoutSecs = ctx.config().timeouts.requestSecs;
    try {
      result = await client.request(
        {
          method: EventMethods.poll,
          // `timeoutMs` asks a long-poll server to hold the request until an event or that long; a server of the
          // earlier shape ignores it and answers at once. Our own timeout covers the hold plus the usual bound.
          params: {
            name: sub.name,
            arguments: sub.arguments,
            cursor: sent,
            maxEvents: tuning.pollMaxEvents,
            timeoutMs: tuning.pollHoldMs,
          },
        },
        PollResultSchema,
        { signal, timeout: tuning.pollHoldMs + timeoutSecs * 1000 },
      );
    } catch (err) {
      const next = await afterFailure(ctx, client, err, failures);
      if (next === null) return;
      failures = next;
      continue;
    }
    failures = 0;
    if (result.truncated === true)
      ctx.gap('The server skipped events before this point (its history did not reach back to the last position)');
    ctx.accept(result.events, false);
    ctx.advance(result.cursor);
    if (ctx.backlogged()) await ctx.drained();
    if (result.hasMore === true && sent !== null && (result.cursor === sent || result.cursor === undefined)) {
      stuck++;
      const wait = stuckPollMs(stuck, tuning);
      if (stuck === 1)
        ctx.activity(
          'poll-slowed',
          'The server keeps saying it has more events but does not move the position; polling slows down until it does',
        );
      ctx.status({ state: 'polling', pollEveryMs: wait });
      await ctx.sleep(wait);
      continue;
    }
    stuck = 0;
    // `hasMore` with nothing in the batch would be a tight loop: only a batch that delivered takes the short wait.
    if (result.hasMore === true && result.events.length > 0) {
      ctx.status({ state: 'polling' });
      await ctx.sleep(tuning.pollMoreFloorMs);
      continue;
    }
    const wait = clampPollMs(result.nextPollMs, tuning);
    ctx.status({ state: 'polling', pollEveryMs: wait });
    await ctx.sleep(wait);
  }
}
