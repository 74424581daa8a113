// Authorization for HTTP and SSE servers: static bearer tokens, OAuth 2.1 authorization code + PKCE through the
// SDK's auth(), client credentials, refresh under a per-server guard, step-up, sign-out. The SDK does discovery,
// PKCE, registration and token requests; this module adds storage, the browser, the redirect listener, the state
// check, the policy (no browser without a click, at most 3 authorizations per user action) and the status the
// renderer sees. Tokens and secrets never leave this module except as an Authorization header on the wire.
import { createPrivateKey } from 'node:crypto';
import {
  auth,
  ClientCredentialsProvider,
  computeScopeUnion,
  extractWWWAuthenticateParams,
  InsufficientScopeError,
  OAuthError,
  OAuthErrorCode,
  PrivateKeyJwtProvider,
  refreshAuthorization,
  SdkError,
  SdkErrorCode,
  UnauthorizedError,
  type AuthProvider,
  type FetchLike,
  type OAuthClientProvider,
  type StoredOAuthClientInformation,
} from '@modelcontextprotocol/client';
import type { ServerConfig } from '../../../shared/config.js';
import type { ServerStatus } from '../../../shared/contract.js';
import type { AuthStatus, AuthStep, ClientSettingsInput } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import type { EventBus } from '../event-bus.js';
import type { CredentialStore } from '../ports.js';
import { createGuardedFetch } from '../transports/http-guards.js';
import type { BrowserOpener, ListenForRedirect, RedirectListener } from './auth-ports.js';
import { checkCallback, plainText } from './callback.js';
import { AuthCredentials, clientView, expiryOf, type GrantRecord, type StoredClientSettings } from './credentials.js';
import { CLIENT_NAME, FlowProvider } from './flow-provider.js';
import { checkAuthorizationUrl } from './safe-url.js';

/** At most this many authorizations (browser round trips) run for one user action, step-up included. */
export const MAX_AUTHORIZATIONS_PER_ACTION = 3;
/** A pending flow (and its loopback listener) lives this long. */
export const FLOW_TIMEOUT_MS = 5 * 60 * 1000;
/** An OAuth access token this close to expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 5 * 1000;
/** A client-credentials token this close to expiry is replaced before use ("shortly before expiry"). */
const CLIENT_CREDENTIALS_MARGIN_MS = 60 * 1000;
const STEP_ORDER: readonly AuthStep[] = ['discovery', 'registration', 'browser', 'token'];

/** The parts of the Host authorization uses (the Host satisfies it structurally). */
export interface AuthHost {
  readonly events: EventBus;
  readonly credentials: CredentialStore;
  config(id: string): ServerConfig;
  readonly sessions: {
    connect(id: string): Promise<ServerStatus>;
    disconnect(id: string): Promise<ServerStatus>;
    status(id: string): ServerStatus;
  };
}

/** What the manager is built from. */
export interface AuthManagerOptions {
  host: AuthHost;
  /** System browser (Electron) or print-only opener (headless). */
  opener: BrowserOpener;
  /** Starts the loopback redirect listener for one flow. */
  listen: ListenForRedirect;
  /** Network fetch under the guards (tests may pass their own). */
  fetch?: FetchLike;
  /** Log sink for plain-words lines (never secrets). */
  log?: (serverId: string, level: 'info' | 'warning' | 'error', text: string) => void;
  /** Flow lifetime (tests shorten it). */
  flowTimeoutMs?: number;
  /** Clock (tests). */
  now?: () => number;
}

/** What a transport needs for one HTTP/SSE server: the SDK auth provider, and where to report challenges. */
export interface TransportAuth {
  /** Supplies the bearer token per request and handles a 401 (refresh once, else needs sign-in). */
  provider: AuthProvider;
  /** Receives every 401/403 response that carries a WWW-Authenticate challenge. */
  onChallenge(response: Response): void;
}

