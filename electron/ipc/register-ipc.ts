// Registers exactly one ipcMain handler per contract method; calls from any frame other
// than the app's own top frame are refused before dispatch.
import { INVOKE_KEYS } from '../../shared/contract-schemas.js';
import type { InvokeKey, IpcEnvelope } from '../../shared/contract.js';
import type { Dispatch } from '../core/dispatcher.js';

/** The part of an IpcMainInvokeEvent this module reads. */
export interface InvokeEventLike {
  senderFrame: unknown;
}

/** The part of ipcMain this module uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, args: unknown) => Promise<unknown>): void;
}

/** What the shell wants to hear about besides the calls themselves. */
export interface IpcHooks {
  /** A window's page has attached its event listeners (app.listening succeeded); `frame` is the one that said so. */
  onListening?(frame: unknown): void;
}

/** Registers the handlers; `isTrustedFrame` decides whether a sender frame is the app's own top frame. */
export function registerIpc(
  ipcMain: IpcMainLike,
  dispatch: Dispatch,
  isTrustedFrame: (frame: unknown) => boolean,
  hooks: IpcHooks = {},
): InvokeKey[] {
  for (const key of INVOKE_KEYS) {
    ipcMain.handle(key, async (event, args): Promise<IpcEnvelope<unknown>> => {
      if (!isTrustedFrame(event.senderFrame)) {
        return { ok: false, error: { code: 'invalid_request', message: 'Calls are only accepted from the Switchboard window' } };
      }
      const envelope = await dispatch(key, args);
      if (key === 'app.listening' && envelope.ok) hooks.onListening?.(event.senderFrame);
      return envelope;
    });
  }
  return [...INVOKE_KEYS];
}
