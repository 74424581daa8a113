// The sandbox both shells serve from an origin of its own (a second loopback port in headless mode, the
// app-sandbox: scheme in Electron). Its proxy page is the outer frame of the extension's double-iframe sandbox: it
// loads the app's document (served here with the app's policy) into an inner frame with an opaque origin
// (sandbox="allow-scripts allow-forms", never allow-same-origin) and relays JSON-RPC messages between the renderer
// and that frame only. The policy, the inner frame's sandbox flags and its `allow` list come from the core's launch
// record, never from a message, so nothing the app sends can loosen them. The app's HTML never passes through the
// renderer: the browser loads it straight from the sandbox origin while the proxy starts.
import { createHash } from 'node:crypto';
import { SANDBOX_REFUSED_METHOD } from '../../../shared/domains/app-sandbox.js';
import type { AppPermission } from '../../../shared/domains/apps.js';
import { withWebRtcGuard } from './webrtc-guard.js';

/** Path of the proxy page (the launch id goes in `?launch=`, the renderer's origin in `#host=`). */
export const SANDBOX_PAGE_PATH = '/proxy.html';
/** Path of an app's own document (the launch id goes in `?launch=`). */
export const SANDBOX_APP_PATH = '/app.html';
/** Path of the warm-up page: an empty page with an empty inner frame, so the browser has the sandbox's processes
 * running before an app opens. */
export const SANDBOX_WARM_PATH = '/warm.html';
/** Path of the warm-up page's inner frame. */
const SANDBOX_WARM_INNER_PATH = '/warm-inner.html';

/** What one launch's sandbox is built from. */
export interface SandboxPageInput {
  /** The app's Content-Security-Policy (it governs the app's document). */
  cspPolicy: string;
  /** Granted browser permissions (become the inner frame's `allow`). */
  permissions: AppPermission[];
  /** The person allowed pop-ups for this server. */
  popups: boolean;
  /** The app's checked HTML. */
  html: string;
}

/** Where the sandbox pages may be embedded and whom the proxy talks to. */
export interface SandboxShell {
  /** Origins of the renderer (the only parents the proxy answers). `file://` stands for Electron's file renderer. */
  hostOrigins: string[];
  /** `frame-ancestors` sources; omitted when the renderer's origin cannot be named (Electron's file://). */
  frameAncestors?: string[];
  /** The sandbox origin as the browser reached it (the app's document is framed by the proxy on this origin). */
  sandboxOrigin: string;
}

/** The inner frame's sandbox flags: scripts and form events; never same-origin, top navigation or modals. */
export function innerSandboxFlags(popups: boolean): string {
  return popups ? 'allow-scripts allow-forms allow-popups' : 'allow-scripts allow-forms';
}

/** Each permission's Permissions-Policy feature, in the order the extension package lists them. */
const ALLOW_FEATURES: ReadonlyArray<[AppPermission, string]> = [
  ['camera', 'camera'],
  ['microphone', 'microphone'],
  ['geolocation', 'geolocation'],
  ['clipboardWrite', 'clipboard-write'],
];

/**
 * The `allow` attribute for granted permissions: the extension package's `buildAllowAttribute` mapping, written out
 * here because importing that package (with the SDK and zod behind it) was a third of the headless launcher's start.
 */
export function allowAttribute(permissions: AppPermission[]): string {
  return ALLOW_FEATURES.filter(([p]) => permissions.includes(p))
    .map(([, feature]) => feature)
    .join('; ');
}

const escapeJsonForHtml = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/** A response of the sandbox origin. */
export interface SandboxAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ancestors = (sources: string[] | undefined): string =>
  sources && sources.length > 0 ? `; frame-ancestors ${sources.join(' ')}` : '';

/** Who may frame a document the proxy (or warm-up page) holds: the sandbox origin inside the renderer. */
const innerFramers = (shell: SandboxShell): string[] | undefined =>
  shell.frameAncestors ? [shell.sandboxOrigin, ...shell.frameAncestors] : undefined;

/** The policy of the proxy and warm-up pages: the proxy's own inline script (by hash), same-origin frames, nothing else. */
const shellPagePolicy = (): string =>
  `default-src 'none'; script-src '${scriptHash()}'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'; form-action 'none'`;

const html = (body: string, policy: string): SandboxAnswer => ({
  status: 200,
  headers: { ...SANDBOX_HEADERS, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy },
  body,
});

/** The proxy page of one launch and its response headers. */
export function sandboxPage(launchId: string, input: SandboxPageInput, shell: SandboxShell): SandboxAnswer {
  const config = {
    hosts: shell.hostOrigins,
    sandbox: innerSandboxFlags(input.popups),
    allow: allowAttribute(input.permissions),
    app: `${SANDBOX_APP_PATH}?launch=${encodeURIComponent(launchId)}`,
  };
  const body = [
    '<!doctype html>',
    '<html lang="en" style="height:100%"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>App sandbox</title></head>',
    '<body style="margin:0;height:100%;overflow:hidden">',
    `<script type="application/json" id="sandbox-config">${escapeJsonForHtml(config)}</script>`,
    // Inline (allowed by its hash): the app's document starts loading without waiting for a second request.
    `<script>${SANDBOX_SCRIPT}</script>`,
    '</body></html>',
  ].join('');
  return html(body, `${shellPagePolicy()}${ancestors(shell.frameAncestors)}`);
}

