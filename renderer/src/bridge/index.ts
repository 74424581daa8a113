// Picks Electron IPC or the headless WebSocket at start-up; nothing else knows which. Exports the renderer's one typed
// way into the core: `api`, one function per contract method generated from the contract's key list, and `onEvent`.
import type { BridgeApi, EventSubscriber } from '../../../shared/contract';
import { INVOKE_KEYS } from '../../../shared/contract-schemas';
import { AppError } from '../../../shared/errors';
import { createElectronBridge, findPreload } from './electron-bridge';
import type { Bridge } from './types';
import { createWsBridge, readToken } from './ws-bridge';

let current: Bridge | undefined;

/** Connects the bridge once. */
export async function connectBridge(): Promise<Bridge> {
  if (current) return current;
  const preload = findPreload();
  if (preload) current = createElectronBridge(preload);
  else {
    const token = readToken();
    if (!token)
      throw new AppError('invalid_request', 'Open Switchboard with the URL printed by "npm run headless" (it carries the access token).');
    current = await createWsBridge(token);
  }
  return current;
}

/** The connected bridge. */
export function bridge(): Bridge {
  if (!current) throw new AppError('internal', 'The bridge is not connected yet');
  return current;
}

/**
 * The contract as the renderer calls it: `api['servers.get']({ id })`. Exactly the contract's methods (the key list is
 * checked against InvokeMap), each forwarding to the bridge connected at start-up; they reject with AppError.
 */
export const api = Object.fromEntries(
  INVOKE_KEYS.map((key) => [key, (args: never) => bridge().api[key](args)]),
  // The cast only names what was built: one forwarding function per key of the checked list.
) as unknown as BridgeApi;

/** Subscribes to one contract event on the connected bridge; returns the unsubscribe function. */
export const onEvent: EventSubscriber = (event, listener) => bridge().on(event, listener);

/** Called when the connection to the core is lost (headless only). */
export function onDisconnect(listener: () => void): void {
  bridge().onDisconnect(listener);
}

/** Which shell runs the renderer: the desktop app has windows, headless mode has browser tabs. */
export function bridgeKind(): Bridge['kind'] {
  return bridge().kind;
}

export type { Bridge };
