// The object the preload exposes: one explicit function per contract method and one
// explicit subscriber per event. No generic invoke(channel) ever reaches the renderer.
import type { EventKey, EventMap, InvokeArgs, InvokeKey, InvokeResult, IpcEnvelope } from '../../shared/contract.js';

/** The preload's raw API: each method returns the IPC envelope; the renderer bridge unwraps it. */
export type PreloadInvoke = { [K in InvokeKey]: (args: InvokeArgs<K>) => Promise<IpcEnvelope<InvokeResult<K>>> };
/** One subscribe function per event; each returns its unsubscribe function. */
export type PreloadEvents = { [E in EventKey]: (listener: (payload: EventMap[E]) => void) => () => void };
/** What `window.switchboard` holds in the Electron app. */
export interface PreloadApi {
  invoke: PreloadInvoke;
  events: PreloadEvents;
}

/** The Electron primitives the preload uses, passed in so this module stays testable. */
export interface PreloadPorts {
  invoke(channel: InvokeKey, args: unknown): Promise<unknown>;
  on(channel: EventKey, listener: (payload: unknown) => void): () => void;
}

/** Builds the preload API. Listing every key here (not looping) keeps exposure explicit. */
export function buildPreloadApi(ports: PreloadPorts): PreloadApi {
  const call =
    <K extends InvokeKey>(key: K) =>
    (args: InvokeArgs<K>) =>
      ports.invoke(key, args) as Promise<IpcEnvelope<InvokeResult<K>>>;
  const sub =
    <E extends EventKey>(key: E) =>
    (listener: (payload: EventMap[E]) => void) =>
      ports.on(key, (payload) => listener(payload as EventMap[E]));
  const invoke = {
    'app.info': call('app.info'),
    'app.dismissNotice': call('app.dismissNotice'),
    'app.listening': call('app.listening'),
    'app.openLink': call('app.openLink'),
    'app.leftovers': call('app.leftovers'),
    'app.endLeftovers': call('app.endLeftovers'),
    'servers.list': call('servers.list'),
    'servers.get': call('servers.get'),
    'servers.add': call('servers.add'),
    'servers.update': call('servers.update'),
    'servers.remove': call('servers.remove'),
    'servers.importPreview': call('servers.importPreview'),
    'servers.import': call('servers.import'),
    'servers.export': call('servers.export'),
    'servers.addDemo': call('servers.addDemo'),
    'servers.connect': call('servers.connect'),
    'servers.disconnect': call('servers.disconnect'),
    'servers.restart': call('servers.restart'),
    'servers.approve': call('servers.approve'),
    'servers.status': call('servers.status'),
    'servers.logs': call('servers.logs'),
    'servers.test': call('servers.test'),
    'catalog.groups': call('catalog.groups'),
    'catalog.select': call('catalog.select'),
    'catalog.search': call('catalog.search'),
    'catalog.tool': call('catalog.tool'),
    'catalog.refresh': call('catalog.refresh'),
    'catalog.approveTool': call('catalog.approveTool'),
    'tools.call': call('tools.call'),
    'tools.cancel': call('tools.cancel'),
    'calls.history': call('calls.history'),
    'calls.result': call('calls.result'),
    'calls.save': call('calls.save'),
    'calls.clear': call('calls.clear'),
    'calls.export': call('calls.export'),
    'calls.exportTest': call('calls.exportTest'),
    'auth.status': call('auth.status'),
    'auth.begin': call('auth.begin'),
    'auth.complete': call('auth.complete'),
    'auth.signOut': call('auth.signOut'),
    'auth.deviceStart': call('auth.deviceStart'),
    'auth.deviceCancel': call('auth.deviceCancel'),
    'auth.deviceOpen': call('auth.deviceOpen'),
    'auth.setBearer': call('auth.setBearer'),
    'auth.setClient': call('auth.setClient'),
    'resources.list': call('resources.list'),
    'resources.templates': call('resources.templates'),
    'resources.read': call('resources.read'),
    'resources.subscribe': call('resources.subscribe'),
    'resources.unsubscribe': call('resources.unsubscribe'),
    'prompts.list': call('prompts.list'),
    'prompts.get': call('prompts.get'),
    'completion.complete': call('completion.complete'),
    'elicitation.pending': call('elicitation.pending'),
    'elicitation.respond': call('elicitation.respond'),
    'registry.sources': call('registry.sources'),
    'registry.addSource': call('registry.addSource'),
    'registry.removeSource': call('registry.removeSource'),
    'registry.search': call('registry.search'),
    'registry.prepare': call('registry.prepare'),
    'registry.install': call('registry.install'),
    'registry.updates': call('registry.updates'),
    'registry.previewUpdate': call('registry.previewUpdate'),
    'registry.applyUpdate': call('registry.applyUpdate'),
    'registry.parseInstall': call('registry.parseInstall'),
    'registry.takeLinks': call('registry.takeLinks'),
    'registry.openLink': call('registry.openLink'),
    'events.types': call('events.types'),
    'events.subscribe': call('events.subscribe'),
    'events.subscriptions': call('events.subscriptions'),
    'events.pause': call('events.pause'),
    'events.resume': call('events.resume'),
    'events.remove': call('events.remove'),
    'events.feed': call('events.feed'),
    'gateway.status': call('gateway.status'),
    'gateway.enable': call('gateway.enable'),
    'gateway.disable': call('gateway.disable'),
    'gateway.clients': call('gateway.clients'),
    'gateway.addClient': call('gateway.addClient'),
    'gateway.updateClient': call('gateway.updateClient'),
    'gateway.removeClient': call('gateway.removeClient'),
    'gateway.rotateToken': call('gateway.rotateToken'),
    'gateway.decide': call('gateway.decide'),
    'gateway.trustTool': call('gateway.trustTool'),
    'gateway.activity': call('gateway.activity'),
    'gateway.setupPreview': call('gateway.setupPreview'),
    'gateway.setupInstall': call('gateway.setupInstall'),
    'protocol.traffic': call('protocol.traffic'),
    'protocol.clear': call('protocol.clear'),
    'protocol.features': call('protocol.features'),
    'protocol.setFeatures': call('protocol.setFeatures'),
    'protocol.setConsent': call('protocol.setConsent'),
    'roots.set': call('roots.set'),
    'protocol.tasks': call('protocol.tasks'),
    'sampling.pending': call('sampling.pending'),
    'sampling.respond': call('sampling.respond'),
    'apps.open': call('apps.open'),
    'apps.prefetch': call('apps.prefetch'),
    'apps.close': call('apps.close'),
    'apps.callTool': call('apps.callTool'),
    'apps.readResource': call('apps.readResource'),
    'apps.listResources': call('apps.listResources'),
    'apps.listResourceTemplates': call('apps.listResourceTemplates'),
    'apps.checkLink': call('apps.checkLink'),
    'apps.openLink': call('apps.openLink'),
    'apps.openWindow': call('apps.openWindow'),
    'apps.server': call('apps.server'),
    'apps.setGrants': call('apps.setGrants'),
  } satisfies PreloadInvoke;
  const events = {
    'servers.changed': sub('servers.changed'),
    'servers.status': sub('servers.status'),
    'servers.log': sub('servers.log'),
    'app.notices': sub('app.notices'),
    'catalog.changed': sub('catalog.changed'),
    'call.progress': sub('call.progress'),
    'call.finished': sub('call.finished'),
    'auth.changed': sub('auth.changed'),
    'resources.updated': sub('resources.updated'),
    'resources.listChanged': sub('resources.listChanged'),
    'resources.subscriptionLost': sub('resources.subscriptionLost'),
    'prompts.listChanged': sub('prompts.listChanged'),
    'elicitation.requested': sub('elicitation.requested'),
    'elicitation.cancelled': sub('elicitation.cancelled'),
    'registry.linkReceived': sub('registry.linkReceived'),
    'registry.sourcesChanged': sub('registry.sourcesChanged'),
    'events.occurred': sub('events.occurred'),
    'events.subscriptionStatus': sub('events.subscriptionStatus'),
    'gateway.request': sub('gateway.request'),
    'gateway.activity': sub('gateway.activity'),
    'protocol.traffic': sub('protocol.traffic'),
    'protocol.cleared': sub('protocol.cleared'),
    'protocol.featuresChanged': sub('protocol.featuresChanged'),
    'sampling.requested': sub('sampling.requested'),
    'sampling.settled': sub('sampling.settled'),
    'apps.grantsChanged': sub('apps.grantsChanged'),
  } satisfies PreloadEvents;
  return { invoke, events };
}
