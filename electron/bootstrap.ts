// Builds the Host the same way for the Electron app and headless mode.
import { join } from 'node:path';
import type { ServerConfigInput } from '../shared/config.js';
import { attachAuth, AuthManager } from './core/auth/auth-manager.js';
import type { BrowserOpener } from './core/auth/auth-ports.js';
import { createDispatcher, type Dispatch } from './core/dispatcher.js';
import { createHandlers } from './core/handlers.js';
import { Host } from './core/host.js';
import type { UrlOpener } from './core/elicitation/url-opener.js';
import type { GatewayLauncher } from './core/gateway/setup-help.js';
import type { CredentialStore, SettingsStore } from './core/ports.js';
import { DiscoveryCache } from './core/sessions/discovery-cache.js';
import { SessionManager } from './core/sessions/session-manager.js';
import { createTransportTracker } from './core/lifecycle/transport-tracker.js';
import { attachHostLog, redactingCredentials } from './core/logging/host-log.js';
import { createLogger, type Logger } from './core/logging/logger.js';
import { createTransport } from './core/transports/create-transport.js';
import type { TransportFactory } from './core/transports/transport-factory.js';
import { transportPipeline } from './core/transports/pipeline.js';
import { resolveLoginPath } from './core/transports/login-path.js';
import { builtinFor, withBuiltinServers } from './demo/builtin-transport.js';
import { DEMO_COMMAND } from './demo/demo-config.js';
import { createDemoServer } from './demo/demo-server.js';
import { createPrintingOpener } from './platform/browser-opener.js';
import { chooseCredentialStore, type FallbackOpen } from './platform/credential-choice.js';
import { listenForRedirect } from './platform/redirect-listener.js';
import { attachDoctor } from './core/doctor/doctor-walk.js';
import type { LocalPackages } from './core/registry/install-options.js';
import { attachRegistry, RegistryService } from './core/registry/registry-service.js';

/** The discovery cache's file name in the data folder. */
export const DISCOVERY_CACHE_FILE = 'discovery-cache.json';

/** Options shared by both shells. */
export interface BootstrapOptions {
  mode: 'electron' | 'headless';
  version: string;
  settingsStore: SettingsStore;
  /** 'memory' skips the keychain (tests); 'auto' tries the keychain first. */
  credentials: 'auto' | 'memory' | CredentialStore;
  /** Fallback store when the keychain is unavailable (Electron passes safeStorage). */
  fallbackCredentials?: () => Promise<FallbackOpen>;
  /** The built-in demo server's definition. */
  demoServer?: () => ServerConfigInput;
  /** Opens URLs the user consented to in URL-mode elicitations (the app's safe opener); headless prints them. */
  urlOpener?: UrlOpener;
  /** Opens sign-in URLs: the system browser in the app; headless prints them (and the UI shows them). */
  authOpener?: BrowserOpener;
  /** Opens transports (tests may inject one); defaults to the real factory. */
  transportFactory?: TransportFactory;
  /** Test-only: npm identifiers of registry entries mapped to local programs (never set in normal use). */
  localPackages?: LocalPackages;
  /** How other apps start the gateway's stdio entry point. */
  gatewayLauncher?: () => GatewayLauncher | undefined;
  /** The shell's logger (its file is shown in Settings/About); default: no file. */
  logger?: Logger;
  /** The data folder's lock: the shutdown releases it, just before the log closes (so the log can say if it failed). */
  dataLock?: { release(): void };
}

/** A ready host with its dispatcher. */
export interface Bootstrapped {
  host: Host;
  dispatch: Dispatch;
  /** The logger the host writes to (flushed and closed as the last shutdown step). */
  logger: Logger;
}

