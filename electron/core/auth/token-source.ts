// Which token a request carries (bearer, client credentials or OAuth), what happens after a 401, and challenge capture.
import {
  extractWWWAuthenticateParams,
  UnauthorizedError,
  withDpop,
  type AuthProvider,
  type Middleware,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError } from './auth-errors.js';
import { isMachineGrant } from './credentials.js';
import { machineGrantName, mintMachineToken } from './machine-token.js';
import type { GrantRecord } from './credentials.js';
import { REFRESH_MARGIN_MS, refreshGrant } from './refresh-guard.js';

/** What a transport needs for one HTTP/SSE server: the SDK auth provider, and where to report challenges. */
export interface TransportAuth {
  /** Supplies the bearer token per request and handles a 401 (refresh once, else needs sign-in). */
  provider: AuthProvider;
  /** Receives every 401/403 response that carries a WWW-Authenticate challenge. */
  onChallenge(response: Response): void;
  /** Wraps the transport's fetch: a DPoP-bound token goes out as `DPoP` with a fresh proof (nonce retry inline). */
  wrapFetch: Middleware;
}

/** The auth provider for a server's HTTP/SSE transport; undefined for stdio. */
export function createTransportAuth(ctx: AuthContext, config: ServerConfig): TransportAuth | undefined {
  const t = config.transport;
  if (t.type === 'stdio') return undefined;
  const id = config.id;
  const url = t.url;
  let lastSent: string | undefined;
  // The token to present with DPoP: set only when the stored grant's token_type is DPoP.
  let dpopToken: string | undefined;
  const provider: AuthProvider = {
    token: async () => {
      lastSent = await accessToken(ctx, id, config);
      const grant = lastSent === undefined ? undefined : await ctx.creds.grant(id, url);
      dpopToken = grant?.tokens.access_token === lastSent && grant?.tokens.token_type.toLowerCase() === 'dpop' ? lastSent : undefined;
      return lastSent;
    },
    onUnauthorized: async () => {
      const fresh = await afterUnauthorized(ctx, id, config, url, lastSent);
      if (fresh === undefined) {
        ctx.announce(id);
        throw new UnauthorizedError('The server requires authorization');
      }
    },
  };
  return {
    provider,
    wrapFetch: withDpop(
      () => (dpopToken === undefined ? undefined : ctx.dpop.session(id)),
      () => dpopToken,
    ),
    onChallenge: (response) => {
      const params = extractWWWAuthenticateParams(response);
      ctx.challenges.set(id, {
        status: response.status,
        at: ctx.now(),
        ...(params.scope !== undefined ? { scope: params.scope } : {}),
        ...(params.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
        ...(params.error !== undefined ? { error: params.error } : {}),
      });
      if (response.status === 403 && params.error === 'insufficient_scope') {
        ctx.needsAuthReason.set(id, `The server needs more permissions${ctx.challengeText(id)}; sign in again to grant them`);
      }
    },
  };
}

/** The token to send: bearer, else client credentials (re-minted shortly before expiry), else OAuth (refreshed when expired). */
async function accessToken(ctx: AuthContext, id: string, config: ServerConfig): Promise<string | undefined> {
  const url = (config.transport as { url: string }).url;
  const bearer = await ctx.creds.bearer(id);
  if (bearer !== null) return bearer;
  const settings = await ctx.creds.client(id);
  const kind = settings?.grant;
  if (settings && isMachineGrant(kind)) {
    const grant = await mintMachineToken(ctx, id, config, settings, false).catch((err: unknown) => {
      ctx.needsAuthReason.set(id, `${machineGrantName(kind)} refused: ${describeAuthError(id, err).message}`);
      return undefined;
    });
    return grant?.tokens.access_token;
  }
  const grant = await ctx.creds.grant(id, url);
  if (grant === undefined) return undefined;
  if (grant.expiresAt !== undefined && grant.expiresAt - REFRESH_MARGIN_MS <= ctx.now()) {
    const fresh = await refreshGrant(ctx, id, config);
    return fresh?.tokens.access_token;
  }
  return grant.tokens.access_token;
}

/** After a 401: a new token if one can be had without the user (refresh or client credentials), else undefined. */
async function afterUnauthorized(
  ctx: AuthContext,
  id: string,
  config: ServerConfig,
  url: string,
  sent: string | undefined,
): Promise<GrantRecord | undefined> {
  if ((await ctx.creds.bearer(id)) !== null) {
    ctx.needsAuthReason.set(id, 'The server refused the stored bearer token');
    return undefined;
  }
  const settings = await ctx.creds.client(id);
  if (isMachineGrant(settings?.grant)) {
    return mintMachineToken(ctx, id, config, settings, true, sent).catch(() => undefined);
  }
  const grant = await ctx.creds.grant(id, url);
  if (grant === undefined) {
    if (!ctx.needsAuthReason.has(id)) ctx.needsAuthReason.set(id, 'Sign in to use this server');
    return undefined;
  }
  return refreshGrant(ctx, id, config, sent ?? grant.tokens.access_token);
}
