// Wraps a transport factory so HTTP and SSE transports get the server's credentials (bearer token, OAuth grant or
// client credentials) through the SDK's AuthProvider, and report 401/403 challenges back to authorization.
import type { TransportFactory } from '../transports/transport-factory.js';
import type { AuthManager } from './auth-manager.js';

/** A factory that adds `auth` (the manager's credentials for the server) to every HTTP/SSE transport context. */
export function withTransportAuth(base: TransportFactory, manager: Pick<AuthManager, 'transportAuth'>): TransportFactory {
  return (ctx) => {
    const auth = ctx.config.transport.type === 'stdio' ? undefined : manager.transportAuth(ctx.config);
    return base(auth !== undefined ? { ...ctx, auth } : ctx);
  };
}
