// Contract handlers for auth.* methods: thin calls into the core's AuthManager.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import type { AuthManager } from './auth-manager.js';

/** The authorization methods' handlers. */
export function authHandlers(host: Host): Pick<Handlers, `auth.${string}` & keyof Handlers> {
  const auth = host.auth;
  return {
    'auth.status': ({ id }) => auth.status(id),
    'auth.begin': ({ id }) => auth.begin(id),
    'auth.complete': ({ id, redirectUrl }) => auth.complete(id, redirectUrl),
    'auth.signOut': ({ id }) => auth.signOut(id),
    'auth.deviceStart': ({ id }) => auth.deviceStart(id),
    'auth.deviceCancel': ({ id }) => auth.deviceCancel(id),
    'auth.deviceOpen': ({ id }) => auth.deviceOpen(id),
    'auth.setBearer': ({ id, token }) => auth.setBearer(id, token),
    'auth.setClient': ({ id, client }) => auth.setClient(id, client === null ? null : stripUndefined(client)),
  };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Deletes a server's stored sign-in (grants, bearer token, client settings). */
export async function forgetCredentials(auth: AuthManager, id: string): Promise<void> {
  await auth.forget(id);
}
