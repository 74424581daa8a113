// Contract types for authorization (issue: authorization). Owned by the auth work.
import { z } from 'zod';

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
  kind: 'none' | 'bearer' | 'oauth' | 'client_credentials' | 'cross_app_access' | 'workload_identity';
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
  /** Present when the stored token is DPoP-bound (RFC 9449): the key's RFC 7638 thumbprint, never the key. */
  dpop?: { thumbprint: string };
}

/**
 * How a client obtains tokens: in the browser (authorization code), as a machine (client credentials), from the
 * user's enterprise sign-in (Cross-App Access, SEP-990: the IdP's ID token is exchanged for an ID-JAG, which the MCP
 * server's authorization server accepts as an RFC 7523 JWT bearer grant), or with a code entered on another device
 * (device authorization grant, RFC 8628), or as a workload presenting the identity token its platform issued
 * (workload identity federation, SEP-1933: that JWT is the assertion of an RFC 7523 JWT bearer grant).
 */
export type ClientGrant = 'authorization_code' | 'client_credentials' | 'cross_app_access' | 'device_code' | 'workload_identity';

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
  /** Whether the workload's identity token is stored (workload identity federation). */
  hasWorkloadToken?: boolean;
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
  /**
   * The workload's identity token: a JWT its platform issued for the authorization server, sent as the JWT bearer
   * assertion (workload identity federation; stored in the credential store, never returned).
   */
  workloadToken?: string;
}

/** Authorization methods: name → (argument object) → result. */
export interface AuthInvokeMap {
  /** A server's authorization state. */
  'auth.status': (args: { id: string }) => Promise<AuthStatus>;
  /** Starts an interactive sign-in; opens the system browser in the app, returns the URL in any case. */
  'auth.begin': (args: { id: string }) => Promise<AuthStatus>;
  /** Completes a sign-in with the redirect URL pasted from the browser. */
  'auth.complete': (args: { id: string; redirectUrl: string }) => Promise<AuthStatus>;
  /** Deletes stored credentials (next connect needs sign-in). */
  'auth.signOut': (args: { id: string }) => Promise<AuthStatus>;
  /** Starts a device sign-in (RFC 8628): resolves with the code to enter and where; the core polls until it is entered. */
  'auth.deviceStart': (args: { id: string }) => Promise<AuthStatus>;
  /** Stops a device sign-in in progress. */
  'auth.deviceCancel': (args: { id: string }) => Promise<AuthStatus>;
  /** Opens the device sign-in's verification page through the safe opener (headless mode prints it). */
  'auth.deviceOpen': (args: { id: string }) => Promise<void>;
  /** Sets or clears a static bearer token. */
  'auth.setBearer': (args: { id: string; token: string | null }) => Promise<AuthStatus>;
  /** Sets a pre-registered or client-credentials client. */
  'auth.setClient': (args: { id: string; client: ClientSettingsInput | null }) => Promise<AuthStatus>;
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const id = z.string().min(1).max(200);

/** Validators for auth.* arguments. */
export const authArgSchemas = {
  'auth.status': z.object({ id }).strict(),
  'auth.begin': z.object({ id }).strict(),
  'auth.complete': z.object({ id, redirectUrl: z.string().min(1).max(8192) }).strict(),
  'auth.signOut': z.object({ id }).strict(),
  'auth.deviceStart': z.object({ id }).strict(),
  'auth.deviceCancel': z.object({ id }).strict(),
  'auth.deviceOpen': z.object({ id }).strict(),
  'auth.setBearer': z
    .object({
      id,
      token: z
        .string()
        .min(1)
        .max(16384)
        .regex(/^[\x21-\x7e]+$/, 'A token is printable ASCII without spaces')
        .nullable(),
    })
    .strict(),
  'auth.setClient': z
    .object({
      id,
      client: z
        .object({
          grant: z.enum(['authorization_code', 'client_credentials', 'cross_app_access', 'device_code', 'workload_identity']),
          clientId: z.string().max(2048).optional(),
          clientSecret: z.string().max(8192).optional(),
          authMethod: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']).optional(),
          privateKeyPem: z.string().max(32768).optional(),
          metadataUrl: z.string().url().max(2048).optional(),
          scopes: z.array(z.string().max(200)).max(100).optional(),
          issuer: z.string().url().max(2048).optional(),
          idpIssuer: z.string().url().max(2048).optional(),
          idpTokenEndpoint: z.string().url().max(2048).optional(),
          idpClientId: z.string().max(2048).optional(),
          idpClientSecret: z.string().max(8192).optional(),
          idToken: z
            .string()
            .max(16384)
            .regex(/^[A-Za-z0-9._~+/=-]*$/, 'An ID token is a JWT: letters, digits and . _ - only')
            .optional(),
          workloadToken: z
            .string()
            .max(16384)
            .regex(/^[A-Za-z0-9._~+/=-]*$/, 'A workload identity token is a JWT: letters, digits and . _ - only')
            .optional(),
        })
        .strict()
        .nullable(),
    })
    .strict(),
} as const;
