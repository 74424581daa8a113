// Contract types for the MCP Events extension client and the feed: the event types a server offers, the
// subscriptions a person made, and one timeline of event occurrences and host activity. Everything here is
// display data: server strings sanitized, payloads bounded and shown as JSON text.
import { z } from 'zod';

/** A way events reach the app: polling, a push stream, or webhook POSTs to a URL the person runs. */
export type EventDeliveryMode = 'poll' | 'push' | 'webhook';

/** One event type a server offers (sanitized; schemas within the server's schema budget). */
export interface EventTypeView {
  /** The type's name, as the server spells it (control characters removed). */
  name: string;
  /** What the type reports (sanitized; empty when the server gave none). */
  description: string;
  /** Delivery modes the server offers for it, among those Switchboard knows. */
  delivery: EventDeliveryMode[];
  /** JSON Schema of the subscription arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of each occurrence's data, when given. */
  payloadSchema?: Record<string, unknown>;
}

/** What a server offers in events. */
export interface EventTypesResult {
  /** Server id. */
  serverId: string;
  /** False when the server has no events (no capability and `events/list` unknown, or no answer in time). */
  supported: boolean;
  /** The event types, sorted by name. */
  types: EventTypeView[];
  /** Plain-words notes about the listing (types skipped for their size, duplicates, a silent server). */
  notices: string[];
  /** When the list was fetched (ms since epoch). */
  checkedAt: number;
}

/** Where a subscription is in its life. */
export type SubscriptionState = 'waiting' | 'starting' | 'polling' | 'streaming' | 'registered' | 'retrying' | 'paused' | 'ended';

/** A subscription's live status, as the feed shows it. */
export interface SubscriptionStatus {
  /** waiting: the server is not connected; retrying: a failure, next try at retryAt; ended: no more events. */
  state: SubscriptionState;
  /** Why it is retrying, waiting or ended (plain words; server text sanitized). */
  reason?: string;
  /** Polling: the interval in use (ms). */
  pollEveryMs?: number;
  /** Retrying: when the next attempt starts (ms since epoch). */
  retryAt?: number;
  /** Webhook: when the registration is refreshed next (ms since epoch). */
  refreshAt?: number;
  /** Webhook: the server's delivery problem category (connection_refused, timeout, http_5xx…), when it reported one. */
  deliveryError?: string;
  /** Webhook: the server said it is delaying (rate-limiting) deliveries; events are late, not lost. */
  throttled?: boolean;
  /** Webhook, throttled: when the server expects normal delivery again (ms since epoch), when it said. */
  throttledUntil?: number;
  /** Webhook through a relay: why the relay's deliveries cannot be read now (absent while they can). */
  relayError?: string;
  /** Ended for an authorization failure: signing in again and resuming may help. */
  signIn?: boolean;
  /** When the subscription's position (cursor) last advanced (ms since epoch). */
  lastCursorAt?: number;
  /** When the last event was stored (ms since epoch). */
  lastEventAt?: number;
  /** Events stored for it since it was created. */
  received: number;
}

/** One subscription as the renderer sees it (not secret: no webhook secret). */
export interface SubscriptionView {
  /** Subscription id (local, stable). */
  id: string;
  /** Server id. */
  serverId: string;
  /** Event type name. */
  name: string;
  /** Subscription arguments as entered. */
  arguments: Record<string, unknown>;
  /** Delivery mode. */
  mode: EventDeliveryMode;
  /** Webhook mode: the callback URL (the person's, or the one their relay server gave). */
  webhookUrl?: string;
  /** Webhook mode through a relay: the relay server (one of the person's servers) that hands deliveries over. */
  relayServerId?: string;
  /** When it was created (ms since epoch). */
  createdAt: number;
  /** Live status. */
  status: SubscriptionStatus;
}

/** Kinds of feed entries: an occurrence, a gap the server reported, a delivery error, or the host's own activity. */
export type FeedEntryKind = 'event' | 'gap' | 'error' | 'activity';

/** What a host activity entry reports. */
export type HostActivity =
  | 'connected'
  | 'disconnected'
  | 'failed'
  | 'needs-sign-in'
  | 'tools-changed'
  | 'resources-changed'
  | 'prompts-changed'
  | 'resource-updated'
  | 'event-types-changed'
  | 'poll-slowed'
  | 'resubscribed';

/** One entry of the feed. Server-provided text is sanitized; `data` is bounded JSON text, never markup. */
export interface FeedEntry {
  /** Feed position: unique, increasing; newer entries have larger values. */
  seq: number;
  /** Entry kind. */
  kind: FeedEntryKind;
  /** Server id. */
  serverId: string;
  /** When it happened (ms since epoch): the occurrence's own timestamp when valid, else when it arrived. */
  time: number;
  /** When Switchboard received it (ms since epoch). */
  receivedAt: number;
  /** Subscription id (event, gap and error entries). */
  subscriptionId?: string;
  /** Event type name (event, gap and error entries). */
  name?: string;
  /** The server's event id (event entries). */
  eventId?: string;
  /** The occurrence's timestamp as the server sent it (event entries; sanitized, cut to 64 characters). */
  timestamp?: string;
  /** The payload as pretty-printed JSON text, bounded; control and bidi characters escaped so they show. */
  data?: string;
  /** The payload's size on the wire (bytes). */
  dataBytes?: number;
  /** True when `data` was cut to the display budget or nesting depth. */
  dataTruncated?: boolean;
  /** Gap, error and activity entries: what happened, in plain words. */
  message?: string;
  /** Activity entries: what kind of activity. */
  activity?: HostActivity;
  /** Resource updates: the resource's URI (sanitized). */
  uri?: string;
}