interface Challenge {
  status: number;
  scope?: string;
  resourceMetadataUrl?: URL;
  error?: string;
  at: number;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

interface Flow {
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
  /** Settles when the browser step is reached or the flow ends. */
  shown: Deferred<void>;
  /** Settles when the grant is stored (or the flow failed). */
  done: Deferred<void>;
  /** The exchange started (state matched); later callbacks are refused. */
  consumed: boolean;
}

/** An error that knows in which step of the flow it happened. */
class StepError extends AppError {
  constructor(
    readonly step: AuthStep,
    error: AppError,
  ) {
    super(error.code, error.message, { ...(error.serverId !== undefined ? { serverId: error.serverId } : {}) });
  }
}

/** True for every way the SDK or the sessions say "authorization needed". */
export function isAuthProblem(err: unknown): boolean {
  if (err instanceof AppError) return err.code === 'auth_required' || err.code === 'authorization_required';
  if (err instanceof UnauthorizedError || err instanceof InsufficientScopeError) return true;
  if (err instanceof SdkError) return err.code === SdkErrorCode.ClientHttpAuthentication || err.code === SdkErrorCode.ClientHttpForbidden;
  return false;
}

/** Signing algorithm for a PEM private key (RFC 7518 names). */
export function algorithmFor(pem: string): string {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') return 'RS256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'secp384r1') return 'ES384';
    if (curve === 'secp521r1') return 'ES512';
    return 'ES256';
  }
  throw new AppError('config_invalid', `Unsupported private key type ${String(key.asymmetricKeyType)} for private_key_jwt`);
}

/** client_secret_post: the SDK's client credentials provider, told to put the secret in the body. */
class PostClientCredentialsProvider extends ClientCredentialsProvider {
  override clientInformation(): StoredOAuthClientInformation {
    return { ...super.clientInformation(), token_endpoint_auth_method: 'client_secret_post' };
  }
}

/** Owns every server's authorization state. */
export class AuthManager {
  readonly #host: AuthHost;
  readonly #opts: AuthManagerOptions;
  readonly #creds: AuthCredentials;
  readonly #now: () => number;
  readonly #flows = new Map<string, Flow>();
  readonly #failures = new Map<string, { step: AuthStep; message: string; attempt: number }>();
  readonly #challenges = new Map<string, Challenge>();
  readonly #guards = new Map<string, Promise<GrantRecord | undefined>>();
  readonly #actions = new Map<string, Promise<void>>();
  readonly #needsAuthReason = new Map<string, string>();
  /** authorization_endpoint exactly as the last metadata document spelled it, per server. */
  readonly #rawEndpoints = new Map<string, string>();

  constructor(opts: AuthManagerOptions) {
    this.#host = opts.host;
    this.#opts = opts;
    this.#creds = new AuthCredentials(opts.host.credentials);
    this.#now = opts.now ?? Date.now;
  }

  /** Typed access to the stored secrets (for removal of a server). */
  get credentials(): AuthCredentials {
    return this.#creds;
  }

  // ---------------------------------------------------------------- status

  /** The server's authorization state; never a token or secret. */
  async status(id: string): Promise<AuthStatus> {
    const config = this.#host.config(id);
    const t = config.transport;
    const bearerSet = t.type !== 'stdio' && (await this.#creds.bearer(id)) !== null;
    const client = await this.#creds.client(id);
    const grant = t.type !== 'stdio' ? await this.#creds.grant(id, t.url) : undefined;
    const flow = this.#flows.get(id);
    const failure = this.#failures.get(id);
    const session = this.#host.sessions.status(id);
    const challenge = this.#challenges.get(id);
    const needsAuth = session.state === 'needs-auth';
    const kind: AuthStatus['kind'] = bearerSet
      ? 'bearer'
      : client?.grant === 'client_credentials'
        ? 'client_credentials'
        : grant !== undefined || client !== undefined || flow !== undefined || needsAuth
          ? 'oauth'
          : 'none';
    const state: AuthStatus['state'] =
      flow !== undefined ? 'in-progress' : needsAuth ? 'needs-auth' : grant !== undefined || bearerSet ? 'signed-in' : 'signed-out';
    const status: AuthStatus = { id, kind, state, bearerSet };
    if (client !== undefined) status.client = clientView(client);
    if (grant !== undefined) {
      status.issuer = grant.issuer;
      if (grant.expiresAt !== undefined) status.expiresAt = grant.expiresAt;
      if (typeof grant.tokens.scope === 'string' && grant.tokens.scope !== '') status.scopes = grant.tokens.scope.split(' ');
    }
    if (challenge?.scope !== undefined) status.requiredScope = plainText(challenge.scope, 500);
    const reason = this.#needsAuthReason.get(id);
    if (needsAuth) status.reason = reason ?? session.error?.message ?? 'The server requires authorization';
    if (flow !== undefined) {
      status.flow = {
        step: flow.step,
        redirectUri: flow.redirectUri,
        attempt: flow.attempt,
        ...(flow.authorizationUrl !== undefined ? { authorizationUrl: flow.authorizationUrl } : {}),
      };
    } else if (failure !== undefined) {
      status.flow = { step: failure.step, failed: { step: failure.step, message: failure.message }, attempt: failure.attempt };
    }
    return status;
  }

  #announce(id: string): void {
    void this.status(id).then(
      (status) => this.#host.events.emit('auth.changed', status),
      () => undefined,
    );
  }

