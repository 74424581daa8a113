// Runs work under a deadline and an outer abort signal, turning either into a typed AppError.
import { AppError } from '../../../shared/errors.js';

/** What a deadline is called and how it reports itself when it fires. */
export interface DeadlineSpec {
  /** Milliseconds allowed. */
  ms: number;
  /** Builds the error raised when the deadline fires. */
  onTimeout: () => AppError;
  /** Builds the error raised when the outer signal aborts. */
  onAbort: () => AppError;
}

/**
 * Runs `work` with a signal that aborts when the deadline fires or `outer` aborts. Rejects with the spec's
 * error as soon as either happens, without waiting for `work` to notice.
 */
export function withDeadline<T>(work: (signal: AbortSignal) => Promise<T>, spec: DeadlineSpec, outer?: AbortSignal): Promise<T> {
  const inner = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = (): void =>
      finish(() => {
        const error = spec.onAbort();
        inner.abort(error);
        reject(error);
      });
    const timer = setTimeout(
      () =>
        finish(() => {
          const error = spec.onTimeout();
          inner.abort(error);
          reject(error);
        }),
      Math.max(0, spec.ms),
    );
    if (outer?.aborted) {
      onAbort();
      return;
    }
    outer?.addEventListener('abort', onAbort, { once: true });
    work(inner.signal).then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}

/** The error a cancelled connect reports. */
export function cancelledError(serverId: string, why = 'The connection attempt was cancelled'): AppError {
  return new AppError('cancelled', why, { serverId });
}
