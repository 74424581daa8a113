// The per-server token guard and the OAuth refresh that runs under it (one reread → exchange → persist at a time).
import { OAuthError, OAuthErrorCode, refreshAuthorization } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError } from './auth-errors.js';
import { expiryOf, type GrantRecord } from './credentials.js';

/** An OAuth access token this close to expiry is refreshed before use. */
export const REFRESH_MARGIN_MS = 5 * 1000;

/** Runs `work` as the server's one token job; a caller arriving while one runs shares it instead. */
export function runGuarded(ctx: AuthContext, id: string, work: () => Promise<GrantRecord | undefined>): Promise<GrantRecord | undefined> {
  const running = ctx.guards.get(id);
  if (running !== undefined) return running;
  const job = work().finally(() => {
    if (ctx.guards.get(id) === job) ctx.guards.delete(id);
  });
  ctx.guards.set(id, job);
  return job;
}

/**
 * Refreshes the current grant under the per-server guard: concurrent callers share one reread → exchange →
 * persist. `stale` is the access token the caller found wanting; when the stored one differs, someone already
 * refreshed and no request is made. invalid_grant deletes the grant (the server then needs sign-in).
 */
export function refreshGrant(ctx: AuthContext, id: string, config: ServerConfig, stale?: string): Promise<GrantRecord | undefined> {
  return runGuarded(ctx, id, async (): Promise<GrantRecord | undefined> => {
    const url = (config.transport as { url: string }).url;
    const grant = await ctx.creds.grant(id, url);
    if (grant === undefined) return undefined;
    const expired = grant.expiresAt !== undefined && grant.expiresAt - REFRESH_MARGIN_MS <= ctx.now();
    if (stale !== undefined ? grant.tokens.access_token !== stale : !expired) return grant;
    const refreshToken = grant.tokens.refresh_token;
    if (refreshToken === undefined) {
      ctx.needsAuthReason.set(id, 'The sign-in expired and the server issued no refresh token; sign in again');
      return undefined;
    }
    let tokens;
    try {
      tokens = await refreshAuthorization(grant.authorizationServerUrl, {
        ...(grant.metadata !== undefined ? { metadata: grant.metadata } : {}),
        clientInformation: grant.client,
        refreshToken,
        ...(grant.resource !== undefined ? { resource: grant.resource } : {}),
        // A DPoP-bound grant's refresh token is bound to the same key (RFC 9449 §5).
        ...(grant.tokens.token_type.toLowerCase() === 'dpop' ? { dpop: await ctx.dpop.session(id) } : {}),
        fetchFn: ctx.fetchFor(config),
      });
    } catch (err) {
      if (
        err instanceof OAuthError &&
        (err.code === OAuthErrorCode.InvalidGrant ||
          err.code === OAuthErrorCode.InvalidClient ||
          err.code === OAuthErrorCode.UnauthorizedClient)
      ) {
        await ctx.creds.deleteGrant(id, url, grant.issuer);
        ctx.needsAuthReason.set(id, `The authorization server no longer accepts the stored sign-in (${err.code}); sign in again`);
        ctx.log(id, 'warning', `Refresh refused (${err.code}); the grant was deleted`);
        ctx.announce(id);
        return undefined;
      }
      ctx.log(id, 'warning', `Refresh failed: ${describeAuthError(id, err).message}`);
      throw describeAuthError(id, err);
    }
    const now = ctx.now();
    const expiresAt = expiryOf(tokens, now);
    const next: GrantRecord = {
      ...grant,
      tokens: { ...tokens, refresh_token: tokens.refresh_token ?? refreshToken, issuer: grant.issuer },
      obtainedAt: now,
    };
    if (expiresAt !== undefined) next.expiresAt = expiresAt;
    else delete next.expiresAt;
    // The rotated grant is persisted before anything uses it; the old refresh token is gone only after that.
    await ctx.creds.saveGrant(id, next);
    ctx.log(id, 'info', 'Access token refreshed');
    ctx.announce(id);
    return next;
  });
}
