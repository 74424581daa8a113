// Electron main process: wiring only. Every rule lives in a module that takes Electron's objects through narrow
// interfaces and is tested without Electron: single instance (app/single-instance), hardening and permissions
// (app/window-hardening), failed start (app/start-failure), quit (app/quit), IPC (ipc/), events (ipc/event-forwarder).
import { app, BrowserWindow, dialog, ipcMain, powerMonitor, safeStorage, shell } from 'electron';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_KEYS } from '../shared/contract-schemas.js';
import { APPS_SANDBOX_SCHEME, appsRendererCsp, installAppsSandbox } from './app/apps-sandbox.js';
import { appGatewayLauncher, gatewayStdioArgs, gatewayStdioRefusal } from './app/gateway-launcher.js';
import { firstShow } from './app/first-show.js';
import { reportWindowPresence } from './app/window-presence.js';
import { installQuitHandler } from './app/quit.js';
import { sessionEnd } from './app/session-end.js';
import { claimSingleInstance, type SingleInstance } from './app/single-instance.js';
import { reportStartFailure } from './app/start-failure.js';
import { handleRendererProtocol, registerRendererScheme, RENDERER_ORIGIN } from './app/renderer-protocol.js';
import { appUrlChecker, createFrameGuard, hardenWebContents, permissionAllowed } from './app/window-hardening.js';
import { mainWindowOptions } from './app/window-options.js';
import { bootstrap } from './bootstrap.js';
import { SHUTDOWN_TIMEOUT_MS } from './core/host.js';
import { createLogger, type Logger } from './core/logging/logger.js';
import { acquireDataLock, type DataLock } from './core/storage/data-lock.js';
import { demoServerConfig } from './demo/demo-config.js';
import { EventForwarder } from './ipc/event-forwarder.js';
import { registerIpc } from './ipc/register-ipc.js';
import { createBrowserOpener } from './platform/browser-opener.js';
import { SafeStorageCredentialStore } from './platform/safe-storage-credential-store.js';
import { createSettingsStore } from './platform/settings-store.js';
import { collectInstallLinks } from './install-links.js';
import { runAndExit } from './gateway-cli/run.js';

declare const __APP_VERSION__: string;
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererRoot = join(here, '..', 'renderer');
const isAppUrl = appUrlChecker(RENDERER_ORIGIN);

let win: BrowserWindow | undefined;
let logger: Logger | undefined;
let lock: DataLock | undefined;
let instance: SingleInstance | undefined;
/** Opens the main window again (set once the app has started). */
let reopen: (() => void) | undefined;

// Started by another app as the gateway's stdio entry point (see app/gateway-launcher): serve stdio and nothing else.
const gatewayArgs = gatewayStdioArgs(process.argv);
const refusal = gatewayStdioRefusal(process.platform);
if (gatewayArgs && refusal) {
  // Serving a standard input that is always at its end would look to the other app like a server that quit.
  process.stderr.write(`switchboard: ${refusal}\n`);
  app.exit(2);
} else if (gatewayArgs) {
  app.dock?.hide();
  runAndExit(gatewayArgs);
} else {
  launchApp();
}

function launchApp(): void {
  // SWITCHBOARD_DATA_DIR picks another data folder (portable use, tests); it must be set before the single-instance
  // lock, which Electron keys on it.
  const dataDirOverride = process.env['SWITCHBOARD_DATA_DIR'];
  if (dataDirOverride) app.setPath('userData', resolve(dataDirOverride));

  // Before the app is ready and before any window can exist: the renderer's scheme, hardening of every web contents,
  // and the single-instance claim (a second launch focuses ours).
  registerRendererScheme([APPS_SANDBOX_SCHEME]);
  hardenWebContents(app, isAppUrl, (message) => logger?.warn('window', message));
  instance = claimSingleInstance(
    app,
    () => win,
    () => reopen?.(),
  );
  if (!instance.acquired) {
    app.quit();
  } else {
    start(collectInstallLinks(app)).catch((err: unknown) =>
      reportStartFailure(
        {
          showErrorBox: (title, content) => dialog.showErrorBox(title, content),
          exit: (code) => app.exit(code),
          log: (message) => logger?.error('app', message),
          release: () => lock?.release(),
          flushLog: () => logger?.flush() ?? Promise.resolve(),
        },
        err,
        logger?.file ?? null,
      ),
    );
  }
}

