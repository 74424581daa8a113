// Contract handlers for auth.* methods.
import type { Handlers } from '../handlers.js';
import type { Host } from '../host.js';
import { notImplemented } from '../not-implemented.js';

/** The authorization methods' handlers. */
export function authHandlers(_host: Host): Pick<Handlers, `auth.${string}` & keyof Handlers> {
  return {
    'auth.status': notImplemented('auth.status'),
    'auth.begin': notImplemented('auth.begin'),
    'auth.complete': notImplemented('auth.complete'),
    'auth.signOut': notImplemented('auth.signOut'),
    'auth.setBearer': notImplemented('auth.setBearer'),
    'auth.setClient': notImplemented('auth.setClient'),
  };
}