  // ---------------------------------------------------------------- settings

  /** Sets or clears the static bearer token (kept in the credential store only). */
  async setBearer(id: string, token: string | null): Promise<AuthStatus> {
    this.#remote(id);
    await this.#creds.setBearer(id, token);
    this.#needsAuthReason.delete(id);
    await this.#dropSession(id);
    this.#announce(id);
    return this.status(id);
  }

  /** Sets or clears the pre-registered / client-credentials client. */
  async setClient(id: string, client: ClientSettingsInput | null): Promise<AuthStatus> {
    this.#remote(id);
    if (client?.grant === 'client_credentials') {
      if (client.clientId === undefined || client.clientId === '')
        throw new AppError('config_invalid', 'Client credentials need a client id', { serverId: id });
      if (client.authMethod === 'private_key_jwt' && client.privateKeyPem !== undefined && client.privateKeyPem !== '')
        algorithmFor(client.privateKeyPem);
    }
    if (client?.metadataUrl !== undefined) {
      const u = new URL(client.metadataUrl);
      if (u.protocol !== 'https:' || u.pathname === '/')
        throw new AppError('config_invalid', 'A client metadata document URL must be https with a path', { serverId: id });
    }
    await this.#creds.setClient(id, client);
    this.#announce(id);
    return this.status(id);
  }

  /** Deletes the server's grants (its bearer token and client settings stay). The next connect needs sign-in. */
  async signOut(id: string): Promise<AuthStatus> {
    this.#host.config(id);
    this.#cancelFlow(id, 'Signed out');
    await this.#creds.deleteGrants(id);
    this.#failures.delete(id);
    await this.#dropSession(id);
    this.#announce(id);
    return this.status(id);
  }

  /** Deletes everything authorization-related (the server was removed and the user agreed). */
  async forget(id: string): Promise<void> {
    this.#cancelFlow(id, 'Server removed');
    await this.#creds.deleteAll(id);
    this.#challenges.delete(id);
    this.#failures.delete(id);
    this.#needsAuthReason.delete(id);
  }

  // ---------------------------------------------------------------- interactive sign-in

  /**
   * Starts a sign-in (a user action). Never consults the stored token. Runs up to three authorizations when the
   * server keeps asking for more scope, then reconnects. Resolves once the authorization URL is known (and opened)
   * or the flow failed early.
   */
  async begin(id: string): Promise<AuthStatus> {
    const config = this.#remote(id);
    if ((await this.#creds.bearer(id)) !== null) {
      throw new AppError('invalid_request', `${config.name} uses a static bearer token; clear it to sign in with OAuth`, { serverId: id });
    }
    this.#cancelFlow(id, 'A new sign-in was started');
    this.#failures.delete(id);
    const settings = await this.#creds.client(id);
    if (settings?.grant === 'client_credentials') {
      await this.#mintClientCredentials(id, config, settings, true).catch((err: unknown) => {
        this.#recordFailure(id, 'token', err, 1);
      });
      await this.#reconnect(id);
      this.#announce(id);
      return this.status(id);
    }
    const started = deferred<void>();
    const action = this.runAuthorized(
      id,
      async () => {
        await this.#reconnect(id);
        const s = this.#host.sessions.status(id);
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
    return this.status(id);
  }

  /** Resolves when the sign-in started by the last begin() has finished (successfully or not). */
  async settled(id: string): Promise<AuthStatus> {
    await this.#actions.get(id);
    return this.status(id);
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
    const max = opts.max ?? MAX_AUTHORIZATIONS_PER_ACTION;
    let authorizations = 0;
    if (opts.authorizeFirst === true) {
      authorizations++;
      await this.#authorize(id, authorizations, opts.onShown);
    }
    for (;;) {
      try {
        return await op();
      } catch (err) {
        if (!isAuthProblem(err)) throw err;
        if (authorizations >= max) {
          const error = new AppError(
            'auth_required',
            `The server still refuses access after ${max} authorizations${this.#challengeText(id)}; stopping here (sign in again to retry)`,
            { serverId: id },
          );
          this.#failures.set(id, { step: 'token', message: error.message, attempt: authorizations });
          this.#announce(id);
          throw error;
        }
        authorizations++;
        await this.#authorize(id, authorizations, opts.onShown);
      }
    }
  }

  /** Completes the pending sign-in with the redirect URL the user pasted from the browser. */
  async complete(id: string, redirectUrl: string): Promise<AuthStatus> {
    this.#host.config(id);
    const flow = this.#flows.get(id);
    if (flow === undefined || flow.consumed) {
      throw new AppError(
        'auth_required',
        'No sign-in is waiting for a redirect for this server (it finished, expired or was never started); start Sign in again',
        {
          serverId: id,
        },
      );
    }
    await this.#accept(flow, redirectUrl);
    return this.status(id);
  }

  #challengeText(id: string): string {
    const c = this.#challenges.get(id);
    return c?.scope !== undefined ? ` (it asks for scope "${plainText(c.scope, 200)}")` : '';
  }

