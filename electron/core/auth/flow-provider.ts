// The OAuthClientProvider the SDK's auth() drives during one interactive sign-in. Everything it holds (state,
// PKCE verifier, discovery result, registered client, new tokens) lives in memory for that one flow; the
// AuthManager persists the grant only once the token exchange succeeded.
import { randomBytes } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { AuthStep } from '../../../shared/domains/auth.js';
import type { StoredClientSettings } from './credentials.js';
import { advertisesDpop } from './dpop.js';

/** Product name sent as client_name in registrations and metadata documents. */
export const CLIENT_NAME = 'Switchboard';

/** What the flow tells its owner as it goes. */
export interface FlowHooks {
  /** The flow reached a step. */
  step(step: AuthStep): void;
  /** auth() wants the browser sent to this URL (the owner checks and opens it). */
  redirect(url: URL): Promise<void>;
}

/** What a flow holds between the authorization request and the token exchange (secrets: the verifier, the client). */
export interface FlowParts {
  codeVerifier: string;
  discovery: OAuthDiscoveryState;
  client: StoredOAuthClientInformation;
  resource?: string;
}

/** A high-entropy, URL-safe value for `state` (256 bits). */
export function newState(): string {
  return randomBytes(32).toString('base64url');
}

/** The provider for one authorization-code flow. */
export class FlowProvider implements OAuthClientProvider {
  /** The `state` sent with the authorization request (checked by the owner, not by the SDK). */
  readonly stateValue: string;
  /** The Client ID Metadata Document URL, only when no client id is pre-registered (fixed by the settings). */
  readonly clientMetadataUrl?: string;
  readonly #redirectUri: string;
  readonly #settings: StoredClientSettings | undefined;
  readonly #hooks: FlowHooks;
  /** A DCR client registered earlier for this server URL + issuer that may be reused. */
  readonly #reusable: (issuer: string) => StoredOAuthClientInformation | undefined;
  readonly #dpop: (() => Promise<DpopSession>) | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #client: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #issuer: string | undefined;
  #resource: string | undefined;

  constructor(opts: {
    redirectUri: string;
    settings: StoredClientSettings | undefined;
    hooks: FlowHooks;
    reusableClient: (issuer: string) => StoredOAuthClientInformation | undefined;
    /** The server's DPoP session, used only when its authorization server advertises DPoP. */
    dpop?: () => Promise<DpopSession>;
    /** The state to send (default: a new one). */
    state?: string;
    /** A flow a previous core started, taken over for its token exchange. */
    restored?: FlowParts;
  }) {
    this.stateValue = opts.state ?? newState();
    if (opts.restored !== undefined) {
      this.#verifier = opts.restored.codeVerifier;
      this.#discovery = opts.restored.discovery;
      this.#client = opts.restored.client;
      this.#resource = opts.restored.resource;
    }
    this.#redirectUri = opts.redirectUri;
    this.#settings = opts.settings;
    this.#hooks = opts.hooks;
    this.#reusable = opts.reusableClient;
    this.#dpop = opts.dpop;
    const metadataUrl = this.#preRegistered() ? undefined : opts.settings?.metadataUrl;
    if (metadataUrl !== undefined) this.clientMetadataUrl = metadataUrl;
  }

  get redirectUrl(): string {
    return this.#redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    const secret = this.#settings?.clientSecret;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.#redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: secret !== undefined ? 'client_secret_basic' : 'none',
      application_type: 'native',
    };
  }

  state(): string {
    return this.stateValue;
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    // auth() asks for the client right after discovery and the resource check.
    this.#hooks.step('registration');
    if (this.#client !== undefined) return this.#client;
    const s = this.#settings;
    if (this.#preRegistered() && s?.clientId !== undefined) {
      return { client_id: s.clientId, ...(s.clientSecret !== undefined ? { client_secret: s.clientSecret } : {}) };
    }
    if (ctx !== undefined) {
      const reusable = this.#reusable(ctx.issuer);
      // A dynamically registered client is reused only when it was registered with this flow's redirect URI.
      if (reusable !== undefined && (reusable.client_id === this.clientMetadataUrl || registeredFor(reusable, this.#redirectUri))) {
        return reusable;
      }
    }
    return undefined;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    if (this.#client === undefined && !this.#preRegistered()) this.#hooks.step('registration');
    this.#client = info;
  }

  /** A sign-in never consults stored tokens: it always asks the user again. */
  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: StoredOAuthTokens, ctx?: OAuthClientInformationContext): void {
    this.#tokens = tokens;
    if (ctx !== undefined) this.#issuer = ctx.issuer;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.#hooks.step('browser');
    await this.#hooks.redirect(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new Error('No PKCE verifier was saved for this flow');
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /** DPoP proofs on the token request only when the authorization server lists an algorithm we sign with (ES256). */
  async dpop(): Promise<DpopSession | undefined> {
    if (this.#dpop === undefined || !advertisesDpop(this.#discovery?.authorizationServerMetadata)) return undefined;
    return this.#dpop();
  }

  saveResourceUrl(resourceUrl: string): void {
    this.#resource = resourceUrl;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.#client = undefined;
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.#verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.#discovery = undefined;
  }

  /** What the token exchange will need, once the browser is sent off (the PKCE verifier is saved by then). */
  exchangeParts(): FlowParts | undefined {
    if (this.#verifier === undefined || this.#discovery === undefined || this.#client === undefined) return undefined;
    return {
      codeVerifier: this.#verifier,
      discovery: this.#discovery,
      client: this.#client,
      ...(this.#resource !== undefined ? { resource: this.#resource } : {}),
    };
  }

  /** What the flow learned, for persisting the grant. */
  outcome(): {
    discovery: OAuthDiscoveryState | undefined;
    client: StoredOAuthClientInformation | undefined;
    tokens: StoredOAuthTokens | undefined;
    issuer: string | undefined;
    resource: string | undefined;
  } {
    return { discovery: this.#discovery, client: this.#client, tokens: this.#tokens, issuer: this.#issuer, resource: this.#resource };
  }

  #preRegistered(): boolean {
    return this.#settings?.clientId !== undefined && this.#settings.clientId !== '';
  }
}

function registeredFor(client: StoredOAuthClientInformation, redirectUri: string): boolean {
  const uris = (client as { redirect_uris?: unknown }).redirect_uris;
  return Array.isArray(uris) && uris.includes(redirectUri);
}
