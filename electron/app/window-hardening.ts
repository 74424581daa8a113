// Hardening of every web contents the app creates, registered before any window exists: no navigation away from
// the app's own page, no redirects, no new windows, no <webview>; a permission policy that allows exactly what the
// app needs (writing to the clipboard for the Copy buttons) and only for the app's page; WebRTC kept off UDP (an MCP
// app's peer connection is not governed by its CSP); and the frame check the IPC layer uses (only the app window's top frame showing the app's page may call the core).
import type { PermissionDetails } from './app-permissions.js';

/** The app's own pages: anything served from the renderer's origin (`app://switchboard`), whatever its route. */
export function appUrlChecker(origin: string): (url: string) => boolean {
  const base = new URL(origin);
  return (url) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    return u.protocol === base.protocol && u.host === base.host && u.username === '' && u.password === '';
  };
}

/** An event that can be cancelled. */
export interface Preventable {
  preventDefault(): void;
}

/** The part of a WebContents the hardening uses. */
export interface ContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Preventable, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  setWebRTCIPHandlingPolicy(policy: WebRtcIpPolicy): void;
}

/** Electron's WebRTC IP handling policies (the one used is WEBRTC_IP_POLICY). */
export type WebRtcIpPolicy =
  'default' | 'default_public_interface_only' | 'default_public_and_private_interfaces' | 'disable_non_proxied_udp';

/**
 * The WebRTC policy of every web contents: no UDP except through a proxy (there is none), so an MCP app's peer
 * connection cannot send datagrams to a STUN or TURN server of its choosing; the app's document also has no
 * RTCPeerConnection (the sandbox's own guard). Switchboard itself uses no WebRTC.
 */
export const WEBRTC_IP_POLICY: WebRtcIpPolicy = 'disable_non_proxied_udp';

/** The part of Electron's app the hardening uses. */
export interface HardeningApp {
  on(event: 'web-contents-created', listener: (event: unknown, contents: ContentsLike) => void): unknown;
}

/** Hardens every web contents as it is created. Call before any window exists. */
export function hardenWebContents(
  app: HardeningApp,
  isAppUrl: (url: string) => boolean,
  log: (message: string) => void = () => undefined,
): void {
  app.on('web-contents-created', (_event, contents) => {
    const stay = (event: Preventable, url: string): void => {
      if (isAppUrl(url)) return;
      event.preventDefault();
      log(`blocked navigation to ${url.slice(0, 200)}`);
    };
    contents.on('will-navigate', stay);
    contents.on('will-redirect', stay);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.setWebRTCIPHandlingPolicy(WEBRTC_IP_POLICY);
  });
}

/** Permissions the app's page may have: writing to the clipboard (Copy buttons). Everything else is denied. */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

/** Whether a permission request or check is granted. */
export function permissionAllowed(permission: string, requestingUrl: string | undefined, isAppUrl: (url: string) => boolean): boolean {
  return ALLOWED_PERMISSIONS.includes(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl);
}

/** The part of a Session the permission policy uses. */
export interface PermissionSession {
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details: PermissionDetails) => void,
  ): void;
  setPermissionCheckHandler(
    handler: (contents: unknown, permission: string, requestingOrigin: string, details: PermissionDetails) => boolean,
  ): void;
}

/** Installs one permission policy on a session, for requests and checks alike (a session keeps one of each). */
export function installPermissionPolicy(
  session: PermissionSession,
  allowed: (permission: string, details: PermissionDetails) => boolean,
): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowed(permission, details)));
  session.setPermissionCheckHandler((_contents, permission, _origin, details) => allowed(permission, details));
}

/** The part of a WebFrameMain the frame check reads. */
export interface FrameLike {
  url: string;
}

/** The part of a BrowserWindow the frame check reads. */
export interface FramedWindow {
  isDestroyed(): boolean;
  webContents: { mainFrame: unknown };
}

/** The IPC layer's check: the sender is the app window's top frame, showing the app's page. */
export function createFrameGuard(window: () => FramedWindow | undefined, isAppUrl: (url: string) => boolean): (frame: unknown) => boolean {
  return (frame) => {
    const win = window();
    if (!win || win.isDestroyed() || frame === null || frame === undefined) return false;
    if (frame !== win.webContents.mainFrame) return false;
    const url = (frame as Partial<FrameLike>).url;
    return typeof url === 'string' && isAppUrl(url);
  };
}
