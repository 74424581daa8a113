// Device sign-in (OAuth 2.0 Device Authorization Grant, RFC 8628) for authorization servers that advertise a
// device_authorization_endpoint: the person enters a short code on any device with a browser, while the app polls
// the token endpoint at the server's interval (5 s more after each slow_down) until the code is entered, declined
// or expires. Useful over SSH and on machines without a browser. The grant is stored like any other and refreshed
// the same way. The SDK does discovery, registration and the token request; this module adds the device request,
// the polling policy, the checks on what the server sends back, and the status the renderer sees.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  discoverOAuthServerInfo,
  fetchToken,
  OAuthError,
  registerClient,
  resourceUrlFromServerUrl,
  type AuthorizationServerMetadata,
  type DpopSession,
  type FetchLike,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthProtectedResourceMetadata,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { DeviceCodeView } from '../../../shared/domains/auth.js';
import { AppError } from '../../../shared/errors.js';
import type { AuthContext } from './auth-context.js';
import { describeAuthError, StepError } from './auth-errors.js';
import { plainText } from './callback.js';
import { expiryOf, type GrantRecord } from './credentials.js';
import { advertisesDpop } from './dpop.js';
import { CLIENT_NAME } from './flow-provider.js';
import { checkAuthorizationUrl } from './safe-url.js';
import { cancelFlow } from './sign-in-flow.js';

/** RFC 8628 grant type of the token request. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Poll interval when the server gives none (RFC 8628 §3.2). */
export const DEFAULT_INTERVAL_SECS = 5;
/** Seconds added to the interval on each slow_down (RFC 8628 §3.5). */
export const SLOW_DOWN_SECS = 5;
/** Longest code lifetime honoured, and the shortest and longest interval. */
const MAX_EXPIRES_SECS = 30 * 60;
const MIN_INTERVAL_SECS = 1;
const MAX_INTERVAL_SECS = 60;
/** Longest verification page address accepted (shown, logged and opened): real ones are a few dozen characters. */
export const MAX_VERIFICATION_URI_CHARS = 2048;

/** Refuses a verification page address over MAX_VERIFICATION_URI_CHARS, before it is parsed, shown or printed. */
function boundedPage(raw: string, id: string, field: string): string {
  if (raw.length <= MAX_VERIFICATION_URI_CHARS) return raw;
  throw new AppError(
    'url_refused',
    `The authorization server’s ${field} is ${raw.length} characters long; page addresses over ${MAX_VERIFICATION_URI_CHARS} characters are refused`,
    { serverId: id },
  );
}

/** A device sign-in in progress for one server. */
export interface DeviceFlow {
  serverId: string;
  view: DeviceCodeView;
  abort: AbortController;
  /** Settles when the grant is stored or the flow ended. */
  done: Promise<void>;
}

/**
 * The minimal client provider the SDK's token request needs: the client, the device_code grant parameters, and the
 * server's DPoP session when the authorization server advertises DPoP (each poll then carries a fresh proof).
 */
class DeviceTokenProvider implements OAuthClientProvider {
  readonly #client: StoredOAuthClientInformation;
  readonly #deviceCode: string;
  readonly #dpop: (() => Promise<DpopSession>) | undefined;

  constructor(client: StoredOAuthClientInformation, deviceCode: string, dpop: (() => Promise<DpopSession>) | undefined) {
    this.#client = client;
    this.#deviceCode = deviceCode;
    this.#dpop = dpop;
  }

  dpop(): Promise<DpopSession> | undefined {
    return this.#dpop?.();
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return deviceClientMetadata();
  }

  clientInformation(): StoredOAuthClientInformation {
    return this.#client;
  }

  tokens(): undefined {
    return undefined;
  }

  saveTokens(): void {}

  redirectToAuthorization(): void {
    throw new AppError('internal', 'A device sign-in never opens an authorization URL');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new AppError('internal', 'A device sign-in has no PKCE verifier');
  }

