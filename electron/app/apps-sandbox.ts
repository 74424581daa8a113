// MCP Apps in the desktop app. The sandbox proxy is served on a privileged scheme of its own (app-sandbox://apps, a
// distinct origin from the renderer's app://switchboard) with the launch's policy from the core; the only browser
// permissions ever granted to an app frame are those the person granted its launch's server (app-permissions.ts);
// "open in its own window" opens a window in a separate session partition with the same sandbox and its own
// permission handler. The renderer's policy frames exactly the sandbox origin.
import { BrowserWindow, session, type CustomScheme, type Session, type WebFrameMain } from 'electron';
import { appFrameAllowed } from './app-permissions.js';
import { installPermissionPolicy } from './window-hardening.js';
import { answerSandbox, SANDBOX_PAGE_PATH, SANDBOX_WARM_PATH, sandboxText } from '../core/apps/sandbox-page.js';
import type { SandboxPageInput } from '../core/apps/sandbox-page.js';
import type { SandboxPlace } from '../core-process/messages.js';
import { loadStaticAsset } from '../headless/static-files.js';
import { rendererCsp } from '../renderer-csp.js';
import { isRendererUrl, RENDERER_ORIGIN } from './renderer-protocol.js';

/** The sandbox's scheme: standard (a real origin) and secure (a secure context, as the app's APIs expect). */
export const APPS_SANDBOX_SCHEME: CustomScheme = { scheme: 'app-sandbox', privileges: { standard: true, secure: true } };
/** The sandbox origin. */
export const APPS_SANDBOX_ORIGIN = 'app-sandbox://apps';
/** The session partition of app windows (in memory: nothing of an app window outlives the run). */
export const APPS_PARTITION = 'mcp-apps';

/** The renderer's policy in the desktop app: it may frame the sandbox origin and nothing else. */
export const appsRendererCsp = (nonce: string): string => rendererCsp(nonce, { frameSrc: [APPS_SANDBOX_ORIGIN] });

/** What the sandbox needs from main. */
export interface AppsSandboxOptions {
  /** An open launch's policy (the supervisor's mirror of the core's launches: the browser asks synchronously). */
  sandboxInput(launchId: string): SandboxPageInput | undefined;
  /** The built renderer (served in app windows too). */
  rendererRoot: string;
  /** The preload script of renderer windows. */
  preload: string;
  /** The renderer page's own permission policy (kept for the renderer's documents in both sessions). */
  rendererAllows(permission: string, requestingUrl: string | undefined): boolean;
}

/** What main uses afterwards. */
export interface AppsSandbox {
  /** True for the top frame of an app window showing the renderer (its IPC is trusted like the main window's). */
  isAppWindowFrame(frame: unknown): boolean;
  /** Where the core points app frames. */
  readonly place: SandboxPlace;
  /** Opens an app's own window showing the renderer's app route for a call. */
  openAppWindow(callId: string): Promise<void>;
}

/** Serves the sandbox's pages on a session. */
function handleSandboxProtocol(ses: Session, sandboxInput: AppsSandboxOptions['sandboxInput']): void {
  ses.protocol.handle(APPS_SANDBOX_SCHEME.scheme, (request) => {
    const url = new URL(request.url);
    const answer =
      url.host !== 'apps' || request.method !== 'GET'
        ? sandboxText(404, 'Not found')
        : answerSandbox(url, sandboxInput, {
            hostOrigins: [RENDERER_ORIGIN],
            frameAncestors: [RENDERER_ORIGIN],
            sandboxOrigin: APPS_SANDBOX_ORIGIN,
          });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  });
}

/** Installs the sandbox (call once the app is ready, after the renderer protocol). */
export function installAppsSandbox(opts: AppsSandboxOptions): AppsSandbox {
  const { sandboxInput } = opts;
  const windows = new Set<BrowserWindow>();
  const appsSession = session.fromPartition(APPS_PARTITION);
  for (const ses of [session.defaultSession, appsSession]) {
    handleSandboxProtocol(ses, sandboxInput);
    // App frames get what the person granted their launch's server; the renderer's own pages keep their policy.
    installPermissionPolicy(
      ses,
      (permission, details) =>
        appFrameAllowed(permission, details, APPS_SANDBOX_ORIGIN, (id) => sandboxInput(id)?.permissions) ||
        opts.rendererAllows(permission, details.requestingUrl),
    );
  }
  // App windows show the same renderer from their own session.
  appsSession.protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'switchboard' || request.method !== 'GET') return new Response('Not found', { status: 404 });
    const asset = await loadStaticAsset(opts.rendererRoot, url.pathname, appsRendererCsp);
    return new Response(asset.body, { status: asset.status, headers: asset.headers });
  });

  const openAppWindow = async (callId: string): Promise<void> => {
    const win = new BrowserWindow({
      width: 1000,
      height: 760,
      title: 'App · Switchboard',
      webPreferences: {
        partition: APPS_PARTITION,
        preload: opts.preload,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webviewTag: false,
      },
    });
    windows.add(win);
    win.on('closed', () => windows.delete(win));
    win.webContents.on('will-navigate', (event) => event.preventDefault());
    win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
    await win.loadURL(`${RENDERER_ORIGIN}/index.html#/app/${encodeURIComponent(callId)}`);
  };

  return {
    // The core appends the launch id, URL-encoded (a custom scheme listens on no port, so none is reserved).
    place: {
      pagePrefix: `${APPS_SANDBOX_ORIGIN}${SANDBOX_PAGE_PATH}?launch=`,
      warmUrl: `${APPS_SANDBOX_ORIGIN}${SANDBOX_WARM_PATH}`,
      reservedPorts: [],
    },
    openAppWindow,
    isAppWindowFrame: (frame) => {
      const f = frame as WebFrameMain | null;
      if (f === null) return false;
      for (const win of windows) if (!win.isDestroyed() && f === win.webContents.mainFrame && isRendererUrl(f.url)) return true;
      return false;
    },
  };
}
