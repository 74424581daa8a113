// Contract handlers for the events domain: thin calls into the Host's events service.
import type { EventsInvokeMap } from '../../../shared/domains/events.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The events domain's handlers. */
export function eventsHandlers(host: Host): Pick<Handlers, keyof EventsInvokeMap> {
  const events = host.mcpEvents;
  return {
    'events.types': ({ id }) => events.types(id),
    'events.subscribe': (args) => events.subscribe(args),
    'events.subscriptions': async () => events.subscriptions(),
    'events.pause': ({ subscriptionId }) => events.pause(subscriptionId),
    'events.resume': ({ subscriptionId }) => events.resume(subscriptionId),
    'events.remove': ({ subscriptionId }) => events.remove(subscriptionId),
    'events.feed': async ({ filter, cursor, limit }) => events.feed(filter, cursor, limit),
  };
}
