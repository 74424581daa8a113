// Builds the Host the same way for the Electron app and headless mode.
import { join } from 'node:path';
import type { ServerConfigInput } from '../shared/config.js';
import type { AppNotice } from '../shared/contract.js';
import { attachAuth, AuthManager } from './core/auth/auth-manager.js';
import type { BrowserOpener } from './core/auth/auth-ports.js';
import { withTransportAuth } from './core/auth/transport-auth.js';
import { createDispatcher, type Dispatch } from './core/dispatcher.js';
import { createHandlers } from './core/handlers.js';
import { Host } from './core/host.js';
import type { UrlOpener } from './core/elicitation/url-opener.js';
import type { CredentialStore, SettingsStore } from './core/ports.js';
import { SessionManager } from './core/sessions/session-manager.js';
import { createTransport } from './core/transports/create-transport.js';
import type { TransportFactory } from './core/transports/transport-factory.js';
import { resolveLoginPath } from './core/transports/login-path.js';
import { escapeForTerminal } from './core/text.js';
import { createPrintingOpener } from './platform/browser-opener.js';
import { KeytarCredentialStore } from './platform/keytar-credential-store.js';
import { MemoryCredentialStore } from './platform/memory-credential-store.js';
import { listenForRedirect } from './platform/redirect-listener.js';

/** Options shared by both shells. */
export interface BootstrapOptions {
  mode: 'electron' | 'headless';
  version: string;
  settingsStore: SettingsStore;
  /** 'memory' skips the keychain (tests); 'auto' tries the keychain first. */
  credentials: 'auto' | 'memory' | CredentialStore;
  /** Fallback store when the keychain is unavailable (Electron passes safeStorage). */
  fallbackCredentials?: () => CredentialStore | null;
  /** The built-in demo server's definition. */
  demoServer?: () => ServerConfigInput;
  /** Opens URLs the user consented to in URL-mode elicitations (the app's safe opener); headless prints them. */
  urlOpener?: UrlOpener;
  /** Opens sign-in URLs: the system browser in the app; headless prints them (and the UI shows them). */
  authOpener?: BrowserOpener;
  /** Opens transports (tests may inject one); defaults to the real factory. */
  transportFactory?: TransportFactory;
}

/** A ready host with its dispatcher. */
export interface Bootstrapped {
  host: Host;
  dispatch: Dispatch;
}

/** Picks the credential store: keychain, then the shell's fallback, then memory. */
export async function chooseCredentialStore(
  choice: BootstrapOptions['credentials'],
  fallback?: () => CredentialStore | null,
): Promise<{ store: CredentialStore; notices: AppNotice[] }> {
  if (typeof choice === 'object') return { store: choice, notices: [] };
  if (choice === 'auto') {
    const keychain = await KeytarCredentialStore.open();
    if (keychain) return { store: keychain, notices: [] };
    const alt = fallback?.();
    if (alt)
      return {
        store: alt,
        notices: [
          {
            id: 'credentials-fallback',
            level: 'info',
            message: 'The OS keychain is unavailable; secrets are encrypted with the platform key store instead.',
          },
        ],
      };
  }
  return { store: new MemoryCredentialStore(), notices: [] };
}

/** Creates the host, loads settings and starts eager servers in the background. */
export async function bootstrap(opts: BootstrapOptions): Promise<Bootstrapped> {
  const { store, notices } = await chooseCredentialStore(opts.credentials, opts.fallbackCredentials);
  const authRef: { manager?: AuthManager } = {};
  const host = new Host({
    mode: opts.mode,
    version: opts.version,
    settingsStore: opts.settingsStore,
    credentials: store,
    notices,
    createSessions: (host) =>
      new SessionManager(host, {
        credentials: store,
        createTransport: withTransportAuth(opts.transportFactory ?? createTransport, () => authRef.manager),
        loginPath: () => resolveLoginPath().then((r) => r.path),
        discoveryCacheFile: join(opts.settingsStore.dir, 'discovery-cache.json'),
        clientInfo: { name: 'switchboard', version: opts.version },
      }),
    ...(opts.demoServer ? { demoServer: opts.demoServer } : {}),
  });
  if (opts.urlOpener) host.interaction.setUrlOpener(opts.urlOpener);
  const auth = new AuthManager({
    host,
    opener: opts.authOpener ?? createPrintingOpener(),
    listen: listenForRedirect,
    log: (id, level, text) => {
      if (level !== 'info') console.error(`[switchboard] ${id}: ${escapeForTerminal(text)}`);
    },
  });
  authRef.manager = auth;
  attachAuth(host, auth);
  const dispatch = createDispatcher(createHandlers(host), (method, err) => {
    console.error(`[switchboard] ${method} failed: ${escapeForTerminal(err instanceof Error ? err.message : 'unknown error')}`);
  });
  return { host, dispatch };
}
