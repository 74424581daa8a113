// Contract handlers for the events domain.
import type { EventsInvokeMap } from '../../../shared/domains/events.js';
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';

/** The events domain's handlers. */
export function eventsHandlers(_host: Host): Pick<Handlers, keyof EventsInvokeMap> {
  return {};
}
