// One interactive authorization: discovery, registration, the browser, the redirect (callback or paste) and the token.
import { auth, computeScopeUnion } from '@modelcontextprotocol/client';
import type { AuthStep } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError, StepError } from './auth-errors.js';
import { originOf } from './endpoint-policy.js';
import type { AdoptableSignIn, HeldRedirectListener, PendingExchange, RedirectHandlers, RedirectListener } from './auth-ports.js';
import { checkCallback } from './callback.js';
import { expiryOf, type GrantRecord } from './credentials.js';
import { deferred, type Deferred } from './deferred.js';
import { FlowProvider, newState } from './flow-provider.js';
import type { OAuthDiscoveryState, StoredOAuthClientInformation } from '@modelcontextprotocol/client';
import { authorizationUrlVerdict, checkAuthorizationUrl } from './safe-url.js';

/** At most this many authorizations (browser round trips) run for one user action, step-up included. */
export const MAX_AUTHORIZATIONS_PER_ACTION = 3;
/** A pending flow (and its loopback listener) lives this long. */
export const FLOW_TIMEOUT_MS = 5 * 60 * 1000;
const STEP_ORDER: readonly AuthStep[] = ['discovery', 'registration', 'browser', 'token'];

/** A pending sign-in for one server. */
export interface Flow {
  serverId: string;
  serverUrl: string;
  provider: FlowProvider;
  listener?: RedirectListener;
  redirectUri: string;
  step: AuthStep;
  attempt: number;
  scope?: string;
  resourceMetadataUrl?: URL;
  authorizationUrl?: string;
  /** What the URL policy says about it (an internationalized host, plain http to this machine). */
  authorizationUrlWarnings?: string[];
  /** Settles when the browser step is reached or the flow ends. */
  shown: Deferred<void>;
  /** Settles when the grant is stored (or the flow failed). */
  done: Deferred<void>;
  /** The exchange started (state matched); later callbacks are refused. */
  consumed: boolean;
}

/** One authorization: discovery → registration → browser → (callback or paste) → token; stores the grant. */
export async function authorize(ctx: AuthContext, id: string, attempt: number, onShown?: () => void): Promise<void> {
  const config = ctx.remote(id);
  const t = config.transport as { url: string };
  cancelFlow(ctx, id, 'Superseded');
  const settings = await ctx.creds.client(id);
  const previous = await ctx.creds.grant(id, t.url);
  const challenge = ctx.challenges.get(id);
  const scope = computeScopeUnion(
    settings?.scopes?.join(' '),
    challenge?.scope,
    challenge?.error === 'insufficient_scope' ? previous?.tokens.scope : undefined,
  );

  let flow: Flow | undefined;
  // Chosen before the listener opens: a listener the shell holds checks it on every redirect before we hear of it.
  const state = newState();
  try {
    const listener = await ctx.opts.listen({
      ...redirectHandlers(ctx, id, () => flow),
      timeoutMs: ctx.opts.flowTimeoutMs ?? FLOW_TIMEOUT_MS,
      serverId: id,
      state,
    });
    const current: Flow = {
      serverId: id,
      serverUrl: t.url,
      listener,
      redirectUri: listener.redirectUri,
      step: 'discovery',
      attempt,
      ...(scope !== undefined ? { scope } : {}),
      ...(challenge?.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      shown: deferred<void>(),
      done: deferred<void>(),
      consumed: false,
      provider: new FlowProvider({
        redirectUri: listener.redirectUri,
        state,
        settings,
        dpop: () => ctx.dpop.session(id),
        reusableClient: (issuer) =>
          previous !== undefined && previous.issuer === issuer && previous.grant === 'authorization_code' ? previous.client : undefined,
        hooks: {
          step: (step) => advance(ctx, current, step),
          redirect: (url) => openBrowser(ctx, current, url),
        },
      }),
    };
    flow = current;
    ctx.flows.set(id, current);
    ctx.announce(id);
    ctx.log(id, 'info', `Sign-in started (authorization ${attempt} of at most ${MAX_AUTHORIZATIONS_PER_ACTION})`);
    void current.shown.promise.then(onShown, onShown);

    let result: string;
    try {
      result = await auth(current.provider, {
        serverUrl: t.url,
        ...(scope !== undefined ? { scope } : {}),
        ...(current.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: current.resourceMetadataUrl } : {}),
        fetchFn: ctx.fetchFor(config, originOf(settings?.issuer)),
        forceReauthorization: true,
      });
    } catch (err) {
      throw err instanceof StepError ? err : new StepError(current.step, describeAuthError(id, err));
    }
    if (result !== 'REDIRECT')
      throw new StepError(
        'browser',
        new AppError('auth_required', 'The authorization server did not start a browser sign-in', { serverId: id }),
      );
    current.shown.resolve();
    await current.done.promise;
  } catch (err) {
    const error = err instanceof StepError ? err : new StepError(flow?.step ?? 'discovery', describeAuthError(id, err));
    if (flow === undefined) ctx.recordFailure(id, 'discovery', error, attempt);
    else if (ctx.flows.get(id) === flow) failFlow(ctx, flow, error);
    throw error;
  }
}

