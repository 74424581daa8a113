// Ports the authorization core needs from the platform: the system browser and the loopback redirect listener (held
// by the shell in both apps, so a sign-in outlives a core restart; in this process for the command line).

/** Opens an already-checked authorization URL outside the app (system browser, or shown/printed in headless mode). */
export interface BrowserOpener {
  /** 'browser' opens the system browser; 'print' only shows the URL (headless, SSH). */
  readonly kind: 'browser' | 'print';
  /** Opens (or shows) the URL. Callers pass only URLs accepted by checkAuthorizationUrl. */
  open(url: URL): Promise<void>;
}

/** The query of one request that reached the redirect listener's exact callback path. */
export interface CallbackHit {
  /** The full callback URL as received (http://127.0.0.1:PORT/callback?...). */
  url: URL;
}

/** A loopback listener that lives for one authorization flow. */
export interface RedirectListener {
  /** http://127.0.0.1:PORT/callback */
  readonly redirectUri: string;
  /** Stops listening (idempotent). */
  close(): Promise<void>;
}

/** Starts a listener for one flow; `onCallback` runs for each GET on the exact path with a loopback Host. */
export type ListenForRedirect = (opts: {
  /** Called for every valid-looking callback request; resolves with whether the flow accepted it. */
  onCallback: (hit: CallbackHit) => Promise<{ ok: boolean }>;
  /** Called once when the listener times out (5 minutes by default). */
  onTimeout: () => void;
  /** Lifetime in ms. */
  timeoutMs?: number;
  /** The flow's server and state: a listener held by the shell checks the state itself before the core hears of it. */
  serverId?: string;
  state?: string;
}) => Promise<RedirectListener | HeldRedirectListener>;

/**
 * What finishing one interactive sign-in needs once the browser has been sent off: handed to the shell, which keeps
 * it in memory only (never logged, never written), so a core started after this one crashed can still exchange the
 * code the redirect brings. It holds secrets (the PKCE verifier, a registered client's secret, the state).
 */
export interface PendingExchange {
  v: 1;
  serverId: string;
  serverUrl: string;
  redirectUri: string;
  state: string;
  codeVerifier: string;
  /** The SDK's discovery result (OAuthDiscoveryState), checked again on the callback leg. */
  discovery: unknown;
  /** The client the authorization request named (OAuthClientInformation). */
  client: unknown;
  resource?: string;
  scope?: string;
  resourceMetadataUrl?: string;
  attempt: number;
  authorizationUrl: string;
  authorizationUrlWarnings: string[];
}

/** What a listener's owner hears: each callback request, and the end of its lifetime. */
export interface RedirectHandlers {
  /** Called for every valid-looking callback request; resolves with whether the flow accepted it. */
  onCallback: (hit: CallbackHit) => Promise<{ ok: boolean }>;
  /** Called once when the listener times out (5 minutes by default). */
  onTimeout: () => void;
}

/** A redirect listener whose flow can outlive this core: the shell keeps `arm`'s material until the flow ends. */
export interface HeldRedirectListener extends RedirectListener {
  /** Hands the shell what finishing the flow needs (before the browser is sent to the authorization URL). */
  arm(exchange: PendingExchange): Promise<void>;
}

/** A sign-in a previous core started and the shell still holds: this core may take it over. */
export interface AdoptableSignIn {
  readonly exchange: PendingExchange;
  /** Takes the flow over: its redirect (perhaps already received) and its timeout now reach `handlers`. */
  resume(handlers: RedirectHandlers): RedirectListener;
}

/** The sign-ins held for this core (empty in a process that owns its listeners itself). */
export type AdoptSignIns = () => Promise<AdoptableSignIn[]>;

/**
 * The core's requests to whoever holds the redirect listeners (the shell, or this process for the command line).
 * `next` waits until the flow's redirect arrives (its state already checked), it times out, or it is closed.
 */
export type SignInRequest =
  | { op: 'signIn.open'; serverId: string; state: string; timeoutMs: number }
  | { op: 'signIn.arm'; flowId: string; exchange: PendingExchange }
  | { op: 'signIn.next'; flowId: string }
  | { op: 'signIn.answer'; flowId: string; ok: boolean }
  | { op: 'signIn.close'; flowId: string }
  | { op: 'signIn.adopt' };

/** What `signIn.next` resolves with. */
export type SignInNext = { kind: 'redirect'; url: string } | { kind: 'timeout' } | { kind: 'closed' };
