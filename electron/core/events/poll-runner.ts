// The poll loop of one subscription: `events/poll {name, arguments, cursor, maxEvents}`; `hasMore` polls again at
// once (when the batch was not empty), otherwise the loop waits `nextPollMs` clamped to the floor and ceiling. The events of a response are stored
// before the response's cursor becomes the position; `truncated` leaves a gap marker.
import { afterFailure } from './after-failure.js';
import type { RunContext } from './run-context.js';
import { clampPollMs } from './tuning.js';
import { EventMethods, PollResultSchema } from './wire.js';

/** Runs a poll subscription until its context stops or it ends. */
export async function runPoll(ctx: RunContext): Promise<void> {
  const { sub, tuning, signal } = ctx;
  let failures = 0;
  while (!signal.aborted) {
    let client;
    try {
      client = await ctx.client();
    } catch {
      return;
    }
    let result;
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
            cursor: ctx.cursor(),
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
    // `hasMore` with nothing in the batch would be a tight loop: only a batch that delivered skips the wait.
    if (result.hasMore === true && result.events.length > 0) {
      ctx.status({ state: 'polling' });
      continue;
    }
    const wait = clampPollMs(result.nextPollMs, tuning);
    ctx.status({ state: 'polling', pollEveryMs: wait });
    await ctx.sleep(wait);
  }
}
