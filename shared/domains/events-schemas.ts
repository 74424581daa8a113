// Argument validators and event names for the events domain.
import { z } from 'zod';
import type { EventsEventMap, EventsInvokeMap } from './events.js';

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
    })
    .strict()
    .superRefine((a, ctx) => {
      if (a.mode === 'webhook' && a.webhookUrl === undefined)
        ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'Webhook delivery needs a callback URL' });
      if (a.mode !== 'webhook' && a.webhookUrl !== undefined)
        ctx.addIssue({ code: 'custom', path: ['webhookUrl'], message: 'A callback URL is only used with webhook delivery' });
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
