// Keeps one 2026-07-28 `subscriptions/listen` change stream open per live session and reports the gaps between streams.
import type { Client, McpSubscription, ServerCapabilities, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { SessionEvents } from './session-events.js';

/** Consecutive failed opens after which the stream is given up until the next connect. */
export const CHANGE_STREAM_MAX_FAILURES = 5;

/** Pause between a stream ending and the next open. */
const REOPEN_PAUSE_MS = 100;

/** Delay before the next open after `failures` consecutive failed opens: 250 ms doubling, at most 5 s. */
export function changeStreamBackoff(failures: number): number {
  return Math.min(5000, 250 * 2 ** Math.max(0, failures - 1));
}

type ListChangedField = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';

/** The filter fields of the stream, each also the name of its session event. */
const FIELDS: readonly ListChangedField[] = ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'];

/** The listen filter for every kind the server advertises `listChanged` for. */
export function changeStreamFilter(caps: ServerCapabilities | undefined): SubscriptionFilter {
  return {
    ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
}

/** What a change stream needs from its session. */
export interface ChangeStreamInput {
  /** The server id the session events carry. */
  id: string;
  /** The connected modern-era client. */
  client: Client;
  /** The server's capabilities (decide the filter). */
  capabilities: ServerCapabilities | undefined;
  /** Where gap events go (the same hub the client's listChanged handlers feed). */
  sessionEvents: SessionEvents | undefined;
  /** Session log lines. */
  log: (level: 'info' | 'warning', text: string) => void;
  /** Bound on each open's wait for the server's acknowledgement. */
  ackTimeoutMs: number;
}

/**
 * One session's change stream. Adopts the stream the SDK opened at connect (negotiated path) or opens one; when
 * it ends while the session is live it is reopened (backoff on failed opens, given up after 5 in a row), and
 * each reopen emits one list-changed session event per filtered kind, since a change may have fallen in the gap.
 * Notifications on the stream reach the Client's own listChanged handlers; this class never dispatches them.
 */
export class ChangeStream {
  /** The filter every open of this stream asks for. */
  readonly filter: SubscriptionFilter;
  readonly #input: ChangeStreamInput;
  readonly #stop = new AbortController();
  #pending: AbortController | undefined;
  #current: McpSubscription | undefined;
  #opens = 0;
  #wake: (() => void) | undefined;

  private constructor(input: ChangeStreamInput, filter: SubscriptionFilter) {
    this.#input = input;
    this.filter = filter;
  }

  /** A keeper for a modern client whose server advertises some listChanged; undefined otherwise. */
  static for(input: ChangeStreamInput): ChangeStream | undefined {
    if (input.client.getProtocolEra() !== 'modern') return undefined;
    const filter = changeStreamFilter(input.capabilities);
    if (Object.keys(filter).length === 0) return undefined;
    return new ChangeStream(input, filter);
  }

  /** The subscription open right now (diagnostics and tests). */
  get subscription(): McpSubscription | undefined {
    return this.#current;
  }

  /** How many streams have been open over this keeper's life (the first one included). */
  get opens(): number {
    return this.#opens;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#stop.signal.aborted;
  }

  /**
   * Starts keeping the stream. Resolves once the first open has settled (adopted, acknowledged or failed; a
   * failure is logged, never thrown); `signal` bounds only that first acknowledgement wait.
   */
  start(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((settled) => {
      void this.#run(signal, settled);
    });
  }

  /** Stops keeping the stream and closes the open one (session closed, removed or reconnecting). */
  close(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort();
    this.#pending?.abort();
    this.#wake?.();
    const sub = this.#current;
    this.#current = undefined;
    if (sub) void sub.close().catch(() => undefined);
  }

  async #run(firstSignal: AbortSignal | undefined, settled: () => void): Promise<void> {
    let sub = this.#input.client.autoOpenedSubscription;
    let failures = 0;
    let gap = false;
    try {
      while (!this.closed) {
        if (!sub) {
          try {
            sub = await this.#listen(this.#opens === 0 && failures === 0 ? firstSignal : undefined);
          } catch (error) {
            if (this.closed || firstSignal?.aborted) return;
            failures++;
            this.#input.log('warning', `Could not open the change stream: ${error instanceof Error ? error.message : String(error)}`);
            if (failures >= CHANGE_STREAM_MAX_FAILURES) {
              this.#input.log('warning', `Gave up on the change stream after ${failures} failed attempts; it reopens on the next connect`);
              // Changes in the gap before the failed reopens may have been missed.
              if (gap) this.#emitGap();
              return;
            }
            settled();
            await this.#sleep(changeStreamBackoff(failures));
            continue;
          }
          if (this.closed) {
            void sub.close().catch(() => undefined);
            return;
          }
          failures = 0;
          if (gap) {
            gap = false;
            this.#input.log('info', 'Reopened the change stream; re-listing in case a change was missed');
            this.#emitGap();
          }
        }
        this.#current = sub;
        this.#opens++;
        settled();
        const how = await sub.closed;
        if (this.#current === sub) this.#current = undefined;
        sub = undefined;
        if (this.closed) return;
        gap = true;
        this.#input.log('info', `The change stream ended (${how}); reopening it`);
        await this.#sleep(REOPEN_PAUSE_MS);
      }
    } finally {
      settled();
    }
  }

  /** One `subscriptions/listen`; close() and (for the first open) the connect signal abort its acknowledgement wait. */
  async #listen(firstSignal: AbortSignal | undefined): Promise<McpSubscription> {
    const abort = new AbortController();
    this.#pending = abort;
    const onAbort = (): void => abort.abort();
    firstSignal?.addEventListener('abort', onAbort, { once: true });
    if (this.closed || firstSignal?.aborted) onAbort();
    try {
      return await this.#input.client.listen(this.filter, { timeout: this.#input.ackTimeoutMs, signal: abort.signal });
    } finally {
      // Only the acknowledgement wait is bound to these signals; an open stream lives until close() closes it.
      if (this.#pending === abort) this.#pending = undefined;
      firstSignal?.removeEventListener('abort', onAbort);
    }
  }

  #emitGap(): void {
    const events = this.#input.sessionEvents;
    if (!events) return;
    for (const field of FIELDS) if (this.filter[field] === true) events.emit({ type: field, id: this.#input.id });
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.#wake = done;
    });
  }
}
