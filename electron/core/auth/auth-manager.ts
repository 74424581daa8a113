// Authorization for HTTP and SSE servers: static bearer tokens, OAuth 2.1 authorization code + PKCE through the
// SDK's auth(), client credentials, refresh under a per-server guard, step-up, sign-out. The SDK does discovery,
// PKCE, registration and token requests; the auth modules add storage, the browser, the redirect listener, the state
// check, the policy (no browser without a click, at most 3 authorizations per user action) and the status the
// renderer sees. This module composes them behind one AuthManager. Tokens and secrets never leave the auth modules
// except as an Authorization header on the wire.
import type { ServerConfig } from '../../../shared/config.js';
import type { AuthStatus, ClientSettingsInput } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import { AuthContext, type AuthManagerOptions } from './auth-context.js';
import { buildStatus } from './auth-status.js';
import { algorithmFor } from './machine-token.js';
import type { AuthCredentials, GrantRecord } from './credentials.js';
import { refreshGrant } from './refresh-guard.js';
import { checkAuthorizationUrl } from './safe-url.js';
import { SignIn } from './sign-in.js';
import { cancelFlow, resumeFlows } from './sign-in-flow.js';
import { cancelDeviceFlow, devicePage, startDeviceFlow } from './device-code.js';
import { createTransportAuth, type TransportAuth } from './token-source.js';

export type { AuthHost, AuthManagerOptions } from './auth-context.js';
export { isAuthProblem } from './auth-errors.js';
export { algorithmFor } from './machine-token.js';
export { FLOW_TIMEOUT_MS, MAX_AUTHORIZATIONS_PER_ACTION } from './sign-in-flow.js';
export type { TransportAuth } from './token-source.js';

/** Owns every server's authorization state. */
export class AuthManager {
  readonly #ctx: AuthContext;
  readonly #signIn: SignIn;

  constructor(opts: AuthManagerOptions) {
    this.#ctx = new AuthContext(opts);
    this.#signIn = new SignIn(this.#ctx);
  }

  /** Typed access to the stored secrets (for removal of a server). */
  get credentials(): AuthCredentials {
    return this.#ctx.creds;
  }

  // ---------------------------------------------------------------- status

