// What a delivery loop (poll, push, webhook) gets from the subscription manager for one running subscription.
import type { Client } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { Patch } from '../../../shared/optional-fields.js';
import type { HostActivity, SubscriptionStatus } from '../../../shared/domains/events.js';
import type { EventFailure } from './event-errors.js';
import type { EventTap } from './event-tap.js';
import type { StoredSubscription } from './subscription-store.js';
import type { EventsTuning } from './tuning.js';

/** One running subscription, as its delivery loop sees it. */
export interface RunContext {
  /** The subscription. */
  readonly sub: StoredSubscription;
  /** Timings and bounds. */
  readonly tuning: EventsTuning;
  /** Aborted when the run stops (pause, remove, end, shutdown). */
  readonly signal: AbortSignal;
  /** The server's current definition (timeouts). */
  config(): ServerConfig;
  /** The position to resume from (null: from now). */
  cursor(): string | null;
  /** A connected client; waits for the server to connect (never connects it). Rejects once the run stops. */
  client(): Promise<Client>;
  /** This client's session is gone: the next `client()` waits for another one. */
  retire(client: Client): void;
  /** The events tap of a client's transport. */
  tap(client: Client): EventTap | undefined;
  /**
   * Stores occurrences in order; a refused one becomes an error entry. With `perEventCursor`, the position
   * advances after each occurrence that carries one (push, webhook); otherwise the caller advances it (poll).
   */
  accept(raw: readonly unknown[], perEventCursor: boolean): void;
  /** Advances the position (undefined: unchanged; null: the type has no replay). */
  advance(cursor: string | null | undefined): void;
  /** Adds a gap marker: the server skipped events. */
  gap(message: string): void;
  /** Adds a delivery error entry (the subscription continues). */
  error(message: string): void;
  /** Adds an activity entry about this subscription (e.g. its polling slowed down). */
  activity(activity: HostActivity, message: string): void;
  /** Updates the live status. */
  status(patch: Patch<SubscriptionStatus>): void;
  /** Shows the failure and waits the backoff for `failures` consecutive failures (returns early when stopped). */
  retry(failure: EventFailure, failures: number): Promise<void>;
  /** Ends the subscription with the failure's reason (kept until the person resumes or removes it). */
  end(failure: EventFailure): void;
  /** Waits `ms`, or less when the run stops. */
  sleep(ms: number): Promise<void>;
  /** True while the feed has too much not yet on disk (a push stream holds notifications then). */
  backlogged(): boolean;
  /** Resolves once the feed is no longer backlogged. */
  drained(): Promise<void>;
  /** The callback URL to register: the stored one, or a relay subscription's current URL at its relay (stored when it moved). */
  callbackUrl(): Promise<string | undefined>;
  /** The webhook secret (webhook mode). */
  webhookSecret(): Promise<string>;
  /** Records what the server granted for a webhook registration. */
  webhookRegistered(id: string | undefined, refreshBefore: string | null | undefined): void;
  /** A line in the server's log. */
  log(level: 'info' | 'warning', text: string): void;
}
