// Registers exactly one ipcMain handler per contract method; calls from any frame other
// than the app's own top frame are refused before dispatch.
import { INVOKE_KEYS } from '../../shared/contract-schemas.js';
import type { InvokeKey, IpcEnvelope } from '../../shared/contract.js';
import type { Dispatch } from '../core/dispatcher.js';
import { unsendableReason } from '../core/sendable.js';

/** The part of an IpcMainInvokeEvent this module reads. */
export interface InvokeEventLike {
  senderFrame: unknown;
}

/** The part of ipcMain this module uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, args: unknown) => Promise<unknown>): void;
}

/** Registers the handlers; `isTrustedFrame` decides whether a sender frame is the app's own top frame. */
export function registerIpc(ipcMain: IpcMainLike, dispatch: Dispatch, isTrustedFrame: (frame: unknown) => boolean): InvokeKey[] {
  for (const key of INVOKE_KEYS) {
    ipcMain.handle(key, async (event, args): Promise<IpcEnvelope<unknown>> => {
      if (!isTrustedFrame(event.senderFrame)) {
        return { ok: false, error: { code: 'invalid_request', message: 'Calls are only accepted from the Switchboard window' } };
      }
      return dispatch(key, args);
    });
  }
  return [...INVOKE_KEYS];
}

/**
 * Pushes one event to the window through `send` (webContents.send), unless its payload cannot be cloned: then it is
 * skipped (returns false) instead of throwing in the push path. Answers are checked by the dispatcher already.
 */
export function pushEvent<E extends string>(send: (event: E, payload: unknown) => void, event: E, payload: unknown): boolean {
  if (unsendableReason(payload) !== undefined) return false;
  try {
    send(event, payload);
    return true;
  } catch {
    return false;
  }
}