/**
 * The app's own document: its HTML under its policy, framed only by the proxy inside the renderer. The policy carries
 * the inner frame's sandbox flags too, so the document has an opaque origin however it is loaded (top level included).
 * Its first script closes WebRTC (see webrtc-guard).
 */
export function sandboxAppPage(input: SandboxPageInput, shell: SandboxShell): SandboxAnswer {
  return html(
    withWebRtcGuard(input.html),
    `${input.cspPolicy}; sandbox ${innerSandboxFlags(input.popups)}${ancestors(innerFramers(shell))}`,
  );
}

/** A plain-text answer of the sandbox origin (errors). */
export const sandboxText = (status: number, body: string): SandboxAnswer => ({
  status,
  headers: { ...SANDBOX_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" },
  body,
});

/**
 * Answers a GET on the sandbox origin: an open launch's proxy page and app document, the warm-up
 * pages; 404 for anything else or a closed launch. Both shells serve exactly this.
 */
export function answerSandbox(url: URL, launch: (launchId: string) => SandboxPageInput | undefined, shell: SandboxShell): SandboxAnswer {
  switch (url.pathname) {
    case SANDBOX_WARM_PATH:
      return html(
        `<!doctype html><title>App sandbox</title><iframe sandbox="allow-scripts allow-forms" title="" src="${SANDBOX_WARM_INNER_PATH}"></iframe>`,
        `${shellPagePolicy()}${ancestors(shell.frameAncestors)}`,
      );
    case SANDBOX_WARM_INNER_PATH:
      return html('<!doctype html><title>App sandbox</title>', `default-src 'none'${ancestors(innerFramers(shell))}`);
    case SANDBOX_PAGE_PATH:
    case SANDBOX_APP_PATH: {
      const launchId = url.searchParams.get('launch') ?? '';
      const input = launch(launchId);
      if (!input) return sandboxText(404, 'This app is closed');
      return url.pathname === SANDBOX_PAGE_PATH ? sandboxPage(launchId, input, shell) : sandboxAppPage(input, shell);
    }
    default:
      return sandboxText(404, 'Not found');
  }
}

/** Headers every sandbox response carries. */
export const SANDBOX_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The proxy's script. Plain browser JavaScript (served as is by both shells): it accepts messages from its parent only
 * when the parent is the renderer origin named in `#host=` and listed by the core; it loads the app's document (named
 * by the core, never by a message) into the inner frame once, ignores any `ui/notifications/sandbox-*` message from
 * either side (the app's HTML and sandbox are not the renderer's to send), relays everything else between parent and
 * inner frame, and reports what it drops with the reserved SANDBOX_REFUSED_METHOD (which no app can send, being a
 * `ui/notifications/sandbox-*` method), shown by the Inspector as a refused row.
 */
export const SANDBOX_SCRIPT = `(function () {
  'use strict';
  var READY = 'ui/notifications/sandbox-proxy-ready';
  var REFUSED = ${JSON.stringify(SANDBOX_REFUSED_METHOD)};
  var config;
  try { config = JSON.parse(document.getElementById('sandbox-config').textContent); } catch (e) { return; }
  if (window.parent === window) { document.body.textContent = 'This page only runs inside Switchboard.'; return; }
  var host = new URLSearchParams(location.hash.slice(1)).get('host');
  if (!host || config.hosts.indexOf(host) < 0) { document.body.textContent = 'Unexpected host.'; return; }
  var target = host === 'file://' ? '*' : host;
  var isMessage = function (d) { return d !== null && typeof d === 'object' && !Array.isArray(d) && d.jsonrpc === '2.0'; };
  var reserved = function (d) { return typeof d.method === 'string' && d.method.indexOf('ui/notifications/sandbox-') === 0; };
  var report = function (text) {
    window.parent.postMessage({ jsonrpc: '2.0', method: REFUSED, params: { reason: text } }, target);
  };
  var inner = document.createElement('iframe');
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source === window.parent && (host === 'file://' || event.origin === host)) {
      if (!isMessage(data) || reserved(data)) return;
      if (inner.contentWindow) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (event.source === inner.contentWindow && event.origin === 'null') {
      if (!isMessage(data)) { report('Dropped a message from the app that is not JSON-RPC 2.0'); return; }
      if (reserved(data)) { report('Dropped ' + String(data.method).slice(0, 80) + ' sent by the app (reserved for the sandbox)'); return; }
      window.parent.postMessage(data, target);
      return;
    }
    report('Dropped a message from an unexpected sender (origin ' + String(event.origin).slice(0, 80) + ')');
  });
  inner.setAttribute('sandbox', config.sandbox);
  if (config.allow) inner.setAttribute('allow', config.allow);
  inner.setAttribute('title', 'MCP App');
  inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
  inner.src = config.app;
  document.body.appendChild(inner);
  window.parent.postMessage({ jsonrpc: '2.0', method: READY, params: {} }, target);
})();
`;

let hash: string | undefined;
/** The CSP source of the proxy's script (`sha256-…`). */
export function scriptHash(): string {
  hash ??= `sha256-${createHash('sha256').update(SANDBOX_SCRIPT).digest('base64')}`;
  return hash;
}
