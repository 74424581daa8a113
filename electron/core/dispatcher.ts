// Validates a raw call from any bridge and runs its handler; errors come back as data.
import { invokeArgSchemas, isInvokeKey } from '../../shared/contract-schemas.js';
import type { IpcEnvelope } from '../../shared/contract.js';
import { AppError, type AppErrorData } from '../../shared/errors.js';
import type { Handlers } from './handlers.js';
import { unsendableReason } from './sendable.js';

/** Runs one contract call from untrusted input. */
export type Dispatch = (method: string, rawArgs: unknown) => Promise<IpcEnvelope<unknown>>;

/** Converts anything thrown into error data that is safe to send (no stack, no secrets). */
export function toErrorData(err: unknown): AppErrorData {
  if (err instanceof AppError) return err.toData();
  return { code: 'internal', message: 'An unexpected error occurred in the core' };
}

/** Builds the dispatcher every bridge (Electron IPC, WebSocket) calls into. */
export function createDispatcher(handlers: Handlers, onInternalError?: (method: string, err: unknown) => void): Dispatch {
  return async (method, rawArgs) => {
    if (!isInvokeKey(method))
      return { ok: false, error: { code: 'unknown_method', message: `Unknown method ${String(method).slice(0, 100)}` } };
    const parsed = invokeArgSchemas[method].safeParse(rawArgs ?? {});
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => `${i.path.join('.') || 'args'}: ${i.message}`).join('; ');
      return { ok: false, error: { code: 'invalid_request', message } };
    }
    try {
      const handler = handlers[method] as (args: unknown) => Promise<unknown>;
      const value = await handler(parsed.data);
      // The answer must survive the bridge's serialisation; if it cannot, its caller gets a typed error instead.
      const unsendable = unsendableReason(value);
      if (unsendable !== undefined) {
        onInternalError?.(method, new Error(`unsendable answer: ${unsendable}`));
        return { ok: false, error: { code: 'internal', message: `The answer to ${method} could not be sent: ${unsendable}` } };
      }
      return { ok: true, value: value === undefined ? null : value };
    } catch (err) {
      if (!(err instanceof AppError)) onInternalError?.(method, err);
      return { ok: false, error: toErrorData(err) };
    }
  };
}
