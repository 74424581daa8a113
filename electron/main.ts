// Electron main process, the desktop shell: wiring only. The MCP core runs in a utility process (shell/
// utility-core-process) under the supervisor (shell/core-supervisor); main relays the contract to it. Every rule lives
// in a module that takes Electron's objects through narrow interfaces and is tested without Electron: single instance
// (app/single-instance), hardening and permissions (app/window-hardening), failed start (app/start-failure), quit
// (app/quit), what the core borrows (app/shell-services), IPC (ipc/), events (ipc/event-forwarder).
import { app, BrowserWindow, dialog, ipcMain, powerMonitor, safeStorage, session, shell, utilityProcess } from 'electron';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_KEYS } from '../shared/contract-schemas.js';
import { APPS_PARTITION, APPS_SANDBOX_SCHEME, appsRendererCsp, installAppsSandbox, type AppsSandbox } from './app/apps-sandbox.js';
import { routeDownloadsToSaveDialog } from './app/download-dialog.js';
import { appGatewayLauncher, gatewayStdioArgs, gatewayStdioRefusal } from './app/gateway-launcher.js';
import { firstShow } from './app/first-show.js';
import { reportWindowPresence } from './app/window-presence.js';
import { installQuitHandler } from './app/quit.js';
import { sessionEnd } from './app/session-end.js';
import { claimSingleInstance, type SingleInstance } from './app/single-instance.js';
import { reportStartFailure } from './app/start-failure.js';
import { handleRendererProtocol, registerRendererScheme, RENDERER_ORIGIN } from './app/renderer-protocol.js';
import { appUrlChecker, createFrameGuard, hardenWebContents, permissionAllowed } from './app/window-hardening.js';
import { answerShellRequest } from './app/shell-services.js';
import { mainWindowOptions } from './app/window-options.js';
import { SHUTDOWN_TIMEOUT_MS } from './core/lifecycle/core-lifetime.js';
import { createLogger, SHELL_LOG_FILE, type Logger } from './core/logging/logger.js';
import { acquireDataLock, type DataLock } from './core/storage/data-lock.js';
import { EventForwarder } from './ipc/event-forwarder.js';
import { registerIpc } from './ipc/register-ipc.js';
import { createBrowserOpener } from './platform/browser-opener.js';
import { collectInstallLinks } from './install-links.js';
import { runAndExit } from './gateway-cli/run.js';
import { CoreSupervisor } from './shell/core-supervisor.js';
import { openControlDoor } from './shell/control-door.js';
import { cleanUpAfterCore } from './shell/dead-core-cleanup.js';
import { doorFollowsCore, GatewayDoor, withGatewayDoor } from './shell/gateway-door.js';
import { SignInRedirects, signInsFollowCore, withSignInRedirects } from './shell/sign-in-redirects.js';
import { withMemorySecrets } from './shell/memory-secrets.js';
import { CORE_SERVICE_NAME, startUtilityCore, type UtilityCore } from './shell/utility-core-process.js';

