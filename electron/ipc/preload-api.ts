// The object the preload exposes: one function per contract method and one subscriber per event, generated from the
// contract's key lists. No generic invoke(channel) ever reaches the renderer.
import { EVENT_KEYS, INVOKE_KEYS } from '../../shared/contract-schemas.js';
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

/**
 * Builds the preload API from the contract's runtime key lists: exactly one function per method and one subscriber per
 * event, each bound to its own channel, so the exposure is the contract and nothing else (no channel-taking entry).
 */
export function buildPreloadApi(ports: PreloadPorts): PreloadApi {
  // The lists are checked against InvokeMap and EventMap in contract-schemas.ts; the casts only name what was built.
  const invoke = Object.fromEntries(INVOKE_KEYS.map((key) => [key, (args: unknown) => ports.invoke(key, args)])) as PreloadInvoke;
  const events = Object.fromEntries(
    EVENT_KEYS.map((key) => [key, (listener: (payload: unknown) => void) => ports.on(key, (payload) => listener(payload))]),
  ) as PreloadEvents;
  return { invoke, events };
}
