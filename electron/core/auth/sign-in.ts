// The user actions around interactive sign-in: begin, wait until settled, retry under authorization, complete by paste.
import type { AuthStatus } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import type { AuthContext } from './auth-context.js';
import { isAuthProblem } from './auth-errors.js';
import { buildStatus } from './auth-status.js';
import { isMachineGrant } from './credentials.js';
import { mintMachineToken } from './machine-token.js';
import { deferred } from './deferred.js';
import { acceptRedirect, authorize, cancelFlow, MAX_AUTHORIZATIONS_PER_ACTION } from './sign-in-flow.js';
import { cancelDeviceFlow, startDeviceFlow } from './device-code.js';

/** Runs sign-ins started by the user and the authorizations a user action needs. */
export class SignIn {
  readonly #ctx: AuthContext;
  readonly #actions = new Map<string, Promise<void>>();

  constructor(ctx: AuthContext) {
    this.#ctx = ctx;
  }

  /**
   * Starts a sign-in (a user action). Never consults the stored token. Runs up to three authorizations when the
   * server keeps asking for more scope, then reconnects. Resolves once the authorization URL is known (and opened)
   * or the flow failed early.
   */
  async begin(id: string): Promise<AuthStatus> {
    const ctx = this.#ctx;
    const config = ctx.remote(id);
    if ((await ctx.creds.bearer(id)) !== null) {
      throw new AppError('invalid_request', `${config.name} uses a static bearer token; clear it to sign in with OAuth`, { serverId: id });
    }
    const settings = await ctx.creds.client(id);
    if (settings?.grant === 'device_code') {
      // A client registered for device sign-in signs in with a code, never in this machine's browser.
      await startDeviceFlow(ctx, id).catch(() => undefined);
      return buildStatus(ctx, id);
    }
    cancelFlow(ctx, id, 'A new sign-in was started');
    cancelDeviceFlow(ctx, id, 'A browser sign-in was started');
    ctx.failures.delete(id);
    if (isMachineGrant(settings?.grant)) {
      await mintMachineToken(ctx, id, config, settings, true).catch((err: unknown) => {
        ctx.recordFailure(id, 'token', err, 1);
      });
      await ctx.reconnect(id);
      ctx.announce(id);
      return buildStatus(ctx, id);
    }
    const started = deferred<void>();
    const action = this.runAuthorized(
      id,
      async () => {
        await ctx.reconnect(id);
        const s = ctx.host.sessions.status(id);
        if (s.state === 'needs-auth')
          throw new AppError('auth_required', s.error?.message ?? 'The server still requires authorization', { serverId: id });
      },
      { authorizeFirst: true, onShown: () => started.resolve() },
    );
    const tracked = action.then(
      () => undefined,
      () => undefined,
    );
    this.#actions.set(id, tracked);
    void tracked.finally(() => {
      if (this.#actions.get(id) === tracked) this.#actions.delete(id);
      started.resolve();
    });
    await started.promise;
    return buildStatus(ctx, id);
  }

  /** Resolves when the sign-in started by the last begin() has finished (successfully or not). */
  async settled(id: string): Promise<AuthStatus> {
    await this.#actions.get(id);
    return buildStatus(this.#ctx, id);
  }

  /**
   * Runs one user action that may need authorization: on an authorization failure it runs an interactive
   * authorization (browser, listener or pasted URL) and retries, at most three authorizations in all.
   */
  async runAuthorized<T>(
    id: string,
    op: () => Promise<T>,
    opts: { authorizeFirst?: boolean; onShown?: () => void; max?: number } = {},
  ): Promise<T> {
    const ctx = this.#ctx;
    const max = opts.max ?? MAX_AUTHORIZATIONS_PER_ACTION;
    let authorizations = 0;
    // A machine grant (client credentials, Cross-App Access) has no browser step: its token source already minted a
    // fresh token after the 401, so a refusal is final and is reported, never turned into a browser sign-in.
    const grantKind = (await ctx.creds.client(id))?.grant;
    // Device sign-in needs the person at another device: a refusal is reported (sign in from the panel), no browser opens.
    if (isMachineGrant(grantKind) || grantKind === 'device_code') return this.#runMachine(id, op);
    if (opts.authorizeFirst === true) {
      authorizations++;
      await authorize(ctx, id, authorizations, opts.onShown);
    }
    for (;;) {
      try {
        return await op();
      } catch (err) {
        if (!isAuthProblem(err)) throw err;
        if (authorizations >= max) {
          const error = new AppError(
            'auth_required',
            `The server still refuses access after ${max} authorizations${ctx.challengeText(id)}; stopping here (sign in again to retry)`,
            { serverId: id },
          );
          ctx.failures.set(id, { step: 'token', message: error.message, attempt: authorizations });
          ctx.announce(id);
          throw error;
        }
        authorizations++;
        await authorize(ctx, id, authorizations, opts.onShown);
      }
    }
  }

  async #runMachine<T>(id: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (err) {
      if (!isAuthProblem(err)) throw err;
      const reason = this.#ctx.needsAuthReason.get(id);
      throw reason !== undefined ? new AppError('auth_required', reason, { serverId: id }) : err;
    }
  }

  /** Completes the pending sign-in with the redirect URL the user pasted from the browser. */
  async complete(id: string, redirectUrl: string): Promise<AuthStatus> {
    const ctx = this.#ctx;
    ctx.host.config(id);
    const flow = ctx.flows.get(id);
    if (flow === undefined || flow.consumed) {
      throw new AppError(
        'auth_required',
        'No sign-in is waiting for a redirect for this server (it finished, expired or was never started); start Sign in again',
        {
          serverId: id,
        },
      );
    }
    await acceptRedirect(ctx, flow, redirectUrl);
    return buildStatus(ctx, id);
  }
}