/** Which entries a feed page holds; every field narrows, `{}` means everything. */
export interface FeedFilter {
  /** Only these servers. */
  serverIds?: string[];
  /** Only these event type names. */
  names?: string[];
  /** Only these subscriptions. */
  subscriptionIds?: string[];
  /** Only these kinds. */
  kinds?: FeedEntryKind[];
  /** Only entries at or after this time (ms since epoch). */
  since?: number;
  /** Only entries at or before this time (ms since epoch). */
  until?: number;
  /** Case-insensitive text over names, event ids, messages and payloads. */
  text?: string;
}

/** One page of the feed, newest first. */
export interface FeedPage {
  /** Entries, newest first. */
  entries: FeedEntry[];
  /** Pass back as `cursor` for the next (older) page; absent on the last page. */
  nextCursor?: string;
  /** How many stored entries match the filter in all (first page only: the person sees "72 of 412"). */
  total?: number;
}

/** Contract methods of the events domain: name → (argument object) → result. */
export interface EventsInvokeMap {
  /** The event types a server offers (lists them when not known yet; connects the server if needed). */
  'events.types': (args: { id: string }) => Promise<EventTypesResult>;
  /** Subscribes to an event type with arguments and a delivery mode (webhook needs `webhookUrl` or `relayServerId`). */
  'events.subscribe': (args: {
    id: string;
    name: string;
    arguments: Record<string, unknown>;
    mode: EventDeliveryMode;
    webhookUrl?: string;
    relayServerId?: string;
  }) => Promise<SubscriptionView>;
  /** Every subscription with its status. */
  'events.subscriptions': (args: Record<string, never>) => Promise<SubscriptionView[]>;
  /** Stops delivery without forgetting the subscription or its position. */
  'events.pause': (args: { subscriptionId: string }) => Promise<SubscriptionView>;
  /** Resumes a paused or ended subscription from its last position. */
  'events.resume': (args: { subscriptionId: string }) => Promise<SubscriptionView>;
  /** Ends and forgets a subscription (webhook: unsubscribes at the server). Its stored entries stay in the feed. */
  'events.remove': (args: { subscriptionId: string }) => Promise<void>;
  /** A page of the feed, newest first; `cursor` continues with older entries. */
  'events.feed': (args: { filter: FeedFilter; cursor?: string; limit: number }) => Promise<FeedPage>;
}

/** Events the core pushes for the events domain: name → payload. */
export interface EventsEventMap {
  /** New feed entries, newest first, coalesced; `more` counts the older arrivals of the same moment left out of this push. */
  'events.occurred': { entries: FeedEntry[]; more: number };
  /** A subscription was created, changed status, or was removed (`subscription` absent). */
  'events.subscriptionStatus': { subscriptionId: string; subscription?: SubscriptionView };
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const id = z.string().min(1).max(200);
const subscriptionId = z.string().min(1).max(100);
const mode = z.enum(['poll', 'push', 'webhook']);
const kind = z.enum(['event', 'gap', 'error', 'activity']);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(1000);

/** Largest serialized subscription arguments accepted (64 KiB, the schema budget). */
export const MAX_SUBSCRIPTION_ARGS_BYTES = 64 * 1024;
/** Largest feed page. */
export const MAX_FEED_PAGE = 500;

/** Validator of a feed filter (`{}` means everything). */
export const FeedFilterSchema = z
  .object({
    serverIds: list(id).optional(),
    names: list(z.string().min(1).max(1024)).optional(),
    subscriptionIds: list(subscriptionId).optional(),
    kinds: z.array(kind).max(4).optional(),
    since: z.number().finite().nonnegative().optional(),
    until: z.number().finite().nonnegative().optional(),
    text: z.string().max(1000).optional(),
  })
  .strict();

const args = z.record(z.string(), z.unknown()).refine(
  (a) => {
    try {
      return new TextEncoder().encode(JSON.stringify(a)).length <= MAX_SUBSCRIPTION_ARGS_BYTES;
    } catch {
      return false;
    }
  },
  `Subscription arguments must serialize to at most ${MAX_SUBSCRIPTION_ARGS_BYTES / 1024} KiB of JSON`,
);

/** Validators for the events domain's arguments. */
export const eventsArgSchemas = {
  'events.types': z.object({ id }).strict(),
  'events.subscribe': z
    .object({
      id,
      name: z.string().min(1).max(1024),
      arguments: args,
      mode,
      webhookUrl: z.string().min(1).max(2048).optional(),
      relayServerId: id.optional(),
    })
    .strict()
    .superRefine((a, ctx) => {
      if (a.mode === 'webhook' && (a.webhookUrl === undefined) === (a.relayServerId === undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['webhookUrl'],
          message: 'Webhook delivery needs a callback URL or a relay server (one of them)',
        });
      if (a.mode !== 'webhook' && (a.webhookUrl !== undefined || a.relayServerId !== undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['webhookUrl'],
          message: 'A callback URL or relay server is only used with webhook delivery',
        });
    }),
  'events.subscriptions': z.object({}).strict(),
  'events.pause': z.object({ subscriptionId }).strict(),
  'events.resume': z.object({ subscriptionId }).strict(),
  'events.remove': z.object({ subscriptionId }).strict(),
  'events.feed': z
    .object({
      filter: FeedFilterSchema,
      cursor: z
        .string()
        .regex(/^\d{1,16}$/, 'Not a feed cursor')
        .optional(),
      limit: z.number().int().min(1).max(MAX_FEED_PAGE),
    })
    .strict(),
} satisfies Record<keyof EventsInvokeMap, z.ZodType>;

/** Event names of the events domain. */
export const eventsEventKeys = { 'events.occurred': true, 'events.subscriptionStatus': true } satisfies Record<keyof EventsEventMap, true>;