  /** The server's authorization state; never a token or secret. */
  status(id: string): Promise<AuthStatus> {
    return buildStatus(this.#ctx, id);
  }

  // ---------------------------------------------------------------- settings

  /** Sets or clears the static bearer token (kept in the credential store only). */
  async setBearer(id: string, token: string | null): Promise<AuthStatus> {
    const ctx = this.#ctx;
    ctx.remote(id);
    await ctx.creds.setBearer(id, token);
    ctx.needsAuthReason.delete(id);
    await ctx.dropSession(id);
    ctx.announce(id);
    return this.status(id);
  }

  /** Sets or clears the pre-registered / client-credentials client. */
  async setClient(id: string, client: ClientSettingsInput | null): Promise<AuthStatus> {
    const ctx = this.#ctx;
    ctx.remote(id);
    if (client?.grant === 'client_credentials') {
      if (client.clientId === undefined || client.clientId === '')
        throw new AppError('config_invalid', 'Client credentials need a client id', { serverId: id });
      if (client.authMethod === 'private_key_jwt' && client.privateKeyPem !== undefined && client.privateKeyPem !== '')
        algorithmFor(client.privateKeyPem);
    }
    if (client?.grant === 'cross_app_access') {
      if (!client.clientId || !client.idpClientId || client.idpIssuer === undefined)
        throw new AppError(
          'config_invalid',
          'Cross-App Access needs the client id for the authorization server, the identity provider issuer and its client id',
          { serverId: id },
        );
      // The identity provider receives the user's ID token: the same check as an authorization URL.
      checkAuthorizationUrl(client.idpIssuer, id, 'The identity provider issuer');
      if (client.idpTokenEndpoint !== undefined) checkAuthorizationUrl(client.idpTokenEndpoint, id, 'The identity provider token endpoint');
    }
    if (client?.grant === 'workload_identity' && (client.clientId === undefined || client.clientId === ''))
      throw new AppError('config_invalid', 'Workload identity needs the client id registered with the authorization server', {
        serverId: id,
      });
    if (client?.metadataUrl !== undefined) {
      const u = new URL(client.metadataUrl);
      if (u.protocol !== 'https:' || u.pathname === '/')
        throw new AppError('config_invalid', 'A client metadata document URL must be https with a path', { serverId: id });
    }
    await ctx.creds.setClient(id, client);
    ctx.announce(id);
    return this.status(id);
  }

  /** Deletes the server's grants (its bearer token and client settings stay). The next connect needs sign-in. */
  async signOut(id: string): Promise<AuthStatus> {
    const ctx = this.#ctx;
    ctx.host.config(id);
    cancelFlow(ctx, id, 'Signed out');
    cancelDeviceFlow(ctx, id, 'Signed out');
    await ctx.creds.deleteGrants(id);
    // The DPoP key goes with the grants it was bound to; a new sign-in gets a new key.
    await ctx.dpop.forget(id);
    ctx.failures.delete(id);
    await ctx.dropSession(id);
    ctx.announce(id);
    return this.status(id);
  }

  /** Deletes everything authorization-related (the server was removed and the user agreed). */
  async forget(id: string): Promise<void> {
    const ctx = this.#ctx;
    cancelFlow(ctx, id, 'Server removed');
    cancelDeviceFlow(ctx, id, 'Server removed');
    await ctx.creds.deleteAll(id);
    await ctx.dpop.forget(id);
    ctx.challenges.delete(id);
    ctx.failures.delete(id);
    ctx.needsAuthReason.delete(id);
  }

  // ---------------------------------------------------------------- interactive sign-in

  /**
   * Starts a sign-in (a user action). Never consults the stored token. Runs up to three authorizations when the
   * server keeps asking for more scope, then reconnects. Resolves once the authorization URL is known (and opened)
   * or the flow failed early.
   */
  begin(id: string): Promise<AuthStatus> {
    return this.#signIn.begin(id);
  }

  /** Resolves when the sign-in started by the last begin() has finished (successfully or not). */
  settled(id: string): Promise<AuthStatus> {
    return this.#signIn.settled(id);
  }

  /**
   * Runs one user action that may need authorization: on an authorization failure it runs an interactive
   * authorization (browser, listener or pasted URL) and retries, at most three authorizations in all.
   */
  runAuthorized<T>(
    id: string,
    op: () => Promise<T>,
    opts: { authorizeFirst?: boolean; onShown?: () => void; max?: number } = {},
  ): Promise<T> {
    return this.#signIn.runAuthorized(id, op, opts);
  }

  /**
   * Takes over the sign-ins the shell still holds from a core that stopped (crashed or was killed) between sending
   * the browser off and the redirect: they complete here. Resolves with how many there were.
   */
  resumeSignIns(): Promise<number> {
    return resumeFlows(this.#ctx);
  }

  /** Completes the pending sign-in with the redirect URL the user pasted from the browser. */
  complete(id: string, redirectUrl: string): Promise<AuthStatus> {
    return this.#signIn.complete(id, redirectUrl);
  }

  // ---------------------------------------------------------------- device sign-in (RFC 8628)

  /** Starts a device sign-in (a user action); the status carries the code and page, or why it could not start. */
  async deviceStart(id: string): Promise<AuthStatus> {
    const ctx = this.#ctx;
    ctx.remote(id);
    if ((await ctx.creds.bearer(id)) !== null) {
      throw new AppError('invalid_request', 'This server uses a static bearer token; clear it to sign in with a device code', {
        serverId: id,
      });
    }
    await startDeviceFlow(ctx, id).catch(() => undefined);
    return this.status(id);
  }

  /** Stops a device sign-in in progress. */
  async deviceCancel(id: string): Promise<AuthStatus> {
    this.#ctx.host.config(id);
    cancelDeviceFlow(this.#ctx, id, 'Cancelled');
    return this.status(id);
  }

  /** Opens the running device sign-in's verification page through the safe opener (headless mode prints it). */
  async deviceOpen(id: string): Promise<void> {
    await this.#ctx.opts.opener.open(devicePage(this.#ctx, id));
  }

  /** Resolves when the running device sign-in has ended (signed in, declined, expired or cancelled). */
  async deviceSettled(id: string): Promise<AuthStatus> {
    await this.#ctx.deviceFlows.get(id)?.done;
    return this.status(id);
  }

  // ---------------------------------------------------------------- transports

  /** The auth provider for a server's HTTP/SSE transport; undefined for stdio. */
  transportAuth(config: ServerConfig): TransportAuth | undefined {
    return createTransportAuth(this.#ctx, config);
  }

  /**
   * Refreshes the current grant under the per-server guard: concurrent callers share one reread → exchange →
   * persist. `stale` is the access token the caller found wanting; when the stored one differs, someone already
   * refreshed and no request is made. invalid_grant deletes the grant (the server then needs sign-in).
   */
  refresh(id: string, config: ServerConfig, stale?: string): Promise<GrantRecord | undefined> {
    return refreshGrant(this.#ctx, id, config, stale);
  }
}
