// Events extension and feed calls into the core; the only place the events domain reaches the bridge.
import type { EventMap } from '../../../shared/contract';
import type { EventDeliveryMode, FeedFilter } from '../../../shared/domains/events';
import { bridge } from '../bridge';

export const eventsService = {
  types: (id: string) => bridge().api['events.types']({ id }),
  subscribe: (args: { id: string; name: string; arguments: Record<string, unknown>; mode: EventDeliveryMode; webhookUrl?: string }) =>
    bridge().api['events.subscribe'](args),
  subscriptions: () => bridge().api['events.subscriptions']({}),
  pause: (subscriptionId: string) => bridge().api['events.pause']({ subscriptionId }),
  resume: (subscriptionId: string) => bridge().api['events.resume']({ subscriptionId }),
  remove: (subscriptionId: string) => bridge().api['events.remove']({ subscriptionId }),
  feed: (filter: FeedFilter, limit: number, cursor?: string) =>
    bridge().api['events.feed']({ filter, limit, ...(cursor !== undefined ? { cursor } : {}) }),
  onOccurred: (listener: (payload: EventMap['events.occurred']) => void) => bridge().on('events.occurred', listener),
  onSubscriptionStatus: (listener: (payload: EventMap['events.subscriptionStatus']) => void) =>
    bridge().on('events.subscriptionStatus', listener),
};
