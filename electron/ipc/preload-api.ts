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
  } satisfies PreloadInvoke;
  const events = {
    'servers.changed': sub('servers.changed'),
    'servers.status': sub('servers.status'),
    'servers.log': sub('servers.log'),
    'app.notices': sub('app.notices'),
  } satisfies PreloadEvents;
  return { invoke, events };
}
