// Ports the authorization core needs from the platform: the system browser and the loopback redirect listener.

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
}) => Promise<RedirectListener>;
