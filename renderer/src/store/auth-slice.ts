import type { AuthStatus, ClientSettingsInput } from '../../../shared/domains/auth';
import { AppError } from '../../../shared/errors';
import type { SliceCreator } from './types';
import { api, onEvent } from '../bridge';

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
}

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'Something went wrong');
let subscribed = false;

/** The status of one server, when loaded. */
export const selectAuth =
  (id: string) =>
  (s: AuthSlice): AuthStatus | undefined =>
    s.authById[id];

export const createAuthSlice: SliceCreator<AuthSlice> = (set) => {
  const apply = (status: AuthStatus): void => set((s) => ({ authById: { ...s.authById, [status.id]: status } }));
  const run = async (id: string, action: () => Promise<AuthStatus>): Promise<boolean> => {
    if (!subscribed) {
      onEvent('auth.changed', apply);
      subscribed = true;
    }
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
    authById: {},
    authErrors: {},
    loadAuth: async (id) => {
      await run(id, () => api['auth.status']({ id }));
    },
    beginSignIn: async (id) => {
      await run(id, () => api['auth.begin']({ id }));
    },
    completeSignIn: (id, redirectUrl) => run(id, () => api['auth.complete']({ id, redirectUrl })),
    signOut: async (id) => {
      await run(id, () => api['auth.signOut']({ id }));
    },
    setBearer: (id, token) => run(id, () => api['auth.setBearer']({ id, token })),
    setClient: (id, client) => run(id, () => api['auth.setClient']({ id, client })),
    deviceStart: async (id) => {
      await run(id, () => api['auth.deviceStart']({ id }));
    },
    deviceCancel: async (id) => {
      await run(id, () => api['auth.deviceCancel']({ id }));
    },
    deviceOpen: async (id) => {
      await run(id, async () => {
        await api['auth.deviceOpen']({ id });
        return api['auth.status']({ id });
      });
    },
  };
};
