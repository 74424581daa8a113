// Contract types for authorization (issue: authorization). Owned by the auth work.

/** Steps of an interactive sign-in (`device`: waiting for the code to be entered on another device, RFC 8628). */
export type AuthStep = 'discovery' | 'registration' | 'browser' | 'device' | 'token';

/** A device sign-in waiting for the person (RFC 8628): the code to enter and where. All server-supplied, checked text. */
export interface DeviceCodeView {
  /** The code to type on the verification page. */
  userCode: string;
  /** The verification page (https, or http on this machine). */
  verificationUri: string;
  /** The page with the code filled in, when the server gave one on the same origin. */
  verificationUriComplete?: string;
  /** When the code stops working (ms since epoch). */
  expiresAt: number;
  /** Seconds between checks (grows by 5 when the server says slow_down). */
  intervalSecs: number;
}

/** A server's authorization state as the renderer may see it: never a token. */
export interface AuthStatus {
  /** Server id. */
  id: string;
  /** Which kind of credential is configured. */
  kind: 'none' | 'bearer' | 'oauth' | 'client_credentials' | 'cross_app_access';
  /** Current state. */
  state: 'signed-out' | 'signed-in' | 'needs-auth' | 'in-progress';
  /** Who is signed in, when known. */
  account?: string;
  /** Authorization server issuer. */
  issuer?: string;
  /** Access token expiry (ms since epoch). */
  expiresAt?: number;
  /** Granted scopes. */
  scopes?: string[];
  /** Whether a static bearer token is stored (the token itself never leaves the core). */
  bearerSet?: boolean;
  /** The configured client, secrets replaced by flags. */
  client?: ClientSettingsView;
  /** Scope the server asked for in its last challenge (401 or 403 insufficient_scope). */
  requiredScope?: string;
  /** Why the server needs sign-in, in plain words, when it does. */
  reason?: string;
  /** The running or last failed flow. */
  flow?: {
    /** Current step. */
    step: AuthStep;
    /** Step that failed, with the reason. */
    failed?: { step: AuthStep; message: string };
    /** The URL to open (also shown for copy/paste in headless mode). */
    authorizationUrl?: string;
    /** Warnings about that URL to show beside it (an internationalized host shown decoded, plain http to this machine). */
    authorizationUrlWarnings?: string[];
    /** The loopback redirect URI the flow uses. */
    redirectUri?: string;
    /** How many authorizations this sign-in has run (step-up may need more than one, at most 3). */
    attempt?: number;
  };
  /** A device sign-in in progress: the code to enter and where. */
  device?: DeviceCodeView;
}

/**
 * How a client obtains tokens: in the browser (authorization code), as a machine (client credentials), from the
 * user's enterprise sign-in (Cross-App Access, SEP-990: the IdP's ID token is exchanged for an ID-JAG, which the MCP
 * server's authorization server accepts as an RFC 7523 JWT bearer grant), or with a code entered on another device
 * (device authorization grant, RFC 8628).
 */
export type ClientGrant = 'authorization_code' | 'client_credentials' | 'cross_app_access' | 'device_code';

/** A configured client as the renderer may see it: never the secret or the private key. */
export interface ClientSettingsView {
  /** Grant to use. */
  grant: ClientGrant;
  /** Client id, when pre-registered. */
  clientId?: string;
  /** Whether a client secret is stored. */
  hasSecret: boolean;
  /** Whether a private key is stored. */
  hasPrivateKey: boolean;
  /** Client authentication for client credentials. */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** Client ID Metadata Document URL. */
  metadataUrl?: string;
  /** Scopes to request. */
  scopes?: string[];
  /** Issuer of the only authorization server the client secret or key may be sent to (client credentials). */
  issuer?: string;
  /** Enterprise identity provider's issuer (Cross-App Access). */
  idpIssuer?: string;
  /** The identity provider's token endpoint, when set instead of being discovered (Cross-App Access). */
  idpTokenEndpoint?: string;
  /** Client id registered with the identity provider (Cross-App Access). */
  idpClientId?: string;
  /** Whether a client secret for the identity provider is stored. */
  hasIdpSecret?: boolean;
  /** Whether an ID token from the identity provider is stored. */
  hasIdToken?: boolean;
}

/** A pre-registered, client-credentials or Cross-App Access client, as entered by the user. */
export interface ClientSettingsInput {
  /** Grant to use. */
  grant: ClientGrant;
  /** Client id; empty means dynamic registration or a metadata document. */
  clientId?: string;
  /** Client secret (stored in the credential store, never returned). */
  clientSecret?: string;
  /** Client authentication for client credentials. */
  authMethod?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** PEM private key for private_key_jwt (stored in the credential store). */
  privateKeyPem?: string;
  /** Client ID Metadata Document URL to use as client id. */
  metadataUrl?: string;
  /** Scopes to request. */
  scopes?: string[];
  /** Pinned authorization server issuer (client credentials, Cross-App Access). */
  issuer?: string;
  /** Enterprise identity provider's issuer URL; its token endpoint is discovered (Cross-App Access). */
  idpIssuer?: string;
  /** The identity provider's token endpoint; when empty it is discovered from the issuer (Cross-App Access). */
  idpTokenEndpoint?: string;
  /** Client id registered with the identity provider (Cross-App Access). */
  idpClientId?: string;
  /** Client secret for the identity provider, if it has one (stored in the credential store, never returned). */
  idpClientSecret?: string;
  /** The user's ID token from the identity provider (stored in the credential store, never returned). */
  idToken?: string;
}