/** Creates the host, loads settings and starts eager servers in the background. */
export async function bootstrap(opts: BootstrapOptions): Promise<Bootstrapped> {
  const logger = opts.logger ?? createLogger();
  const chosen = await chooseCredentialStore({
    dir: opts.settingsStore.dir,
    choice: opts.credentials,
    ...(opts.fallbackCredentials ? { fallback: opts.fallbackCredentials } : {}),
  });
  const store = redactingCredentials(chosen.store, logger);
  const notices = chosen.notices;
  const authRef: { manager?: AuthManager } = {};
  // Built-in servers (the demo) open in-process; every transport is tracked so shutdown can account for it.
  const builtins = { [DEMO_COMMAND]: createDemoServer };
  const baseTransport = opts.transportFactory ?? createTransport;
  const inProcess = (inner: TransportFactory): TransportFactory => withBuiltinServers(inner, builtins);
  const tracker = createTransportTracker();
  const host = new Host({
    mode: opts.mode,
    version: opts.version,
    settingsStore: opts.settingsStore,
    credentials: store,
    notices,
    logFile: logger.file,
    log: (level, scope, text) => logger.log(level, scope, text),
    createSessions: (host) =>
      new SessionManager(host, {
        credentials: store,
        createTransport: baseTransport,
        transports: { inProcess, tracker, auth: () => authRef.manager },
        loginPath: () => resolveLoginPath().then((r) => r.path),
        discoveryCache: new DiscoveryCache({ file: join(opts.settingsStore.dir, DISCOVERY_CACHE_FILE), onNotice: (n) => host.notify(n) }),
        clientInfo: { name: 'switchboard', version: opts.version },
      }),
    ...(opts.demoServer ? { demoServer: opts.demoServer } : {}),
    ...(opts.gatewayLauncher ? { gatewayLauncher: opts.gatewayLauncher } : {}),
  });
  // No server is started once we are closing, and none outlives the sessions' release.
  host.onShutdown({ name: 'refuse new connections', stage: 'stop', run: () => tracker.refuseNew('Switchboard is closing') });
  host.onShutdown({
    name: 'end leftover server processes',
    stage: 'release',
    run: async () => {
      const killed = await tracker.killRemaining();
      if (killed.length > 0) logger.warn('shutdown', `ended ${killed.length} server process group(s) still running at shutdown`);
    },
  });
  attachHostLog(host, logger);
  logger.info('app', `Switchboard ${opts.version} (${opts.mode}) started with data folder ${opts.settingsStore.dir}`);
  if (opts.urlOpener) host.interaction.setUrlOpener(opts.urlOpener);
  const auth = new AuthManager({
    host,
    opener: opts.authOpener ?? createPrintingOpener(),
    listen: listenForRedirect,
    log: (id, level, text) => logger.log(level === 'info' ? 'info' : level === 'error' ? 'error' : 'warn', `auth ${id}`, text),
  });
  authRef.manager = auth;
  attachAuth(host, auth);
  const loginPath = (): Promise<string> => resolveLoginPath().then((r) => r.path);
  attachRegistry(
    host,
    new RegistryService(host, {
      dir: opts.settingsStore.dir,
      loginPath,
      ...(opts.localPackages !== undefined ? { localPackages: opts.localPackages } : {}),
      onNotice: (notice) => {
        logger.warn('registry', notice.message);
        host.notify(notice);
      },
    }),
  );
  attachDoctor(host, {
    loginPath,
    clientInfo: { name: 'switchboard', version: opts.version },
    authFor: (config) => auth.transportAuth(config),
    builtin: (command) => (builtinFor(builtins, command) ? transportPipeline(baseTransport, { inProcess, tracker }) : undefined),
  });
  const dispatch = createDispatcher(createHandlers(host), (method, err) => {
    logger.error('bridge', `${method} failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : 'unknown error'}`);
  });
  const dataLock = opts.dataLock;
  if (dataLock) host.onShutdown({ name: 'release the data folder', stage: 'final', run: () => dataLock.release() });
  // Last of all: the log itself, with the shutdown's own report in it.
  host.onShutdown({
    name: 'close the log',
    stage: 'final',
    run: async () => {
      logger.info('app', `shutdown finished its steps in ${host.shutdownElapsedMs() ?? 0} ms`);
      await logger.close();
    },
  });
  return { host, dispatch, logger };
}
