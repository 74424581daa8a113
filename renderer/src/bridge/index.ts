// Picks Electron IPC or the headless WebSocket at start-up; nothing else knows which.
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

/** The connected bridge; services call this. */
export function bridge(): Bridge {
  if (!current) throw new AppError('internal', 'The bridge is not connected yet');
  return current;
}

export type { Bridge };