async function start(installLinks: ReturnType<typeof collectInstallLinks>): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  // The log first, so that even a refused start (another Switchboard holds the folder) is recorded and its path
  // can be shown in the failure dialog.
  logger = createLogger({ dataDir });
  const log = logger;
  lock = acquireDataLock(dataDir, { mode: 'electron' });
  process.on('uncaughtException', (err) => log.error('app', `uncaught exception: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (reason) =>
    log.error('app', `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
  );

  // The renderer comes from app://switchboard through the same asset loader (and policy) as headless mode.
  handleRendererProtocol(rendererRoot, appsRendererCsp);

  // One safe opener (parsed URL, https or loopback http, no userinfo or control characters, never a shell)
  // for sign-in pages and for URL elicitations the user consented to.
  const opener = createBrowserOpener((url) => shell.openExternal(url));
  const booting = bootstrap({
    mode: 'electron',
    version: __APP_VERSION__,
    settingsStore: createSettingsStore(dataDir),
    credentials: process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
    fallbackCredentials: () => SafeStorageCredentialStore.open(dataDir, safeStorage),
    authOpener: opener,
    urlOpener: { open: (url) => opener.open(new URL(url)) },
    demoServer: () => demoServerConfig(),
    logger: log,
    dataLock: lock,
    gatewayLauncher: () =>
      appGatewayLauncher({
        isPackaged: app.isPackaged,
        execPath: process.execPath,
        appPath: app.getAppPath(),
        env: process.env,
        platform: process.platform,
      }),
  });
  // A quit from the first moment waits for the core: while it is still starting, for its start and then its shutdown.
  installQuitHandler(
    app,
    () => {
      // The shell's wait started with the quit: the core's shutdown gets what is left of its own deadline.
      const askedAt = Date.now();
      return booting.then(({ host: started }) =>
        started.shutdown({ timeoutMs: Math.max(0, SHUTDOWN_TIMEOUT_MS - (Date.now() - askedAt)) }),
      );
    },
    {
      log: (level, message) => log.log(level, 'app', message),
    },
  );
  const { host, dispatch } = await booting;
  // MCP Apps: the sandbox scheme, app windows in their own partition, permissions only for what an app was delegated.
  const apps = installAppsSandbox({
    host,
    rendererRoot,
    preload: join(here, 'preload.cjs'),
    rendererAllows: (permission, url) => permissionAllowed(permission, url, isAppUrl),
  });
  // The gateway's endpoint file must not outlive the process, whatever ends it.
  process.on('exit', () => host.gateway.exitSync());

  // Events wait until the page has attached its listeners (app.listening); a reload holds them again.
  const events = new EventForwarder(
    () => (win && !win.isDestroyed() ? win.webContents : undefined),
    (message) => log.warn('window', message),
  );
  host.events.subscribe((event, payload) => {
    if (EVENT_KEYS.includes(event)) events.push(event, payload);
  });
  const mainFrame = createFrameGuard(() => win, isAppUrl);
  registerIpc(
    ipcMain,
    dispatch,
    (frame) => mainFrame(frame) || apps.isAppWindowFrame(frame), // an MCP App's own window shows the renderer too
    // Only the main window's page receives the core's events, so only it releases them (an app window's page
    // saying it listens must not mark the main window ready while that one reloads).
    { onListening: (frame) => mainFrame(frame) && events.markListening() },
  );

  // Shutting down, restarting or logging off quits through the held quit too (Windows sends no before-quit then).
  const ending = sessionEnd({ platform: process.platform, quit: () => app.quit(), log: (message) => log.info('app', message) });
  ending.monitor(powerMonitor);
  const open = async (): Promise<void> => {
    const created = createWindow(events);
    reportWindowPresence(created, host.presence);
    ending.window(created);
    win = created;
    const shown = firstShow(created, {
      onShown: () => instance?.windowReady(created),
      log: (message) => log.warn('window', message),
    });
    await Promise.all([created.loadURL(`${RENDERER_ORIGIN}/index.html`), shown]);
  };
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  reopen = () => {
    if (!win || win.isDestroyed()) open().catch((err: unknown) => log.error('window', `the window could not open again: ${String(err)}`));
  };
  app.on('activate', reopen);
  await open();
  installLinks.deliver(
    (link) => host.registry.receiveLink(link),
    () => win && !win.isDestroyed() && (win.isMinimized() ? win.restore() : win.focus()),
  );
  void host.start();
}

function createWindow(events: EventForwarder): BrowserWindow {
  const created = new BrowserWindow(mainWindowOptions(join(here, 'preload.cjs')));
  created.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) events.reset();
  });
  created.webContents.on('render-process-gone', () => events.reset());
  return created;
}