  prepareTokenRequest(): URLSearchParams {
    return new URLSearchParams({ grant_type: DEVICE_CODE_GRANT, device_code: this.#deviceCode });
  }
}

function deviceClientMetadata(): OAuthClientMetadata {
  return {
    client_name: CLIENT_NAME,
    redirect_uris: [],
    grant_types: [DEVICE_CODE_GRANT, 'refresh_token'],
    response_types: [],
    token_endpoint_auth_method: 'none',
    application_type: 'native',
  };
}

/** What the device authorization endpoint answered, checked. */
interface DeviceAuthorization {
  deviceCode: string;
  view: DeviceCodeView;
}

/** Checks the device authorization response: bounded strings, a verification URL fit for a browser, sane timings. */
function readDeviceAuthorization(raw: unknown, id: string, now: number): DeviceAuthorization {
  const bad = (what: string) =>
    new AppError('auth_required', `The authorization server’s device sign-in answer is not usable: ${what}`, { serverId: id });
  if (typeof raw !== 'object' || raw === null) throw bad('it is not a JSON object');
  const r = raw as Record<string, unknown>;
  const deviceCode = r['device_code'];
  const userCode = r['user_code'];
  const verificationUri = r['verification_uri'] ?? r['verification_url'];
  if (typeof deviceCode !== 'string' || deviceCode === '' || deviceCode.length > 4096) throw bad('no device_code');
  if (typeof userCode !== 'string' || !/^[\x21-\x7e]{1,64}$/.test(userCode.replace(/ /g, '-'))) throw bad('no readable user_code');
  if (typeof verificationUri !== 'string') throw bad('no verification_uri');
  const page = checkAuthorizationUrl(boundedPage(verificationUri, id, 'verification_uri'), id, 'The verification page');
  let complete: string | undefined;
  const rawComplete = r['verification_uri_complete'];
  if (typeof rawComplete === 'string') {
    boundedPage(rawComplete, id, 'verification_uri_complete');
    try {
      const u = checkAuthorizationUrl(rawComplete, id, 'The verification page');
      // Only offered when it leads to the same site as the plain page.
      if (u.origin === page.origin) complete = u.href;
    } catch {
      complete = undefined;
    }
  }
  const expires =
    typeof r['expires_in'] === 'number' && r['expires_in'] > 0 ? Math.min(r['expires_in'], MAX_EXPIRES_SECS) : MAX_EXPIRES_SECS;
  const interval =
    typeof r['interval'] === 'number' && Number.isFinite(r['interval'])
      ? Math.min(Math.max(r['interval'], MIN_INTERVAL_SECS), MAX_INTERVAL_SECS)
      : DEFAULT_INTERVAL_SECS;
  return {
    deviceCode,
    view: {
      userCode: plainText(userCode, 64),
      verificationUri: page.href,
      ...(complete !== undefined ? { verificationUriComplete: complete } : {}),
      expiresAt: now + expires * 1000,
      intervalSecs: interval,
    },
  };
}

/** The client for device sign-in: the configured one, the one of an earlier device grant, or a registered one. */
async function deviceClient(
  ctx: AuthContext,
  id: string,
  serverUrl: string,
  issuer: string,
  metadata: AuthorizationServerMetadata,
  fetchFn: FetchLike,
): Promise<StoredOAuthClientInformation> {
  const settings = await ctx.creds.client(id);
  if (settings?.grant === 'device_code' && settings.clientId !== undefined && settings.clientId !== '') {
    return { client_id: settings.clientId, ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}) };
  }
  const previous = await ctx.creds.grant(id, serverUrl);
  if (previous?.grant === 'device_code' && previous.issuer === issuer) return previous.client;
  if (metadata.registration_endpoint === undefined) {
    throw new AppError(
      'auth_required',
      'Device sign-in needs a client registered with the authorization server: set its client id in the sign-in settings (grant: device code)',
      { serverId: id },
    );
  }
  ctx.log(id, 'info', 'Registering a client for device sign-in');
  const full = await registerClient(issuer, { metadata, clientMetadata: deviceClientMetadata(), fetchFn });
  return { client_id: full.client_id, ...(full.client_secret !== undefined ? { client_secret: full.client_secret } : {}) };
}

