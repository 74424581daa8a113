// Builds the core the same way for the Electron app and headless mode: the shell's ports in, the composition root
// (core/compose.ts) does the rest.
import type { ServerConfigInput } from '../shared/config.js';
import type { AdoptSignIns, BrowserOpener, ListenForRedirect } from './core/auth/auth-ports.js';
import { createCore } from './core/compose.js';
import { createDispatcher, type Dispatch } from './core/dispatcher.js';
import { createHandlers } from './core/handlers.js';
import type { Host } from './core/host.js';
import type { UrlOpener } from './core/elicitation/url-opener.js';
import type { GatewayLauncher } from './core/gateway/setup-help.js';
import type { FrontDoor } from './core/gateway/http-front.js';
import type { CredentialStore, SettingsStore } from './core/ports.js';
import { redactingCredentials } from './core/logging/host-log.js';
import { createLogger, type Logger } from './core/logging/logger.js';
import { createTransport } from './core/transports/create-transport.js';
import type { TransportFactory } from './core/transports/transport-factory.js';
import { resolveLoginPath } from './core/transports/login-path.js';
import { builtinFor, withBuiltinServers } from './demo/builtin-transport.js';
import { DEMO_COMMAND } from './demo/demo-config.js';
import { createDemoServer } from './demo/demo-server.js';
import { createPrintingOpener } from './platform/browser-opener.js';
import { chooseCredentialStore, type FallbackOpen } from './platform/credential-choice.js';
import { listenForRedirect } from './platform/redirect-listener.js';
import type { LocalPackages } from './core/registry/install-options.js';

export { DISCOVERY_CACHE_FILE } from './core/compose.js';

/** Options shared by both shells. */
export interface BootstrapOptions {
  mode: 'electron' | 'headless';
  version: string;
  settingsStore: SettingsStore;
  /** 'memory' skips the keychain (tests); 'auto' tries the keychain first. */
  credentials: 'auto' | 'memory' | CredentialStore;
  /** Fallback store when the keychain is unavailable (Electron passes safeStorage). */
  fallbackCredentials?: () => Promise<FallbackOpen>;
  /** Where secrets go when only memory can hold them (the core process: its shell's memory, surviving a core restart). */
  memoryCredentials?: () => CredentialStore;
  /** The built-in demo server's definition. */
  demoServer?: () => ServerConfigInput;
  /** Opens URLs the user consented to in URL-mode elicitations (the app's safe opener); headless prints them. */
  urlOpener?: UrlOpener;
  /** Opens sign-in URLs: the system browser in the app; headless prints them (and the UI shows them). */
  authOpener?: BrowserOpener;
  /**
   * The OAuth redirect listeners: held by the shell (a core process), so a sign-in outlives the core; default: this
   * process's own, which end with it.
   */
  signIns?: { listen: ListenForRedirect; adopt?: AdoptSignIns };
  /** Opens transports (tests may inject one); defaults to the real factory. */
  transportFactory?: TransportFactory;
  /** Test-only: npm identifiers of registry entries mapped to local programs (never set in normal use). */
  localPackages?: LocalPackages;
  /** How other apps start the gateway's stdio entry point. */
  gatewayLauncher?: () => GatewayLauncher | undefined;
  /** The shell's listener on the gateway's port, which outlives the core process. */
  gatewayDoor?: FrontDoor;
  /** The shell's logger (its file is shown in Settings/About); default: no file. */
  logger?: Logger;
  /** The data folder's lock: the shutdown releases it, just before the log closes (so the log can say if it failed). */
  dataLock?: { release(): void };
  /** An OTLP/HTTP endpoint for traces, overriding the settings' one (the command line's --otlp). */
  otlpEndpoint?: string;
}

/** A ready host with its dispatcher. */
export interface Bootstrapped {
  host: Host;
  dispatch: Dispatch;
  /** The logger the host writes to (flushed and closed as the last shutdown step). */
  logger: Logger;
}

/** Creates the core, loads settings; the shell starts eager servers with `host.start()`. */
export async function bootstrap(opts: BootstrapOptions): Promise<Bootstrapped> {
  const logger = opts.logger ?? createLogger();
  const chosen = await chooseCredentialStore({
    dir: opts.settingsStore.dir,
    choice: opts.credentials,
    ...(opts.fallbackCredentials ? { fallback: opts.fallbackCredentials } : {}),
    ...(opts.memoryCredentials ? { memory: opts.memoryCredentials } : {}),
  });
  // Built-in servers (the demo) open in-process.
  const builtins = { [DEMO_COMMAND]: createDemoServer };
  const host = createCore({
    mode: opts.mode,
    version: opts.version,
    settingsStore: opts.settingsStore,
    credentials: redactingCredentials(chosen.store, logger),
    notices: chosen.notices,
    logger,
    ...(opts.dataLock ? { dataLock: opts.dataLock } : {}),
    transports: opts.transportFactory ?? createTransport,
    inProcess: (inner) => withBuiltinServers(inner, builtins),
    isBuiltin: (command) => builtinFor(builtins, command) !== undefined,
    loginPath: () => resolveLoginPath().then((r) => r.path),
    ...(opts.urlOpener ? { urlOpener: opts.urlOpener } : {}),
    auth: { opener: opts.authOpener ?? createPrintingOpener(), ...(opts.signIns ?? { listen: listenForRedirect }) },
    ...(opts.localPackages !== undefined ? { registry: { localPackages: opts.localPackages } } : {}),
    ...(opts.demoServer ? { demoServer: opts.demoServer } : {}),
    ...(opts.gatewayLauncher ? { gatewayLauncher: opts.gatewayLauncher } : {}),
    ...(opts.gatewayDoor ? { gatewayDoor: opts.gatewayDoor } : {}),
    ...(opts.otlpEndpoint !== undefined ? { otlpEndpoint: opts.otlpEndpoint } : {}),
  });
  const dispatch = createDispatcher(createHandlers(host), (method, err) => {
    logger.error('bridge', `${method} failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : 'unknown error'}`);
  });
  return { host, dispatch, logger };
}