declare const __APP_VERSION__: string;
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererRoot = join(here, '..', 'renderer');
const isAppUrl = appUrlChecker(RENDERER_ORIGIN);
/** Of the shell's shutdown budget, what is kept for ending a core that did not stop and for closing the log. */
const QUIT_CLEANUP_MS = 500;

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
  // can be shown in the failure dialog. This is the shell's log; the core writes its own.
  logger = createLogger({ dataDir, fileName: SHELL_LOG_FILE });
  const log = logger;
  lock = acquireDataLock(dataDir, { mode: 'electron' });
  process.on('uncaughtException', (err) => log.error('app', `uncaught exception: ${err.stack ?? err.message}`));
  process.on('unhandledRejection', (reason) =>
    log.error('app', `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`),
  );

  // The renderer comes from app://switchboard through the same asset loader (and policy) as headless mode.
  handleRendererProtocol(rendererRoot, appsRendererCsp);

  // The core runs in a utility process of its own (core-process/entry.ts): a defect in it, or a hostile server that
  // finds one, ends that process and the supervisor starts another while the window stays. Main keeps the windows,
  // the locks, the browser, safeStorage and the sandbox scheme, and relays the contract without knowing its methods.
  // One safe opener (parsed URL, https or loopback http, no userinfo or control characters, never a shell), applied
  // here again after the core's own check, for sign-in pages and URL elicitations the person consented to.
  const opener = createBrowserOpener((url) => shell.openExternal(url));
  const gatewayLauncher = appGatewayLauncher({
    isPackaged: app.isPackaged,
    execPath: process.execPath,
    appPath: app.getAppPath(),
    env: process.env,
    platform: process.platform,
  });
  // MCP Apps: the sandbox scheme, app windows in their own partition, permissions only for what an app was delegated.
  // Its launches' policies come from the supervisor's mirror of the core's (read only once a core is running).
  const apps: AppsSandbox = installAppsSandbox({
    sandboxInput: (id) => core.sandboxInput(id),
    rendererRoot,
    preload: join(here, 'preload.cjs'),
    rendererAllows: (permission, url) => permissionAllowed(permission, url, isAppUrl),
  });
  // Files the person agreed to save go through the system save dialog, in the main window and in app windows.
  for (const ses of [session.defaultSession, session.fromPartition(APPS_PARTITION)]) {
    routeDownloadsToSaveDialog(ses, {
      isAppUrl,
      downloadsDir: app.getPath('downloads'),
      log: (message) => log.warn('window', message),
    });
  }
  // The gateway's port, held in main so a restarting core leaves clients a clean error rather than a refused
  // connection (a utility process cannot be handed a listening socket, so main pipes connections to the core's front).
  const door: GatewayDoor = new GatewayDoor({
    gapReason: (): string =>
      core.status.state === 'failed' ? "Switchboard's core stopped and was not restarted" : "Switchboard's core is restarting",
  });
  let current: UtilityCore | undefined;
  app.on('child-process-gone', (_event, details) => {
    if (details.type !== 'Utility' || details.name !== CORE_SERVICE_NAME) return;
    log.warn('supervisor', `Electron reports the core's process gone: ${details.reason} (code ${details.exitCode})`);
    current?.noteGone(details);
  });
  // The OAuth redirect listeners, held in main so a sign-in in progress outlives a core restart.
  const signIns = new SignInRedirects({ log: (level, message) => log.log(level, 'auth', message) });
  const core = new CoreSupervisor({
    launch: () => {
      current = startUtilityCore({
        forker: utilityProcess,
        entry: join(here, 'core.mjs'),
        onLine: (line) => log.info('core', line),
      });
      return current;
    },
    init: () => ({
      mode: 'electron',
      version: __APP_VERSION__,
      dataDir,
      credentials: process.env['SWITCHBOARD_CREDENTIALS'] === 'memory' ? 'memory' : 'auto',
      safeStorage: process.platform === 'linux' ? { backend: safeStorage.getSelectedStorageBackend() } : {},
      ...(gatewayLauncher ? { gatewayLauncher } : {}),
      sandbox: apps.place,
      echoLog: false,
      settingsThrough: 'electron-store',
    }),
    serve: withSignInRedirects(
      signIns,
      withGatewayDoor(
        door,
        withMemorySecrets(
          answerShellRequest({
            openExternal: (url) => opener.open(new URL(url)),
            openAppWindow: (callId) => apps.openAppWindow(callId),
            safeStorage,
          }),
        ),
      ),
    ),
    log: (level, message) => log.log(level, 'supervisor', message),
    logFile: log.file,
  });
  // The `switchboard` command on this folder uses this core through the control door (control.json) instead of
  // failing on the folder's lock.
  const control = openControlDoor({ dataDir, dispatch: core.dispatch, log: (level, message) => log.log(level, 'app', message) }).catch(
    (err: unknown) => log.warn('app', `the switchboard command cannot use this app: ${err instanceof Error ? err.message : String(err)}`),
  );
  // A quit from the first moment waits for the core: it is asked to stop within what is left of the shell's budget,
  // then ended; a core that was killed or did not answer leaves server groups and the gateway's endpoint file, which
  // the shell ends and removes itself.
  installQuitHandler(
    app,
    async () => {
      await (await control)?.close();
      const report = await core.shutdown(SHUTDOWN_TIMEOUT_MS - QUIT_CLEANUP_MS, QUIT_CLEANUP_MS / 2);
      if (report === undefined) await cleanUpAfterCore(dataDir, (message) => log.warn('supervisor', message));
      await Promise.allSettled([door.close(), signIns.close()]);
      // The folder is the shell's to release, and only once no core can write to it.
      lock?.release();
      await log.close();
    },
    { log: (level, message) => log.log(level, 'app', message) },
  );

  // Events wait until the page has attached its listeners (app.listening); a reload holds them again.
  const events = new EventForwarder(
    () => (win && !win.isDestroyed() ? win.webContents : undefined),
    (message) => log.warn('window', message),
  );
  core.subscribe((event, payload) => {
    if (EVENT_KEYS.includes(event)) events.push(event, payload);
  });
  core.subscribe(doorFollowsCore(door));
  core.subscribe(signInsFollowCore(signIns));
  const mainFrame = createFrameGuard(() => win, isAppUrl);
  registerIpc(
    ipcMain,
    core.dispatch,
    (frame) => mainFrame(frame) || apps.isAppWindowFrame(frame), // an MCP App's own window shows the renderer too
    // Only the main window's page receives the core's events, so only it releases them (an app window's page
    // saying it listens must not mark the main window ready while that one reloads).
    { onListening: (frame) => mainFrame(frame) && events.markListening() },
  );
  // The window opens while the core starts (calls are held until it is ready); a core that cannot start is shown in
  // the window with the reason and the log, never a blank app.
  void core.start().then((ok) => {
    if (!ok) log.error('app', `the core could not start (${core.status.reason ?? 'unknown reason'})`);
  });

  // Shutting down, restarting or logging off quits through the held quit too (Windows sends no before-quit then).
  const ending = sessionEnd({ platform: process.platform, quit: () => app.quit(), log: (message) => log.info('app', message) });
  ending.monitor(powerMonitor);
  const open = async (): Promise<void> => {
    const created = createWindow(events);
    reportWindowPresence(created, core.presence);
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
    (link) => core.receiveLink(link),
    () => win && !win.isDestroyed() && (win.isMinimized() ? win.restore() : win.focus()),
  );
}

function createWindow(events: EventForwarder): BrowserWindow {
  const created = new BrowserWindow(mainWindowOptions(join(here, 'preload.cjs')));
  created.webContents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) events.reset();
  });
  created.webContents.on('render-process-gone', () => events.reset());
  return created;
}