/** What the flow's listener calls: each redirect (checked, then exchanged) and the end of its lifetime. */
function redirectHandlers(ctx: AuthContext, id: string, current: () => Flow | undefined): RedirectHandlers {
  return {
    onCallback: async (hit) => {
      const flow = current();
      if (flow === undefined) return { ok: false };
      try {
        await acceptRedirect(ctx, flow, hit.url);
        return { ok: true };
      } catch {
        return { ok: false };
      }
    },
    onTimeout: () => {
      const flow = current();
      if (flow !== undefined && ctx.flows.get(id) === flow && !flow.consumed) {
        failFlow(
          ctx,
          flow,
          new StepError('browser', new AppError('timeout', 'The sign-in was not completed within 5 minutes', { serverId: id })),
        );
      }
    },
  };
}

const isHeld = (listener: RedirectListener | undefined): listener is HeldRedirectListener =>
  listener !== undefined && typeof (listener as Partial<HeldRedirectListener>).arm === 'function';

/** Hands the shell what finishing the flow needs, so a redirect that arrives after this core stopped still counts. */
async function armFlow(ctx: AuthContext, flow: Flow, authorizationUrl: string, warnings: string[]): Promise<void> {
  if (!isHeld(flow.listener)) return;
  const parts = flow.provider.exchangeParts();
  if (parts === undefined) {
    ctx.log(flow.serverId, 'warning', 'This sign-in cannot outlive a restart of the core (the flow is incomplete)');
    return;
  }
  const exchange: PendingExchange = {
    v: 1,
    serverId: flow.serverId,
    serverUrl: flow.serverUrl,
    redirectUri: flow.redirectUri,
    state: flow.provider.stateValue,
    codeVerifier: parts.codeVerifier,
    discovery: parts.discovery,
    client: parts.client,
    ...(parts.resource !== undefined ? { resource: parts.resource } : {}),
    ...(flow.scope !== undefined ? { scope: flow.scope } : {}),
    ...(flow.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: flow.resourceMetadataUrl.href } : {}),
    attempt: flow.attempt,
    authorizationUrl,
    authorizationUrlWarnings: warnings,
  };
  try {
    await flow.listener.arm(exchange);
  } catch {
    // The sign-in still completes in this core; only a restart before the redirect would lose it. Said, not hidden.
    ctx.log(flow.serverId, 'warning', 'The sign-in could not be handed to the shell; it will not survive a restart of the core');
  }
}

/**
 * Takes over the sign-ins the shell held while the previous core stopped: each waits for its redirect again (which
 * may already have arrived) or a pasted URL, exchanges the code as the first core would have, stores the grant and
 * reconnects the server. Returns how many were taken over.
 */
