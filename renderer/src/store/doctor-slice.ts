// The connection doctor's walks, keyed by where they were asked for (the add/edit dialog, a server page).
import type { ServerConfigInput } from '../../../shared/config';
import type { DoctorWalk } from '../../../shared/domains/doctor';
import { AppError } from '../../../shared/errors';
import { applyPatch } from '../../../shared/optional-fields';
import { doctorService } from '../services/doctor';
import type { SliceCreator, Store } from './types';

/** One walk's state. */
export interface WalkState {
  /** The last walk's result. */
  walk?: DoctorWalk;
  /** A walk is running. */
  running: boolean;
  /** Why the walk could not run. */
  error?: string;
}

/** Doctor walks and their actions. */
export interface DoctorSlice {
  walks: Record<string, WalkState>;
  /** Runs a walk; `approvedLaunch` is the fingerprint of the trial launch the person approved. */
  runWalk: (key: string, request: { config?: ServerConfigInput; id?: string; approvedLaunch?: string }) => Promise<void>;
  clearWalk: (key: string) => void;
}

export const createDoctorSlice: SliceCreator<DoctorSlice> = (set, get) => {
  // The newest walk per key wins over an older answer.
  let walkSeq = 0;
  const latest = new Map<string, number>();
  return {
    walks: {},
    runWalk: async (key, request) => {
      const seq = ++walkSeq;
      latest.set(key, seq);
      const put = (state: WalkState) => set({ walks: { ...get().walks, [key]: state } });
      put(applyPatch(get().walks[key] ?? { running: false }, { running: true, error: undefined }));
      try {
        const walk = await doctorService.walk(request);
        if (latest.get(key) === seq) put({ walk, running: false });
      } catch (err) {
        if (latest.get(key) === seq) put({ running: false, error: err instanceof AppError ? err.message : 'The test could not run' });
      }
    },
    clearWalk: (key) => {
      latest.delete(key);
      const next = { ...get().walks };
      delete next[key];
      set({ walks: next });
    },
  };
};

/** One walk's state. */
export const selectWalk =
  (key: string) =>
  (s: Store): WalkState | undefined =>
    s.walks[key];