/** Starts a device sign-in; resolves once the code to enter is known (the polling goes on in the background). */
export async function startDeviceFlow(ctx: AuthContext, id: string): Promise<void> {
  const config = ctx.remote(id);
  const serverUrl = (config.transport as { url: string }).url;
  cancelFlow(ctx, id, 'A device sign-in was started');
  cancelDeviceFlow(ctx, id, 'A new device sign-in was started');
  ctx.failures.delete(id);
  const fetchFn = ctx.fetchFor(config);
  let issuer: string;
  let authorizationServerUrl: string;
  let metadata: AuthorizationServerMetadata;
  let resourceMetadata: OAuthProtectedResourceMetadata | undefined;
  try {
    const challenge = ctx.challenges.get(id);
    const info = await discoverOAuthServerInfo(serverUrl, {
      fetchFn,
      ...(challenge?.resourceMetadataUrl !== undefined ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
    });
    if (info.authorizationServerMetadata === undefined) {
      throw new AppError('auth_required', 'The authorization server publishes no metadata, so device sign-in cannot be found', {
        serverId: id,
      });
    }
    metadata = info.authorizationServerMetadata;
    issuer = metadata.issuer;
    authorizationServerUrl = info.authorizationServerUrl;
    resourceMetadata = info.resourceMetadata;
  } catch (err) {
    const error = err instanceof AppError ? err : describeAuthError(id, err);
    ctx.recordFailure(id, 'discovery', error, 1);
    throw new StepError('discovery', error);
  }
  const endpoint = (metadata as { device_authorization_endpoint?: unknown }).device_authorization_endpoint;
  if (typeof endpoint !== 'string') {
    const error = new AppError(
      'auth_required',
      `${plainText(issuer, 200)} does not offer device sign-in (no device_authorization_endpoint)`,
      { serverId: id },
    );
    ctx.recordFailure(id, 'discovery', error, 1);
    throw new StepError('discovery', error);
  }

  let client: StoredOAuthClientInformation;
  let device: DeviceAuthorization;
  const resource = resourceMetadata?.resource ?? resourceUrlFromServerUrl(serverUrl).href;
  const settings = await ctx.creds.client(id);
  const scope = settings?.scopes?.join(' ') || ctx.challenges.get(id)?.scope || resourceMetadata?.scopes_supported?.join(' ');
  try {
    client = await deviceClient(ctx, id, serverUrl, issuer, metadata, fetchFn);
  } catch (err) {
    const error = err instanceof AppError ? err : describeAuthError(id, err);
    ctx.recordFailure(id, 'registration', error, 1);
    throw new StepError('registration', error);
  }
  try {
    const url = checkAuthorizationUrl(endpoint, id, 'The device authorization endpoint');
    const body = new URLSearchParams({ client_id: client.client_id, resource });
    if (scope !== undefined && scope !== '') body.set('scope', scope);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (client.client_secret !== undefined) {
      headers['authorization'] =
        `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
    }
    const response = await fetchFn(url.href, { method: 'POST', headers, body });
    if (!response.ok) {
      const answer = (await response.json().catch(() => undefined)) as { error?: unknown; error_description?: unknown } | undefined;
      const code = typeof answer?.error === 'string' ? plainText(answer.error, 60) : `HTTP ${response.status}`;
      const description = typeof answer?.error_description === 'string' ? `: ${plainText(answer.error_description, 200)}` : '';
      throw new AppError('auth_required', `The authorization server refused the device sign-in (${code})${description}`, { serverId: id });
    }
    device = readDeviceAuthorization(await response.json().catch(() => undefined), id, ctx.now());
  } catch (err) {
    const error = err instanceof AppError ? err : describeAuthError(id, err);
    ctx.recordFailure(id, 'device', error, 1);
    throw new StepError('device', error);
  }

  const abort = new AbortController();
  const flow: DeviceFlow = { serverId: id, view: device.view, abort, done: Promise.resolve() };
  ctx.deviceFlows.set(id, flow);
  ctx.log(id, 'info', `Device sign-in started: enter the code at ${device.view.verificationUri}`);
  ctx.announce(id);
  flow.done = poll(ctx, flow, {
    serverUrl,
    authorizationServerUrl,
    issuer,
    metadata,
    resource,
    client,
    deviceCode: device.deviceCode,
    fetchFn,
  });
}

interface PollInput {
  serverUrl: string;
  authorizationServerUrl: string;
  issuer: string;
  metadata: AuthorizationServerMetadata;
  resource: string;
  client: StoredOAuthClientInformation;
  deviceCode: string;
  fetchFn: FetchLike;
}

/** Polls the token endpoint until the code is entered, declined, expired, or the flow is cancelled. */
async function poll(ctx: AuthContext, flow: DeviceFlow, input: PollInput): Promise<void> {
  const id = flow.serverId;
  const signal = flow.abort.signal;
  const dpop = advertisesDpop(input.metadata) ? () => ctx.dpop.session(id) : undefined;
  const provider = new DeviceTokenProvider(input.client, input.deviceCode, dpop);
  const fail = (message: string, code: AppError['code'] = 'auth_required'): void => {
    if (ctx.deviceFlows.get(id) !== flow) return;
    ctx.deviceFlows.delete(id);
    ctx.recordFailure(id, 'device', new AppError(code, message, { serverId: id }), 1);
  };
  for (;;) {
    const wait = Math.min(flow.view.intervalSecs * 1000, Math.max(0, flow.view.expiresAt - ctx.now()));
    try {
      await sleep(wait, undefined, { signal, ref: false });
    } catch {
      return; // cancelled
    }
    if (ctx.now() >= flow.view.expiresAt) {
      fail('The code expired before it was entered; start the device sign-in again', 'timeout');
      return;
    }
    let tokens: StoredOAuthTokens;
    try {
      tokens = await fetchToken(provider, input.authorizationServerUrl, {
        metadata: input.metadata,
        resource: input.resource,
        fetchFn: input.fetchFn,
      });
    } catch (err) {
      if (signal.aborted) return;
      if (err instanceof OAuthError) {
        if (err.code === 'authorization_pending') continue;
        if (err.code === 'slow_down') {
          flow.view = { ...flow.view, intervalSecs: Math.min(flow.view.intervalSecs + SLOW_DOWN_SECS, MAX_INTERVAL_SECS + SLOW_DOWN_SECS) };
          ctx.log(id, 'info', `The authorization server asked to slow down: checking every ${flow.view.intervalSecs} s`);
          ctx.announce(id);
          continue;
        }
        if (err.code === 'access_denied') return fail('The sign-in was declined on the verification page');
        if (err.code === 'expired_token') return fail('The code expired before it was entered; start the device sign-in again', 'timeout');
      }
      return fail(describeAuthError(id, err).message);
    }
    if (signal.aborted) return;
    const now = ctx.now();
    const expiresAt = expiryOf(tokens, now);
    const grant: GrantRecord = {
      v: 1,
      serverUrl: input.serverUrl,
      issuer: input.issuer,
      authorizationServerUrl: input.authorizationServerUrl,
      metadata: input.metadata,
      resource: input.resource,
      client: input.client,
      tokens: { ...tokens, issuer: input.issuer },
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      obtainedAt: now,
      grant: 'device_code',
    };
    try {
      await ctx.creds.saveGrant(id, grant);
    } catch (err) {
      return fail(`The sign-in could not be stored: ${describeAuthError(id, err).message}`, 'storage_failed');
    }
    if (ctx.deviceFlows.get(id) === flow) ctx.deviceFlows.delete(id);
    ctx.needsAuthReason.delete(id);
    ctx.challenges.delete(id);
    ctx.log(id, 'info', 'Signed in with a device code; the new grant is stored');
    ctx.announce(id);
    await ctx.reconnect(id).catch(() => undefined);
    ctx.announce(id);
    return;
  }
}

/** Stops the server's device sign-in, if one runs. */
export function cancelDeviceFlow(ctx: AuthContext, id: string, reason: string): void {
  const flow = ctx.deviceFlows.get(id);
  if (flow === undefined) return;
  ctx.deviceFlows.delete(id);
  flow.abort.abort();
  ctx.log(id, 'info', `Device sign-in stopped: ${reason}`);
  ctx.announce(id);
}

/** The page to open for a running device sign-in (the one with the code filled in, when offered). */
export function devicePage(ctx: AuthContext, id: string): URL {
  const flow = ctx.deviceFlows.get(id);
  if (flow === undefined) throw new AppError('not_found', 'No device sign-in is waiting for this server', { serverId: id });
  return checkAuthorizationUrl(flow.view.verificationUriComplete ?? flow.view.verificationUri, id, 'The verification page');
}
