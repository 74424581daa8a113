// One submit path for forms and dialogs: runs an action once at a time, shows it busy, and keeps the error to show
// (an AppError's own words, otherwise the fallback given), so each form does not repeat try/busy/error handling.
import { useCallback, useState } from 'react';
import { AppError } from '../../../shared/errors';

/** A form's running action. */
export interface Action {
  /** Whether the action is running. */
  busy: boolean;
  /** The error to show, or null. */
  error: string | null;
  /** Sets or clears the shown error (e.g. a check made before running, or clearing it on edit). */
  setError: (message: string | null) => void;
  /** Runs `work`; resolves true when it succeeded, false when it failed (its error is then shown). */
  run: (work: () => Promise<unknown>, fallback: string) => Promise<boolean>;
}

/** Busy state and error for one form's action. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (work: () => Promise<unknown>, fallback: string): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await work();
      return true;
    } catch (err) {
      setError(err instanceof AppError ? err.message : fallback);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}
