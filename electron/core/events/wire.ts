// Wire shapes of the MCP Events extension (events/list, events/poll, events/stream and its notifications,
// events/subscribe, events/unsubscribe). Schemas are deliberately loose where the drafts differ; every value that
// reaches the feed is checked again where it is used.
import * as z from 'zod';

/** `_meta` key that carries the JSON-RPC id of the `events/stream` request a notification belongs to. */
export const SUBSCRIPTION_ID_META = 'io.modelcontextprotocol/subscriptionId';

/** Method names of the extension. */
export const EventMethods = {
  list: 'events/list',
  poll: 'events/poll',
  stream: 'events/stream',
  subscribe: 'events/subscribe',
  unsubscribe: 'events/unsubscribe',
} as const;

/** Notification methods of the extension. */
export const EventNotifications = {
  active: 'notifications/events/active',
  event: 'notifications/events/event',
  heartbeat: 'notifications/events/heartbeat',
  error: 'notifications/events/error',
  terminated: 'notifications/events/terminated',
  listChanged: 'notifications/events/list_changed',
} as const;

/** Prefix shared by every notification of the extension. */
export const EVENT_NOTIFICATION_PREFIX = 'notifications/events/';

const cursor = z.union([z.string(), z.null()]).optional();

/** One page of `events/list` (entries are checked one by one by the listing). */
export const ListPageSchema = z.looseObject({
  events: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/** The result of `events/poll`. */
export const PollResultSchema = z.looseObject({
  events: z.array(z.unknown()).default([]),
  cursor,
  truncated: z.boolean().optional(),
  hasMore: z.boolean().optional(),
  nextPollMs: z.number().optional(),
});
/** A parsed `events/poll` result. */
export type PollResult = z.infer<typeof PollResultSchema>;

/** The final frame of an `events/stream` request (carries nothing). */
export const StreamResultSchema = z.looseObject({});

/** The result of `events/subscribe` (webhook registration or refresh). */
export const SubscribeResultSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  refreshBefore: z.union([z.string(), z.null()]).optional(),
  cursor,
  truncated: z.boolean().optional(),
  deliveryStatus: z
    .looseObject({
      active: z.boolean().optional(),
      lastDeliveryAt: z.union([z.string(), z.null()]).optional(),
      lastError: z.union([z.string(), z.null()]).optional(),
      failedSince: z.union([z.string(), z.null()]).optional(),
      throttled: z.boolean().optional(),
      retryAfterMs: z.number().optional(),
    })
    .optional(),
});
/** A parsed `events/subscribe` result. */
export type SubscribeResult = z.infer<typeof SubscribeResultSchema>;

/** The (empty) result of `events/unsubscribe`. */
export const UnsubscribeResultSchema = z.looseObject({});

/** An error object as carried by `notifications/events/error` and `…/terminated`. */
export const WireErrorSchema = z.looseObject({
  code: z.number(),
  message: z.string().optional(),
  data: z.unknown().optional(),
});
/** A parsed wire error object. */
export type WireError = z.infer<typeof WireErrorSchema>;

/** Params of `notifications/events/active` and `…/heartbeat` (a position, and for active whether events were skipped). */
export const PositionParamsSchema = z.looseObject({ cursor, truncated: z.boolean().optional() });

/** Params of `notifications/events/error` and `…/terminated` (nested `error`; the flat early-draft shape too). */
export const ErrorParamsSchema = z.union([
  z.looseObject({ error: WireErrorSchema }),
  z.looseObject({ code: z.number(), message: z.string().optional(), data: z.unknown().optional() }),
]);

/** The error object of error/terminated params, whichever draft shape it came in. */
export function wireErrorOf(params: z.infer<typeof ErrorParamsSchema>): WireError {
  return 'error' in params && typeof params.error === 'object' ? (params.error as WireError) : (params as WireError);
}
