// The webhook loop of one subscription: `events/subscribe` with the person's callback URL and the subscription's
// `whsec_` secret, then the same call again before the granted `refreshBefore` (an occasional check when the grant
// has no expiry). Each answer's `deliveryStatus` shows in the status: a delivery problem category, a suspension the
// refresh lifted, a rate limit (`throttled`, `retryAfterMs`). A server that cannot reach or verify the callback URL
// (-32015) several times in a row ends the subscription with what to do instead of being asked forever: a laptop
// has no address the internet can reach. The deliveries themselves go to the person's relay; ones forwarded to
// Switchboard are verified and stored by the manager. Unsubscribing is the manager's job on remove and pause.
import type { Client } from '@modelcontextprotocol/client';
import { afterFailure } from './after-failure.js';
import { classifyEventError } from './event-errors.js';
import { label } from './payload.js';
import type { RunContext } from './run-context.js';
import type { StoredSubscription } from './subscription-store.js';
import type { EventsTuning } from './tuning.js';
import { EventMethods, SubscribeResultSchema, UnsubscribeResultSchema } from './wire.js';

/** Consecutive callback-endpoint failures (-32015) after which the subscription ends. */
export const MAX_CALLBACK_FAILURES = 5;
/** Longest `retryAfterMs` taken at its word (ms); a longer one is shown as this. */
const MAX_THROTTLE_MS = 24 * 60 * 60_000;
/** What the person can do when the server cannot reach the callback URL. */
export const UNREACHABLE_CALLBACK_HINT =
  'A server on the internet cannot reach an address on this computer: use the URL of a relay (an MCP server or webhook relay that receives deliveries for you) or of a tunnel you run, or choose poll or push delivery';

/** Refresh this long before the grant expires at most (ms). */
const REFRESH_LEAD_MAX_MS = 60_000;
/** And at least this long before it (ms). */
const REFRESH_LEAD_MIN_MS = 5000;

/** When to refresh a grant: a fifth of the remaining time ahead of expiry (5 s – 60 s), never sooner than 1 s from now. */
export function refreshAt(refreshBefore: string | null | undefined, now: number, t: EventsTuning): number {
  if (refreshBefore === null || refreshBefore === undefined) return now + t.webhookHealthMs;
  const expiry = Date.parse(refreshBefore);
  if (!Number.isFinite(expiry)) return now + Math.min(t.webhookHealthMs, t.webhookTtlMs / 2);
  const remaining = expiry - now;
  const lead = Math.min(REFRESH_LEAD_MAX_MS, Math.max(REFRESH_LEAD_MIN_MS, remaining / 5));
  return Math.max(now + 1000, expiry - lead);
}

/** Runs a webhook subscription (register, then refresh) until its context stops or it ends. */
export async function runWebhook(ctx: RunContext): Promise<void> {
  const { sub, signal, tuning } = ctx;
  if (sub.webhookUrl === undefined && sub.relayServerId === undefined) {
    ctx.end({ kind: 'invalid_arguments', terminal: true, reason: 'The subscription has no callback URL' });
    return;
  }
  let failures = 0;
  let callbackFailures = 0;
  while (!signal.aborted) {
    let client: Client;
    try {
      client = await ctx.client();
    } catch {
      return;
    }
    let url: string | undefined;
    try {
      // Asked on every registration and refresh: a relay may come back under another address.
      url = await ctx.callbackUrl();
    } catch (err) {
      if (signal.aborted) return;
      failures++;
      await ctx.retry(
        { kind: 'other', terminal: false, reason: err instanceof Error ? label(err.message, 300) : 'The relay gave no callback URL' },
        failures,
      );
      continue;
    }
    if (url === undefined) {
      ctx.end({ kind: 'invalid_arguments', terminal: true, reason: 'The subscription has no callback URL' });
      return;
    }
    let result;
    try {
      const secret = await ctx.webhookSecret();
      result = await client.request(
        {
          method: EventMethods.subscribe,
          params: {
            name: sub.name,
            arguments: sub.arguments,
            delivery: { mode: 'webhook', url, secret },
            cursor: ctx.cursor(),
            ttlMs: tuning.webhookTtlMs,
          },
        },
        SubscribeResultSchema,
        { signal, timeout: ctx.config().timeouts.requestSecs * 1000 },
      );
    } catch (err) {
      const failure = classifyEventError(err);
      callbackFailures = failure.kind === 'callback_endpoint' ? callbackFailures + 1 : 0;
      if (callbackFailures >= MAX_CALLBACK_FAILURES) {
        ctx.end({
          ...failure,
          terminal: true,
          reason: `${failure.reason}, ${callbackFailures} times in a row. ${UNREACHABLE_CALLBACK_HINT}`,
        });
        return;
      }
      const next = await afterFailure(ctx, client, err, failures);
      if (next === null) return;
      failures = next;
      continue;
    }
    failures = 0;
    callbackFailures = 0;
    const id = result.id === undefined ? undefined : label(String(result.id), 200);
    ctx.webhookRegistered(id, result.refreshBefore);
    if (result.truncated === true) ctx.gap('The server skipped events before this point (delivery starts later than the last position)');
    ctx.advance(result.cursor);
    const delivery = result.deliveryStatus;
    const lastError = delivery?.lastError;
    const now = Date.now();
    const next = refreshAt(result.refreshBefore, now, tuning);
    const throttled = delivery?.throttled === true;
    const retryAfter = delivery?.retryAfterMs;
    ctx.status({
      state: 'registered',
      refreshAt: next,
      deliveryError: typeof lastError === 'string' ? label(lastError, 64) : undefined,
      throttled: throttled ? true : undefined,
      throttledUntil:
        throttled && retryAfter !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0
          ? now + Math.min(retryAfter, MAX_THROTTLE_MS)
          : undefined,
      reason:
        result.deliveryStatus?.active === false
          ? 'The server had suspended deliveries after failures; this refresh resumed them'
          : undefined,
      retryAt: undefined,
    });
    await ctx.sleep(next - Date.now());
  }
}

/** Unsubscribes a webhook registration at the server (best effort, bounded). */
export async function unsubscribeWebhook(client: Client, sub: StoredSubscription, timeoutMs: number): Promise<void> {
  if (sub.webhookUrl === undefined) return;
  await client.request(
    { method: EventMethods.unsubscribe, params: { name: sub.name, arguments: sub.arguments, delivery: { url: sub.webhookUrl } } },
    UnsubscribeResultSchema,
    { timeout: timeoutMs },
  );
}
