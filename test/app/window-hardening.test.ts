// Hardening without a window: the app page check, navigation/redirect/webview/new-window refusals on every web
// contents, the permission policy (clipboard write for the app page only) and the IPC frame check.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  appUrlChecker,
  createFrameGuard,
  hardenWebContents,
  installPermissionPolicy,
  permissionAllowed,
  type ContentsLike,
  type HardeningApp,
  type PermissionSession,
  WEBRTC_IP_POLICY,
} from '../../electron/app/window-hardening.js';

const index = 'app://switchboard/index.html';
const isAppUrl = appUrlChecker('app://switchboard');

class FakeContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(h: (d: { url: string }) => { action: 'deny' }): void {
    this.openHandler = h;
  }
  webrtc: string | undefined;
  setWebRTCIPHandlingPolicy(policy: string): void {
    this.webrtc = policy;
  }
  /** Emits like Electron and reports whether the default was prevented. */
  attempt(event: string, url?: string): boolean {
    let prevented = false;
    this.emit(event, { preventDefault: () => (prevented = true) }, url);
    return prevented;
  }
}

describe('the app page', () => {
  it('is anything served from the renderer origin, with any route, and nothing else', () => {
    expect(isAppUrl(index)).toBe(true);
    expect(isAppUrl(`${index}#/servers/demo`)).toBe(true);
    expect(isAppUrl('app://switchboard/')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('app://user@switchboard/index.html')).toBe(false);
    expect(isAppUrl('file:///opt/Switchboard/resources/app.asar/dist/renderer/index.html')).toBe(false);
    expect(isAppUrl('https://switchboard/index.html')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });
});

describe('web contents hardening', () => {
  it('applies to every contents created, refusing navigation away, redirects, webviews and new windows', () => {
    const app = new EventEmitter();
    const blocked: string[] = [];
    hardenWebContents(app as unknown as HardeningApp, isAppUrl, (m) => blocked.push(m));
    const contents = new FakeContents();
    app.emit('web-contents-created', {}, contents as unknown as ContentsLike);
    expect(contents.attempt('will-navigate', 'https://evil.example/')).toBe(true);
    expect(contents.attempt('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(contents.attempt('will-navigate', `${index}#/catalog`)).toBe(false);
    expect(contents.attempt('will-attach-webview')).toBe(true);
    expect(contents.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(blocked).toEqual(['blocked navigation to https://evil.example/', 'blocked navigation to file:///etc/passwd']);
  });

  it('keeps WebRTC off UDP in every contents (an app frame shares its window’s contents)', () => {
    const app = new EventEmitter();
    hardenWebContents(app as unknown as HardeningApp, isAppUrl);
    const [a, b] = [new FakeContents(), new FakeContents()];
    app.emit('web-contents-created', {}, a as unknown as ContentsLike);
    app.emit('web-contents-created', {}, b as unknown as ContentsLike);
    expect(WEBRTC_IP_POLICY).toBe('disable_non_proxied_udp');
    expect([a.webrtc, b.webrtc]).toEqual(['disable_non_proxied_udp', 'disable_non_proxied_udp']);
  });
});

describe('permissions', () => {
  it('allow exactly clipboard writes, and only for the app page', () => {
    expect(permissionAllowed('clipboard-sanitized-write', index, isAppUrl)).toBe(true);
    expect(permissionAllowed('clipboard-sanitized-write', 'https://evil.example/', isAppUrl)).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write', undefined, isAppUrl)).toBe(false);
    for (const p of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'fullscreen', 'hid', 'serial', 'usb']) {
      expect(permissionAllowed(p, index, isAppUrl)).toBe(false);
    }
  });

  it('are installed for both requests and checks', () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    installPermissionPolicy({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) }, (p, d) =>
      permissionAllowed(p, d.requestingUrl, isAppUrl),
    );
    const answers: boolean[] = [];
    request!({}, 'clipboard-sanitized-write', (g) => answers.push(g), { requestingUrl: index });
    request!({}, 'media', (g) => answers.push(g), { requestingUrl: index });
    expect(answers).toEqual([true, false]);
    expect(check!({}, 'clipboard-sanitized-write', 'app://switchboard', { requestingUrl: index })).toBe(true);
    expect(check!({}, 'clipboard-read', 'app://switchboard', { requestingUrl: index })).toBe(false);
  });
});

describe('IPC frame check (trusted)', () => {
  const top = { url: `${index}#/servers` };
  const win = { destroyed: false, isDestroyed: () => win.destroyed, webContents: { mainFrame: top as unknown } };
  const trusted = createFrameGuard(() => win, isAppUrl);

  it('accepts the window top frame showing the app page', () => {
    expect(trusted(top)).toBe(true);
  });

  it('refuses other frames, a top frame showing another page, missing frames and a destroyed window', () => {
    expect(trusted({ url: index })).toBe(false); // an iframe (or any other frame) with the same URL
    expect(trusted(null)).toBe(false);
    expect(trusted(undefined)).toBe(false);
    top.url = 'https://evil.example/';
    expect(trusted(top)).toBe(false);
    top.url = index;
    win.destroyed = true;
    expect(trusted(top)).toBe(false);
    win.destroyed = false;
    expect(createFrameGuard(() => undefined, isAppUrl)(top)).toBe(false);
  });
});
