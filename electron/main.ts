// Electron main process: one secure window, the IPC bridge, single-instance lock.
import { app, BrowserWindow, ipcMain, safeStorage, session, shell, type WebFrameMain } from 'electron';
import ElectronStore from 'electron-store';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_KEYS } from '../shared/contract-schemas.js';
import type { EventKey, EventMap } from '../shared/contract.js';
import { bootstrap } from './bootstrap.js';
import { demoServerConfig } from './demo/demo-config.js';
import { handleRendererProtocol, isRendererUrl, registerRendererScheme, RENDERER_ORIGIN } from './app/renderer-protocol.js';
import { pushEvent, registerIpc } from './ipc/register-ipc.js';
import { createBrowserOpener } from './platform/browser-opener.js';
import { SafeStorageCredentialStore } from './platform/safe-storage-credential-store.js';
import { createSettingsStore, type ConfLike } from './platform/settings-store.js';

declare const __APP_VERSION__: string;
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererRoot = join(here, '..', 'renderer');

registerRendererScheme();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  // One safe opener (parsed URL, https or loopback http, no userinfo or control characters, never a shell)
  // for sign-in pages and for URL elicitations the user consented to.
  const opener = createBrowserOpener((url) => shell.openExternal(url));
  const { host, dispatch } = await bootstrap({
    mode: 'electron',
    version: __APP_VERSION__,
    settingsStore: createSettingsStore(dataDir, (opts) => new ElectronStore<Record<string, unknown>>(opts) as unknown as ConfLike),
    credentials: 'auto',
    fallbackCredentials: () => SafeStorageCredentialStore.open(dataDir, safeStorage),
    authOpener: opener,
    urlOpener: { open: (url) => opener.open(new URL(url)) },
    demoServer: () => demoServerConfig(process.execPath, join(here, '..', 'demo', 'demo-server.mjs'), { ELECTRON_RUN_AS_NODE: '1' }),
  });

  session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  handleRendererProtocol(rendererRoot);

  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'Switchboard',
    show: false,
    webPreferences: {
      preload: join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.once('ready-to-show', () => win.show());

  const trusted = (frame: unknown): boolean => {
    const f = frame as WebFrameMain | null;
    return f !== null && f === win.webContents.mainFrame && isRendererUrl(f.url);
  };
  registerIpc(ipcMain, dispatch, trusted);

  // Queue pushes until the renderer has loaded, then deliver in order.
  let ready = false;
  const queue: [EventKey, unknown][] = [];
  win.webContents.on('did-finish-load', () => {
    ready = true;
    for (const [event, payload] of queue.splice(0)) pushEvent((e, p) => win.webContents.send(e, p), event, payload);
  });
  host.events.subscribe(<E extends EventKey>(event: E, payload: EventMap[E]) => {
    if (!EVENT_KEYS.includes(event) || win.isDestroyed()) return;
    if (ready) pushEvent((e, p) => win.webContents.send(e, p), event, payload);
    else queue.push([event, payload]);
  });

  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', () => void host.shutdown());
  await win.loadURL(`${RENDERER_ORIGIN}/index.html`);
  void host.start();
}