export async function resumeFlows(ctx: AuthContext): Promise<number> {
  const adopt = ctx.opts.adopt;
  if (adopt === undefined) return 0;
  let held: AdoptableSignIn[];
  try {
    held = await adopt();
  } catch (err) {
    ctx.log(
      '',
      'warning',
      `The sign-ins in progress before the core restarted could not be taken over: ${err instanceof Error ? err.message : 'unknown error'}`,
    );
    return 0;
  }
  let resumed = 0;
  for (const one of held) {
    const ex = one.exchange;
    const id = ex.serverId;
    try {
      const config = ctx.remote(id);
      const t = config.transport as { url: string };
      // A server whose address changed since (or that was removed) gets no token meant for another one.
      if (t.url !== ex.serverUrl || ctx.flows.has(id)) throw new Error('changed');
      const settings = await ctx.creds.client(id);
      const current: Flow = {
        serverId: id,
        serverUrl: ex.serverUrl,
        redirectUri: ex.redirectUri,
        step: 'browser',
        attempt: ex.attempt,
        ...(ex.scope !== undefined ? { scope: ex.scope } : {}),
        ...(ex.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: new URL(ex.resourceMetadataUrl) } : {}),
        authorizationUrl: ex.authorizationUrl,
        authorizationUrlWarnings: ex.authorizationUrlWarnings,
        shown: deferred<void>(),
        done: deferred<void>(),
        consumed: false,
        provider: new FlowProvider({
          redirectUri: ex.redirectUri,
          state: ex.state,
          settings,
          dpop: () => ctx.dpop.session(id),
          reusableClient: () => undefined,
          restored: {
            codeVerifier: ex.codeVerifier,
            discovery: ex.discovery as OAuthDiscoveryState,
            client: ex.client as StoredOAuthClientInformation,
            ...(ex.resource !== undefined ? { resource: ex.resource } : {}),
          },
          hooks: {
            step: (step) => advance(ctx, current, step),
            // The browser was sent off by the core before this one: nothing opens again.
            redirect: () => Promise.resolve(),
          },
        }),
      };
      current.shown.resolve();
      ctx.flows.set(id, current);
      // Only now: a redirect that arrived while no core ran is handed over at once, and must find the flow.
      current.listener = one.resume(redirectHandlers(ctx, id, () => current));
      ctx.log(id, 'info', 'Sign-in taken over after the core restarted; waiting for the redirect');
      ctx.announce(id);
      resumed++;
      // What the user action would have done next: connect with the new grant.
      void current.done.promise.then(
        () =>
          ctx
            .reconnect(id)
            .catch((err: unknown) => ctx.log(id, 'warning', `Reconnecting after sign-in failed: ${describeAuthError(id, err).message}`)),
        // The failure is recorded and shown by failFlow.
        () => undefined,
      );
    } catch {
      // Not ours to finish any more: the shell lets the flow go (its redirect, if one came, is refused).
      void one.resume({ onCallback: () => Promise.resolve({ ok: false }), onTimeout: () => undefined }).close();
    }
  }
  return resumed;
}

function advance(ctx: AuthContext, flow: Flow, step: AuthStep): void {
  if (STEP_ORDER.indexOf(step) <= STEP_ORDER.indexOf(flow.step)) return;
  flow.step = step;
  if (ctx.flows.get(flow.serverId) === flow) ctx.announce(flow.serverId);
}

/** auth() wants the browser: refuse without S256, check the URL, then open (or show) it. Never without a click. */
async function openBrowser(ctx: AuthContext, flow: Flow, url: URL): Promise<void> {
  const id = flow.serverId;
  const metadata = flow.provider.discoveryState()?.authorizationServerMetadata;
  if (metadata !== undefined && !(metadata.code_challenge_methods_supported ?? []).includes('S256')) {
    throw new StepError(
      'discovery',
      new AppError(
        'auth_required',
        'The authorization server does not advertise PKCE with S256 (code_challenge_methods_supported); refusing to sign in',
        {
          serverId: id,
        },
      ),
    );
  }
  let checked: URL;
  let warnings: string[];
  try {
    // The raw endpoint string as the server sent it too: parsing would silently drop CR/LF and tabs from it.
    const raw = ctx.rawEndpoints.get(id);
    if (raw !== undefined) checkAuthorizationUrl(raw, id);
    const verdict = authorizationUrlVerdict(url.href, id);
    checked = new URL(verdict.url);
    warnings = verdict.warnings;
  } catch (err) {
    throw new StepError(
      'browser',
      err instanceof AppError ? err : new AppError('url_refused', 'The authorization URL was refused', { serverId: id }),
    );
  }
  await armFlow(ctx, flow, checked.href, warnings);
  flow.authorizationUrl = checked.href;
  flow.authorizationUrlWarnings = warnings;
  ctx.announce(id);
  flow.shown.resolve();
  try {
    await ctx.opts.opener.open(checked);
  } catch {
    // The URL stays visible (and copyable) in the sign-in panel; the user can open it by hand.
    ctx.log(id, 'warning', 'The system browser could not be opened; open the sign-in address shown in the panel');
  }
}

