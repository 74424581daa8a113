// The one place the store hears the core: every contract event is subscribed here, once, at start-up (the app
// slice's start), and handed to the slice action that applies it. Nothing else subscribes, so what the renderer
// hears is read in one table, and a new event in the contract fails to compile until it is wired here.
import type { EventKey, EventMap } from '../../../shared/contract';
import type { Bridge } from '../bridge/types';
import type { Store } from './types';

/** What the wiring needs of the bridge: event subscription and the connection's loss. */
export type CoreEvents = Pick<Bridge, 'on' | 'onDisconnect'>;

/** How the store applies each core event. */
type Handlers = { [E in EventKey]: (store: Store, payload: EventMap[E]) => void };

const handlers: Handlers = {
  'servers.changed': (s, { servers }) => s.applyServerList(servers),
  'servers.status': (s, { id, status }) => s.applyStatus(id, status),
  'servers.log': (s, { id, entry }) => s.applyLog(id, entry),
  'app.notices': (s, { notices }) => s.applyNotices(notices),
  'app.coreStatus': (s, status) => s.applyCoreStatus(status),
  'catalog.changed': (s, { revision }) => s.applyCatalogChanged(revision),
  'call.progress': (s, progress) => s.applyCallProgress(progress),
  'call.finished': (s, outcome) => s.applyCallFinished(outcome),
  'auth.changed': (s, status) => s.applyAuth(status),
  'resources.updated': (s, { id, uri }) => s.applyResourceUpdated(id, uri),
  'resources.listChanged': (s, { id }) => s.applyResourceListChanged(id),
  'resources.subscriptionLost': (s, { id, uri, reason }) => s.applySubscriptionLost(id, uri, reason),
  'prompts.listChanged': (s, { id }) => s.applyPromptListChanged(id),
  'elicitation.requested': (s, { request }) => s.applyElicitationRequested(request),
  'elicitation.cancelled': (s, { requestId }) => s.applyElicitationCancelled(requestId),
  'events.occurred': (s, payload) => s.applyEventsOccurred(payload),
  'events.subscriptionStatus': (s, payload) => s.applySubscriptionStatus(payload),
  'gateway.request': (s, { pending }) => s.applyGatewayRequest(pending),
  'gateway.activity': (s, entry) => s.applyGatewayActivity(entry),
  'apps.grantsChanged': (s, { serverId, grants }) => s.applyGrantsChanged(serverId, grants),
  'registry.linkReceived': (s) => void s.showInstallLinks(),
  'registry.sourcesChanged': (s, { sources }) => s.applyRegistrySources(sources),
  'protocol.traffic': (s, { entries }) => s.applyTraffic(entries),
  'protocol.cleared': (s, { serverId }) => s.applyTrafficCleared(serverId),
  'protocol.featuresChanged': (s, view) => s.applyFeatures(view),
  'sampling.requested': (s, { request }) => s.applySamplingRequested(request),
  'sampling.settled': (s, { requestId }) => s.applySamplingSettled(requestId),
};

/** The events the wiring subscribes to: every contract event. */
export const WIRED_EVENTS = Object.keys(handlers) as EventKey[];

function subscribe<E extends EventKey>(events: CoreEvents, event: E, get: () => Store): () => void {
  const handler: Handlers[E] = handlers[event];
  return events.on(event, (payload) => handler(get(), payload));
}

/** Subscribes the store to every core event; returns the function that unsubscribes them all. */
export function wireCoreEvents(events: CoreEvents, get: () => Store): () => void {
  const offs = WIRED_EVENTS.map((event) => subscribe(events, event, get));
  // A lost connection cannot be unsubscribed from; once unwired it is ignored.
  let wired = true;
  events.onDisconnect(() => {
    if (wired) get().applyBridgeLost();
  });
  return () => {
    wired = false;
    for (const off of offs) off();
  };
}
