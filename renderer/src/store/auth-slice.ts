import type { AuthStatus, ClientSettingsInput } from '../../../shared/domains/auth';
import { AppError } from '../../../shared/errors';
import { authService } from '../services/auth';
import type { SliceCreator } from './types';

/** Authorization status per server (never a token) and the last error of an auth action. */
export interface AuthSlice {
  authById: Record<string, AuthStatus>;
  authErrors: Record<string, string | undefined>;
  loadAuth: (id: string) => Promise<void>;
  beginSignIn: (id: string) => Promise<void>;
  completeSignIn: (id: string, redirectUrl: string) => Promise<boolean>;
  signOut: (id: string) => Promise<void>;
  setBearer: (id: string, token: string | null) => Promise<boolean>;
  setClient: (id: string, client: ClientSettingsInput | null) => Promise<boolean>;
  /** Starts a device sign-in (RFC 8628): the status then carries the code and page. */
  deviceStart: (id: string) => Promise<void>;
  /** Stops a device sign-in. */
  deviceCancel: (id: string) => Promise<void>;
  /** Opens the device sign-in's page through the core's safe opener. */
  deviceOpen: (id: string) => Promise<void>;
  /** A server's authorization state changed (auth.changed, or an action's answer). */
  applyAuth: (status: AuthStatus) => void;
}

export const authInitialState = {
  authById: {},
  authErrors: {},
} satisfies Partial<AuthSlice>;

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');

/** The status of one server, when loaded. */
export const selectAuth =
  (id: string) =>
  (s: AuthSlice): AuthStatus | undefined =>
    s.authById[id];

export const createAuthSlice: SliceCreator<AuthSlice> = (set) => {
  const apply = (status: AuthStatus): void => set((s) => ({ authById: { ...s.authById, [status.id]: status } }));
  const run = async (id: string, action: () => Promise<AuthStatus>): Promise<boolean> => {
    set((s) => ({ authErrors: { ...s.authErrors, [id]: undefined } }));
    try {
      apply(await action());
      return true;
    } catch (err) {
      set((s) => ({ authErrors: { ...s.authErrors, [id]: message(err) } }));
      return false;
    }
  };
  return {
    ...authInitialState,
    applyAuth: apply,
    loadAuth: async (id) => {
      await run(id, () => authService.status(id));
    },
    beginSignIn: async (id) => {
      await run(id, () => authService.begin(id));
    },
    completeSignIn: (id, redirectUrl) => run(id, () => authService.complete(id, redirectUrl)),
    signOut: async (id) => {
      await run(id, () => authService.signOut(id));
    },
    setBearer: (id, token) => run(id, () => authService.setBearer(id, token)),
    setClient: (id, client) => run(id, () => authService.setClient(id, client)),
    deviceStart: async (id) => {
      await run(id, () => authService.deviceStart(id));
    },
    deviceCancel: async (id) => {
      await run(id, () => authService.deviceCancel(id));
    },
    deviceOpen: async (id) => {
      await run(id, async () => {
        await authService.deviceOpen(id);
        return authService.status(id);
      });
    },
  };
};
