// The push loop of one subscription: one `events/stream` request at a time, outside the tool-call queue and with no
// request timeout. Its notifications come from the events tap in the order the transport read them. The stream is
// reopened from the last accepted position when the server ends it, when it stays silent (no event, no heartbeat)
// for the silence timeout, when the session is retired, or when more notifications wait than the buffer holds while
// the feed catches up. Stopping aborts the request: the SDK then sends `notifications/cancelled` (stdio, legacy HTTP)
// or closes the request's response stream (2026-07-28 HTTP).
import type { Client } from '@modelcontextprotocol/client';
import { classifyWireError, type EventFailure } from './event-errors.js';
import { STREAM_KEY_META, type StreamSink } from './event-tap.js';
import { afterFailure } from './after-failure.js';
import type { RunContext } from './run-context.js';
import { ErrorParamsSchema, EventMethods, EventNotifications, PositionParamsSchema, StreamResultSchema, wireErrorOf } from './wire.js';

/** The longest timer Node accepts: the stream request effectively has no timeout. */
export const NO_TIMEOUT_MS = 2_147_483_647;
/** A stream that ends sooner than this without delivering an event counts as a failure (backoff). */
export const QUICK_CLOSE_MS = 5000;

/** How one stream ended. */
type StreamOutcome =
  | { kind: 'stopped' }
  | { kind: 'closed'; events: number }
  | { kind: 'silent' }
  | { kind: 'overflow' }
  | { kind: 'terminated'; failure: EventFailure }
  | { kind: 'failed'; err: unknown };

/** Runs a push subscription until its context stops or it ends. */
export async function runPush(ctx: RunContext): Promise<void> {
  const { signal, tuning } = ctx;
  let failures = 0;
  while (!signal.aborted) {
    let client: Client;
    try {
      client = await ctx.client();
    } catch {
      return;
    }
    ctx.status({ state: 'starting' });
    const openedAt = Date.now();
    const outcome = await openStream(ctx, client, () => {
      failures = 0;
    });
    switch (outcome.kind) {
      case 'stopped':
        return;
      case 'closed':
        if (outcome.events > 0 || Date.now() - openedAt >= QUICK_CLOSE_MS) {
          failures = 0;
          ctx.log('info', `The server ended the event stream for ${ctx.sub.name}; reopening it`);
          await ctx.sleep(tuning.reopenPauseMs);
        } else {
          failures += 1;
          await ctx.retry({ kind: 'other', terminal: false, reason: 'The server ended the event stream as soon as it opened' }, failures);
        }
        break;
      case 'silent':
        ctx.log(
          'warning',
          `The event stream for ${ctx.sub.name} was silent for ${Math.round(tuning.streamSilenceMs / 1000)} s; reopening it`,
        );
        break;
      case 'overflow':
        ctx.log(
          'warning',
          `More than ${tuning.streamBuffer} notifications waited while the feed caught up; reopening the stream from the last stored event`,
        );
        await ctx.drained();
        break;
      case 'terminated':
        ctx.end(outcome.failure);
        return;
      case 'failed': {
        const next = await afterFailure(ctx, client, outcome.err, failures);
        if (next === null) return;
        failures = next;
        break;
      }
    }
  }
}

/** Opens one stream and resolves when it is over. `onActive` runs when the server confirms it. */
function openStream(ctx: RunContext, client: Client, onActive: () => void): Promise<StreamOutcome> {
  const { sub, tuning } = ctx;
  const tap = ctx.tap(client);
  if (!tap) return Promise.resolve({ kind: 'failed', err: new Error('Not connected') });
  return new Promise<StreamOutcome>((resolve) => {
    const abort = new AbortController();
    const buffer: [string, Record<string, unknown>][] = [];
    let settled = false;
    let draining = false;
    let events = 0;
    let streaming = false;
    let silence: ReturnType<typeof setTimeout> | undefined;

    const finish = (outcome: StreamOutcome): void => {
      if (settled) return;
      settled = true;
      if (silence) clearTimeout(silence);
      ctx.signal.removeEventListener('abort', onStop);
      binding.dispose();
      abort.abort();
      resolve(outcome);
    };
    const onStop = (): void => finish({ kind: 'stopped' });
    const armSilence = (): void => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => finish({ kind: 'silent' }), tuning.streamSilenceMs);
      silence.unref?.();
    };
    const live = (): void => {
      if (streaming) return;
      streaming = true;
      onActive();
      ctx.status({ state: 'streaming', reason: undefined, retryAt: undefined });
    };

    const handle = (method: string, params: Record<string, unknown>): void => {
      switch (method) {
        case EventNotifications.event:
          events += 1;
          ctx.accept([params], true);
          live();
          return;
        case EventNotifications.active:
        case EventNotifications.heartbeat: {
          const p = PositionParamsSchema.safeParse(params);
          if (!p.success) {
            ctx.error(`The server sent a malformed ${method}`);
            return;
          }
          if (method === EventNotifications.active) {
            if (p.data.truncated === true)
              ctx.gap('The server skipped events before this point (the stream resumed later than the last position)');
            live();
          }
          ctx.advance(p.data.cursor);
          return;
        }
        case EventNotifications.error:
        case EventNotifications.terminated: {
          const p = ErrorParamsSchema.safeParse(params);
          const failure = p.success
            ? (() => {
                const e = wireErrorOf(p.data);
                return classifyWireError(e.code, e.message, e.data);
              })()
            : ({ kind: 'other', terminal: true, reason: 'The server ended the stream with a malformed error' } satisfies EventFailure);
          if (method === EventNotifications.terminated) finish({ kind: 'terminated', failure: { ...failure, terminal: true } });
          else ctx.error(`The server reported a delivery problem: ${failure.reason}`);
          return;
        }
        default:
          return;
      }
    };

    const drain = async (): Promise<void> => {
      draining = true;
      await ctx.drained();
      draining = false;
      while (buffer.length > 0 && !settled) {
        const [method, params] = buffer.shift() as [string, Record<string, unknown>];
        handle(method, params);
        if (ctx.backlogged() && buffer.length > 0) {
          void drain();
          return;
        }
      }
    };

    const sink: StreamSink = {
      notification(method, params) {
        if (settled) return;
        armSilence();
        if (buffer.length > 0 || ctx.backlogged()) {
          if (buffer.length >= tuning.streamBuffer) {
            finish({ kind: 'overflow' });
            return;
          }
          buffer.push([method, params]);
          if (!draining) void drain();
          return;
        }
        handle(method, params);
      },
      ended() {
        finish({ kind: 'closed', events });
      },
    };
    const binding = tap.expect(sink);
    ctx.signal.addEventListener('abort', onStop, { once: true });
    if (ctx.signal.aborted) {
      onStop();
      return;
    }
    armSilence();
    client
      .request(
        {
          method: EventMethods.stream,
          params: { name: sub.name, arguments: sub.arguments, cursor: ctx.cursor(), _meta: { [STREAM_KEY_META]: binding.key } },
        },
        StreamResultSchema,
        { signal: abort.signal, timeout: NO_TIMEOUT_MS },
      )
      .then(
        () => finish({ kind: 'closed', events }),
        (err: unknown) => finish({ kind: 'failed', err }),
      );
  });
}
