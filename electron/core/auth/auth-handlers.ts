// Contract handlers for auth.* methods: thin calls into the host's AuthManager.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { authOf } from './auth-manager.js';

/** The authorization methods' handlers. */
export function authHandlers(host: Host): Pick<Handlers, `auth.${string}` & keyof Handlers> {
  return {
    'auth.status': ({ id }) => authOf(host).status(id),
    'auth.begin': ({ id }) => authOf(host).begin(id),
    'auth.complete': ({ id, redirectUrl }) => authOf(host).complete(id, redirectUrl),
    'auth.signOut': ({ id }) => authOf(host).signOut(id),
    'auth.deviceStart': ({ id }) => authOf(host).deviceStart(id),
    'auth.deviceCancel': ({ id }) => authOf(host).deviceCancel(id),
    'auth.deviceOpen': ({ id }) => authOf(host).deviceOpen(id),
    'auth.setBearer': ({ id, token }) => authOf(host).setBearer(id, token),
    'auth.setClient': ({ id, client }) => authOf(host).setClient(id, client === null ? null : stripUndefined(client)),
  };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Deletes a server's stored sign-in (grants, bearer token, client settings) when the shell set up authorization. */
export async function forgetCredentials(host: Host, id: string): Promise<void> {
  let manager;
  try {
    manager = authOf(host);
  } catch {
    return; // no authorization in this shell: nothing stored
  }
  await manager.forget(id);
}
