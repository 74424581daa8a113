// Bridge over the preload's contextBridge API (Electron).
import type { BridgeApi, EventKey, EventMap, InvokeKey, IpcEnvelope } from '../../../shared/contract';
import { INVOKE_KEYS } from '../../../shared/contract-schemas';
import { AppError } from '../../../shared/errors';
import type { Bridge } from './types';

interface PreloadShape {
  invoke: Record<InvokeKey, (args: unknown) => Promise<IpcEnvelope<unknown>>>;
  events: Record<EventKey, (listener: (payload: unknown) => void) => () => void>;
}

/** The preload's API, when running inside Electron. */
export function findPreload(): PreloadShape | undefined {
  return (window as unknown as { switchboard?: PreloadShape }).switchboard;
}

/** Wraps the preload API so methods reject with AppError like every other bridge. */
export function createElectronBridge(preload: PreloadShape): Bridge {
  const api = Object.fromEntries(
    INVOKE_KEYS.map((key) => [
      key,
      async (args: unknown) => {
        const envelope = await preload.invoke[key](args);
        if (!envelope.ok) throw AppError.fromData(envelope.error);
        return envelope.value;
      },
    ]),
  ) as unknown as BridgeApi;
  return {
    api,
    kind: 'electron',
    on: <E extends EventKey>(event: E, listener: (payload: EventMap[E]) => void) =>
      preload.events[event]((payload) => listener(payload as EventMap[E])),
    onDisconnect: () => undefined,
  };
}