/** Validates a callback or pasted URL against the flow and, when it is ours, exchanges the code. */
export async function acceptRedirect(ctx: AuthContext, flow: Flow, raw: string | URL): Promise<void> {
  const id = flow.serverId;
  if (flow.consumed || ctx.flows.get(id) !== flow) {
    throw new AppError('auth_required', 'This sign-in already finished; start Sign in again', { serverId: id });
  }
  const metadata = flow.provider.discoveryState()?.authorizationServerMetadata;
  const verdict = checkCallback(raw, {
    serverId: id,
    redirectUri: flow.redirectUri,
    state: flow.provider.stateValue,
    ...(metadata?.issuer !== undefined ? { issuer: metadata.issuer } : {}),
    issRequired: metadata?.authorization_response_iss_parameter_supported === true,
  });
  if (!verdict.ok) {
    ctx.log(id, 'warning', verdict.error.message);
    if (verdict.consume) {
      flow.consumed = true;
      failFlow(ctx, flow, new StepError('browser', verdict.error));
    }
    throw verdict.error;
  }
  flow.consumed = true;
  void flow.listener?.close();
  advance(ctx, flow, 'token');
  try {
    const config = ctx.remote(id);
    const result = await auth(flow.provider, {
      serverUrl: flow.serverUrl,
      authorizationCode: verdict.code,
      ...(verdict.iss !== undefined ? { iss: verdict.iss } : {}),
      ...(flow.scope !== undefined ? { scope: flow.scope } : {}),
      ...(flow.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: flow.resourceMetadataUrl } : {}),
      fetchFn: ctx.fetchFor(config),
    });
    const out = flow.provider.outcome();
    if (result !== 'AUTHORIZED' || out.tokens === undefined || out.client === undefined || out.issuer === undefined) {
      throw new AppError('auth_required', 'The token exchange did not return tokens', { serverId: id });
    }
    const now = ctx.now();
    const expiresAt = expiryOf(out.tokens, now);
    const grant: GrantRecord = {
      v: 1,
      serverUrl: flow.serverUrl,
      issuer: out.issuer,
      authorizationServerUrl: out.discovery?.authorizationServerUrl ?? out.issuer,
      ...(out.discovery?.authorizationServerMetadata !== undefined ? { metadata: out.discovery.authorizationServerMetadata } : {}),
      ...(out.resource !== undefined ? { resource: out.resource } : {}),
      client: out.client,
      tokens: out.tokens,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      obtainedAt: now,
      grant: 'authorization_code',
    };
    await ctx.creds.saveGrant(id, grant);
  } catch (err) {
    const error = new StepError('token', err instanceof AppError ? err : describeAuthError(id, err));
    failFlow(ctx, flow, error);
    throw error;
  }
  endFlow(ctx, flow);
  ctx.needsAuthReason.delete(id);
  ctx.challenges.delete(id);
  ctx.log(id, 'info', 'Signed in; the new grant is stored');
  flow.done.resolve();
  ctx.announce(id);
}

function failFlow(ctx: AuthContext, flow: Flow, error: StepError): void {
  endFlow(ctx, flow);
  ctx.recordFailure(flow.serverId, error.step, error, flow.attempt);
  flow.shown.resolve();
  flow.done.reject(error);
}

function endFlow(ctx: AuthContext, flow: Flow): void {
  if (ctx.flows.get(flow.serverId) === flow) ctx.flows.delete(flow.serverId);
  void flow.listener?.close();
}

/** Cancels the server's pending flow, if any (its waiters see a `cancelled` error). */
export function cancelFlow(ctx: AuthContext, id: string, reason: string): void {
  const flow = ctx.flows.get(id);
  if (flow === undefined) return;
  flow.consumed = true;
  endFlow(ctx, flow);
  flow.shown.resolve();
  flow.done.reject(new StepError(flow.step, new AppError('cancelled', reason, { serverId: id })));
}
