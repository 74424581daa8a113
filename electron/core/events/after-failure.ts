// One rule for every delivery loop (poll, push, webhook) after a failed request: a lost session is left for the next
// client, a terminal failure ends the subscription, anything else waits the backoff for the consecutive failures.
import type { Client } from '@modelcontextprotocol/client';
import { classifyEventError } from './event-errors.js';
import type { RunContext } from './run-context.js';

/** Handles a failed request; returns the new count of consecutive failures, or null when the loop must stop. */
export async function afterFailure(ctx: RunContext, client: Client, err: unknown, failures: number): Promise<number | null> {
  if (ctx.signal.aborted) return null;
  const failure = classifyEventError(err);
  if (failure.kind === 'session') {
    ctx.retire(client);
    return failures;
  }
  if (failure.terminal) {
    ctx.end(failure);
    return null;
  }
  await ctx.retry(failure, failures + 1);
  return failures + 1;
}