  /** One authorization: discovery → registration → browser → (callback or paste) → token; stores the grant. */
  async #authorize(id: string, attempt: number, onShown?: () => void): Promise<void> {
    const config = this.#remote(id);
    const t = config.transport as { url: string };
    this.#cancelFlow(id, 'Superseded');
    const settings = await this.#creds.client(id);
    const previous = await this.#creds.grant(id, t.url);
    const challenge = this.#challenges.get(id);
    const scope = computeScopeUnion(
      settings?.scopes?.join(' '),
      challenge?.scope,
      challenge?.error === 'insufficient_scope' ? previous?.tokens.scope : undefined,
    );

    let flow: Flow | undefined;
    try {
      const listener = await this.#opts.listen({
        onCallback: async (hit) => {
          if (flow === undefined) return { ok: false };
          try {
            await this.#accept(flow, hit.url);
            return { ok: true };
          } catch {
            return { ok: false };
          }
        },
        onTimeout: () => {
          if (flow !== undefined && this.#flows.get(id) === flow && !flow.consumed) {
            this.#failFlow(
              flow,
              new StepError('browser', new AppError('timeout', 'The sign-in was not completed within 5 minutes', { serverId: id })),
            );
          }
        },
        timeoutMs: this.#opts.flowTimeoutMs ?? FLOW_TIMEOUT_MS,
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
          settings,
          reusableClient: (issuer) =>
            previous !== undefined && previous.issuer === issuer && previous.grant === 'authorization_code' ? previous.client : undefined,
          hooks: {
            step: (step) => this.#advance(current, step),
            redirect: (url) => this.#redirect(current, url),
          },
        }),
      };
      flow = current;
      this.#flows.set(id, current);
      this.#announce(id);
      this.#log(id, 'info', `Sign-in started (authorization ${attempt} of at most ${MAX_AUTHORIZATIONS_PER_ACTION})`);
      void current.shown.promise.then(onShown, onShown);

      let result: string;
      try {
        result = await auth(current.provider, {
          serverUrl: t.url,
          ...(scope !== undefined ? { scope } : {}),
          ...(current.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: current.resourceMetadataUrl } : {}),
          fetchFn: this.#fetchFor(config),
          forceReauthorization: true,
        });
      } catch (err) {
        throw err instanceof StepError ? err : new StepError(current.step, this.#describe(id, err));
      }
      if (result !== 'REDIRECT')
        throw new StepError(
          'browser',
          new AppError('auth_required', 'The authorization server did not start a browser sign-in', { serverId: id }),
        );
      current.shown.resolve();
      await current.done.promise;
    } catch (err) {
      const error = err instanceof StepError ? err : new StepError(flow?.step ?? 'discovery', this.#describe(id, err));
      if (flow === undefined) this.#recordFailure(id, 'discovery', error, attempt);
      else if (this.#flows.get(id) === flow) this.#failFlow(flow, error);
      throw error;
    }
  }

  #advance(flow: Flow, step: AuthStep): void {
    if (STEP_ORDER.indexOf(step) <= STEP_ORDER.indexOf(flow.step)) return;
    flow.step = step;
    if (this.#flows.get(flow.serverId) === flow) this.#announce(flow.serverId);
  }

  /** auth() wants the browser: refuse without S256, check the URL, then open (or show) it. Never without a click. */
  async #redirect(flow: Flow, url: URL): Promise<void> {
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
    try {
      // The raw endpoint string as the server sent it too: parsing would silently drop CR/LF and tabs from it.
      const raw = this.#rawEndpoints.get(id);
      if (raw !== undefined) checkAuthorizationUrl(raw, id);
      checked = checkAuthorizationUrl(url.href, id);
    } catch (err) {
      throw new StepError(
        'browser',
        err instanceof AppError ? err : new AppError('url_refused', 'The authorization URL was refused', { serverId: id }),
      );
    }
    flow.authorizationUrl = checked.href;
    this.#announce(id);
    flow.shown.resolve();
    try {
      await this.#opts.opener.open(checked);
    } catch {
      // The URL stays visible (and copyable) in the sign-in panel; the user can open it by hand.
      this.#log(id, 'warning', 'The system browser could not be opened; open the sign-in address shown in the panel');
    }
  }

  /** Validates a callback or pasted URL against the flow and, when it is ours, exchanges the code. */
  async #accept(flow: Flow, raw: string | URL): Promise<void> {
    const id = flow.serverId;
    if (flow.consumed || this.#flows.get(id) !== flow) {
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
      this.#log(id, 'warning', verdict.error.message);
      if (verdict.consume) {
        flow.consumed = true;
        this.#failFlow(flow, new StepError('browser', verdict.error));
      }
      throw verdict.error;
    }
    flow.consumed = true;
    void flow.listener?.close();
    this.#advance(flow, 'token');
    try {
      const config = this.#remote(id);
      const result = await auth(flow.provider, {
        serverUrl: flow.serverUrl,
        authorizationCode: verdict.code,
        ...(verdict.iss !== undefined ? { iss: verdict.iss } : {}),
        ...(flow.scope !== undefined ? { scope: flow.scope } : {}),
        ...(flow.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: flow.resourceMetadataUrl } : {}),
        fetchFn: this.#fetchFor(config),
      });
      const out = flow.provider.outcome();
      if (result !== 'AUTHORIZED' || out.tokens === undefined || out.client === undefined || out.issuer === undefined) {
        throw new AppError('auth_required', 'The token exchange did not return tokens', { serverId: id });
      }
      const now = this.#now();
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
      await this.#creds.saveGrant(id, grant);
    } catch (err) {
      const error = new StepError('token', err instanceof AppError ? err : this.#describe(id, err));
      this.#failFlow(flow, error);
      throw error;
    }
    this.#endFlow(flow);
    this.#needsAuthReason.delete(id);
    this.#challenges.delete(id);
    this.#log(id, 'info', 'Signed in; the new grant is stored');
    flow.done.resolve();
    this.#announce(id);
  }

  #failFlow(flow: Flow, error: StepError): void {
    this.#endFlow(flow);
    this.#recordFailure(flow.serverId, error.step, error, flow.attempt);
    flow.shown.resolve();
    flow.done.reject(error);
  }

  #recordFailure(id: string, step: AuthStep, err: unknown, attempt: number): void {
    const message = err instanceof AppError ? err.message : this.#describe(id, err).message;
    this.#failures.set(id, { step, message, attempt });
    this.#log(id, 'warning', `Sign-in failed at ${step}: ${message}`);
    this.#announce(id);
  }

  #endFlow(flow: Flow): void {
    if (this.#flows.get(flow.serverId) === flow) this.#flows.delete(flow.serverId);
    void flow.listener?.close();
  }

  #cancelFlow(id: string, reason: string): void {
    const flow = this.#flows.get(id);
    if (flow === undefined) return;
    flow.consumed = true;
    this.#endFlow(flow);
    flow.shown.resolve();
    flow.done.reject(new StepError(flow.step, new AppError('cancelled', reason, { serverId: id })));
  }

  // ---------------------------------------------------------------- transports

  /** The auth provider for a server's HTTP/SSE transport; undefined for stdio. */
  transportAuth(config: ServerConfig): TransportAuth | undefined {
    const t = config.transport;
    if (t.type === 'stdio') return undefined;
    const id = config.id;
    const url = t.url;
    let lastSent: string | undefined;
    const provider: AuthProvider = {
      token: async () => {
        lastSent = await this.#accessToken(id, config);
        return lastSent;
      },
      onUnauthorized: async () => {
        const fresh = await this.#afterUnauthorized(id, config, url, lastSent);
        if (fresh === undefined) {
          this.#announce(id);
          throw new UnauthorizedError('The server requires authorization');
        }
      },
    };
    return {
      provider,
      onChallenge: (response) => {
        const params = extractWWWAuthenticateParams(response);
        this.#challenges.set(id, {
          status: response.status,
          at: this.#now(),
          ...(params.scope !== undefined ? { scope: params.scope } : {}),
          ...(params.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: params.resourceMetadataUrl } : {}),
          ...(params.error !== undefined ? { error: params.error } : {}),
        });
        if (response.status === 403 && params.error === 'insufficient_scope') {
          this.#needsAuthReason.set(id, `The server needs more permissions${this.#challengeText(id)}; sign in again to grant them`);
        }
      },
    };
  }

  /** The token to send: bearer, else client credentials (re-minted shortly before expiry), else OAuth (refreshed when expired). */
  async #accessToken(id: string, config: ServerConfig): Promise<string | undefined> {
    const url = (config.transport as { url: string }).url;
    const bearer = await this.#creds.bearer(id);
    if (bearer !== null) return bearer;
    const settings = await this.#creds.client(id);
    if (settings?.grant === 'client_credentials') {
      const grant = await this.#mintClientCredentials(id, config, settings, false).catch((err: unknown) => {
        this.#needsAuthReason.set(id, `Client credentials were refused: ${this.#describe(id, err).message}`);
        return undefined;
      });
      return grant?.tokens.access_token;
    }
    const grant = await this.#creds.grant(id, url);
    if (grant === undefined) return undefined;
    if (grant.expiresAt !== undefined && grant.expiresAt - REFRESH_MARGIN_MS <= this.#now()) {
      const fresh = await this.refresh(id, config);
      return fresh?.tokens.access_token;
    }
    return grant.tokens.access_token;
  }

  /** After a 401: a new token if one can be had without the user (refresh or client credentials), else undefined. */
  async #afterUnauthorized(id: string, config: ServerConfig, url: string, sent: string | undefined): Promise<GrantRecord | undefined> {
    if ((await this.#creds.bearer(id)) !== null) {
      this.#needsAuthReason.set(id, 'The server refused the stored bearer token');
      return undefined;
    }
    const settings = await this.#creds.client(id);
    if (settings?.grant === 'client_credentials') {
      return this.#mintClientCredentials(id, config, settings, true, sent).catch(() => undefined);
    }
    const grant = await this.#creds.grant(id, url);
    if (grant === undefined) {
      if (!this.#needsAuthReason.has(id)) this.#needsAuthReason.set(id, 'Sign in to use this server');
      return undefined;
    }
    return this.refresh(id, config, sent ?? grant.tokens.access_token);
  }

  /**
   * Refreshes the current grant under the per-server guard: concurrent callers share one reread → exchange →
   * persist. `stale` is the access token the caller found wanting; when the stored one differs, someone already
   * refreshed and no request is made. invalid_grant deletes the grant (the server then needs sign-in).
   */
  refresh(id: string, config: ServerConfig, stale?: string): Promise<GrantRecord | undefined> {
    const running = this.#guards.get(id);
    if (running !== undefined) return running;
    const url = (config.transport as { url: string }).url;
    const job = (async (): Promise<GrantRecord | undefined> => {
      const grant = await this.#creds.grant(id, url);
      if (grant === undefined) return undefined;
      const expired = grant.expiresAt !== undefined && grant.expiresAt - REFRESH_MARGIN_MS <= this.#now();
      if (stale !== undefined ? grant.tokens.access_token !== stale : !expired) return grant;
      const refreshToken = grant.tokens.refresh_token;
      if (refreshToken === undefined) {
        this.#needsAuthReason.set(id, 'The sign-in expired and the server issued no refresh token; sign in again');
        return undefined;
      }
      let tokens;
      try {
        tokens = await refreshAuthorization(grant.authorizationServerUrl, {
          ...(grant.metadata !== undefined ? { metadata: grant.metadata } : {}),
          clientInformation: grant.client,
          refreshToken,
          ...(grant.resource !== undefined ? { resource: grant.resource } : {}),
          fetchFn: this.#fetchFor(config),
        });
      } catch (err) {
        if (
          err instanceof OAuthError &&
          (err.code === OAuthErrorCode.InvalidGrant ||
            err.code === OAuthErrorCode.InvalidClient ||
            err.code === OAuthErrorCode.UnauthorizedClient)
        ) {
          await this.#creds.deleteGrant(id, url, grant.issuer);
          this.#needsAuthReason.set(id, `The authorization server no longer accepts the stored sign-in (${err.code}); sign in again`);
          this.#log(id, 'warning', `Refresh refused (${err.code}); the grant was deleted`);
          this.#announce(id);
          return undefined;
        }
        this.#log(id, 'warning', `Refresh failed: ${this.#describe(id, err).message}`);
        throw this.#describe(id, err);
      }
      const now = this.#now();
      const expiresAt = expiryOf(tokens, now);
      const next: GrantRecord = {
        ...grant,
        tokens: { ...tokens, refresh_token: tokens.refresh_token ?? refreshToken, issuer: grant.issuer },
        obtainedAt: now,
      };
      if (expiresAt !== undefined) next.expiresAt = expiresAt;
      else delete next.expiresAt;
      // The rotated grant is persisted before anything uses it; the old refresh token is gone only after that.
      await this.#creds.saveGrant(id, next);
      this.#log(id, 'info', 'Access token refreshed');
      this.#announce(id);
      return next;
    })().finally(() => {
      if (this.#guards.get(id) === job) this.#guards.delete(id);
    });
    this.#guards.set(id, job);
    return job;
  }

  /** Client credentials: a token from the SDK's provider, minted again shortly before expiry (no refresh token). */
  #mintClientCredentials(
    id: string,
    config: ServerConfig,
    settings: StoredClientSettings,
    force: boolean,
    stale?: string,
  ): Promise<GrantRecord | undefined> {
    const running = this.#guards.get(id);
    if (running !== undefined) return running;
    const url = (config.transport as { url: string }).url;
    const job = (async (): Promise<GrantRecord | undefined> => {
      const current = await this.#creds.grant(id, url);
      const usable =
        current !== undefined &&
        current.grant === 'client_credentials' &&
        current.client.client_id === settings.clientId &&
        (current.expiresAt === undefined ||
          current.expiresAt - Math.min(CLIENT_CREDENTIALS_MARGIN_MS, (current.expiresAt - current.obtainedAt) / 2) > this.#now());
      if (usable && (!force || (stale !== undefined && current.tokens.access_token !== stale))) return current;
      const clientId = settings.clientId;
      if (clientId === undefined) throw new AppError('config_invalid', 'Client credentials need a client id', { serverId: id });
      const scope = settings.scopes?.join(' ') || this.#challenges.get(id)?.scope;
      // The secret goes only to the pinned issuer: the configured one, else the one that issued the last token.
      const expectedIssuer = settings.issuer ?? (current?.grant === 'client_credentials' ? current.issuer : undefined);
      const common = {
        clientId,
        clientName: CLIENT_NAME,
        ...(scope ? { scope } : {}),
        ...(expectedIssuer !== undefined ? { expectedIssuer } : {}),
      };
      let provider: OAuthClientProvider;
      if (settings.authMethod === 'private_key_jwt') {
        const pem = settings.privateKeyPem;
        if (pem === undefined) throw new AppError('config_invalid', 'private_key_jwt needs a private key', { serverId: id });
        provider = new PrivateKeyJwtProvider({ ...common, privateKey: pem, algorithm: algorithmFor(pem) } as ConstructorParameters<
          typeof PrivateKeyJwtProvider
        >[0]);
      } else {
        const secret = settings.clientSecret;
        if (secret === undefined) throw new AppError('config_invalid', 'Client credentials need a client secret', { serverId: id });
        const Provider = settings.authMethod === 'client_secret_post' ? PostClientCredentialsProvider : ClientCredentialsProvider;
        provider = new Provider({ ...common, clientSecret: secret } as ConstructorParameters<typeof ClientCredentialsProvider>[0]);
      }
      const resourceMetadataUrl = this.#challenges.get(id)?.resourceMetadataUrl;
      try {
        await auth(provider, {
          serverUrl: url,
          fetchFn: this.#fetchFor(config),
          ...(resourceMetadataUrl !== undefined ? { resourceMetadataUrl } : {}),
        });
      } catch (err) {
        throw this.#describe(id, err);
      }
      const tokens = await provider.tokens();
      if (tokens === undefined) throw new AppError('auth_required', 'The authorization server issued no token', { serverId: id });
      const now = this.#now();
      const expiresAt = expiryOf(tokens, now);
      const issuer = tokens.issuer ?? expectedIssuer ?? new URL(url).origin;
      const grant: GrantRecord = {
        v: 1,
        serverUrl: url,
        issuer,
        authorizationServerUrl: issuer,
        client: { client_id: clientId },
        tokens: {
          access_token: tokens.access_token,
          token_type: tokens.token_type,
          ...(tokens.scope !== undefined ? { scope: tokens.scope } : {}),
          issuer,
        },
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        obtainedAt: now,
        grant: 'client_credentials',
      };
      await this.#creds.saveGrant(id, grant);
      this.#needsAuthReason.delete(id);
      this.#log(id, 'info', 'Client credentials token obtained');
      this.#announce(id);
      return grant;
    })().finally(() => {
      if (this.#guards.get(id) === job) this.#guards.delete(id);
    });
    this.#guards.set(id, job);
    return job;
  }

  // ---------------------------------------------------------------- helpers

  #remote(id: string): ServerConfig {
    const config = this.#host.config(id);
    if (config.transport.type === 'stdio') {
      throw new AppError('invalid_request', `${config.name} is a stdio server; authorization applies to HTTP and SSE servers only`, {
        serverId: id,
      });
    }
    return config;
  }

  /** The guarded fetch for OAuth requests: URL checks, no redirects, bounded bodies. */
  #fetchFor(config: ServerConfig): FetchLike {
    const t = config.transport;
    if (t.type === 'stdio') throw new AppError('internal', 'No fetch for stdio servers');
    const guard = createGuardedFetch(
      {
        serverId: config.id,
        serverUrl: t.url,
        allowInsecureHttp: t.allowInsecureHttp,
        headers: {},
        messageBytes: Math.min(config.limits.messageBytes, 1024 * 1024),
        kind: t.type,
        log: (_source, level, text) => this.#log(config.id, level === 'debug' ? 'info' : level, text),
        report: () => undefined,
      },
      this.#opts.fetch,
    );
    const id = config.id;
    return async (input, init) => {
      const response = await guard.fetch(input, init);
      const href = typeof input === 'string' ? input : input.href;
      if (response.ok && new URL(href).pathname.includes('/.well-known/')) {
        // Keep the authorization endpoint exactly as sent, so a CR/LF the URL parser would drop is still refused.
        const body: unknown = await response
          .clone()
          .json()
          .catch(() => undefined);
        const endpoint =
          typeof body === 'object' && body !== null ? (body as { authorization_endpoint?: unknown }).authorization_endpoint : undefined;
        if (typeof endpoint === 'string') this.#rawEndpoints.set(id, endpoint);
      }
      return response;
    };
  }

  async #reconnect(id: string): Promise<void> {
    await this.#dropSession(id);
    await this.#host.sessions.connect(id);
  }

  /** Drops the live session so the next use connects with the current credentials (in-flight calls may finish). */
  async #dropSession(id: string): Promise<void> {
    const state = this.#host.sessions.status(id).state;
    if (state !== 'disconnected') await this.#host.sessions.disconnect(id);
  }

  /** Plain-words error without secrets or raw bodies from the server. */
  #describe(id: string, err: unknown): AppError {
    if (err instanceof AppError) return err;
    if (err instanceof OAuthError) {
      const description =
        err.message && err.message !== err.code ? `: ${plainText(err.message.replace(/Raw body:[\s\S]*$/, ''), 200)}` : '';
      return new AppError('auth_required', `The authorization server answered ${plainText(String(err.code), 60)}${description}`, {
        serverId: id,
      });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new AppError('auth_required', plainText(message.replace(/Raw body:[\s\S]*$/, ''), 300) || 'Authorization failed', {
      serverId: id,
    });
  }

  #log(id: string, level: 'info' | 'warning' | 'error', text: string): void {
    this.#opts.log?.(id, level, text);
  }
}

const attached = new WeakMap<object, AuthManager>();

/** Associates the manager with its host so the contract handlers find it. */
export function attachAuth(host: object, manager: AuthManager): void {
  attached.set(host, manager);
}

/** The manager attached to a host, or an error when the shell did not set one up. */
export function authOf(host: object): AuthManager {
  const manager = attached.get(host);
  if (manager === undefined) throw new AppError('internal', 'Authorization is not set up in this shell');
  return manager;
}
