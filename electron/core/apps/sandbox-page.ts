// The sandbox proxy page both shells serve from an origin of its own (a second loopback port in headless mode, the
// switchboard-app: scheme in Electron). It is the outer frame of the extension's double-iframe sandbox: it loads the
// app's HTML into an inner frame with an opaque origin (sandbox="allow-scripts allow-forms", never
// allow-same-origin) and relays JSON-RPC messages between the renderer and that frame only. Its policy, the inner
// frame's sandbox flags and its `allow` list come from the core's launch record, never from a message, so
// nothing the app sends can loosen them.
import { buildAllowAttribute } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { AppPermission } from '../../../shared/domains/apps.js';

/** Path of the proxy page (the launch id goes in `?launch=`, the renderer's origin in `#host=`). */
export const SANDBOX_PAGE_PATH = '/proxy.html';
/** Path of the proxy's script. */
export const SANDBOX_SCRIPT_PATH = '/proxy.js';

/** What one launch's proxy page is built from. */
export interface SandboxPageInput {
  /** The app's Content-Security-Policy (it governs the proxy page and, inherited, the inner srcdoc frame). */
  cspPolicy: string;
  /** Granted browser permissions (become the inner frame's `allow`). */
  permissions: AppPermission[];
  /** The person allowed pop-ups for this server. */
  popups: boolean;
}

/** Where the proxy page may be embedded and whom it talks to. */
export interface SandboxShell {
  /** Origins of the renderer (the only parents the proxy answers). `file://` stands for Electron's file renderer. */
  hostOrigins: string[];
  /** `frame-ancestors` sources; omitted when the renderer's origin cannot be named (Electron's file://). */
  frameAncestors?: string[];
}

/** The inner frame's sandbox flags: scripts and form events; never same-origin, top navigation or modals. */
export function innerSandboxFlags(popups: boolean): string {
  return popups ? 'allow-scripts allow-forms allow-popups' : 'allow-scripts allow-forms';
}

/** The `allow` attribute for granted permissions (the extension package's mapping). */
export function allowAttribute(permissions: AppPermission[]): string {
  return buildAllowAttribute(Object.fromEntries(permissions.map((p) => [p, {}])));
}

const escapeJsonForHtml = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/** The proxy page of one launch and its response headers. */
export function sandboxPage(input: SandboxPageInput, shell: SandboxShell): { body: string; headers: Record<string, string> } {
  const config = { hosts: shell.hostOrigins, sandbox: innerSandboxFlags(input.popups), allow: allowAttribute(input.permissions) };
  const body = [
    '<!doctype html>',
    '<html lang="en" style="height:100%"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>App sandbox</title></head>',
    '<body style="margin:0;height:100%;overflow:hidden">',
    `<script type="application/json" id="sandbox-config">${escapeJsonForHtml(config)}</script>`,
    `<script src="${SANDBOX_SCRIPT_PATH}"></script>`,
    '</body></html>',
  ].join('');
  const ancestors = shell.frameAncestors && shell.frameAncestors.length > 0 ? `; frame-ancestors ${shell.frameAncestors.join(' ')}` : '';
  return {
    body,
    headers: {
      ...SANDBOX_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': `${input.cspPolicy}${ancestors}`,
    },
  };
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
 * when the parent is the renderer origin named in `#host=` and listed by the core, loads the HTML once, ignores any
 * sandbox override, relays everything else between parent and inner frame, never relays `ui/notifications/sandbox-*`
 * from the app, and reports what it drops as a `notifications/message` warning the Inspector shows.
 */
export const SANDBOX_SCRIPT = `(function () {
  'use strict';
  var READY = 'ui/notifications/sandbox-proxy-ready';
  var RESOURCE = 'ui/notifications/sandbox-resource-ready';
  var config;
  try { config = JSON.parse(document.getElementById('sandbox-config').textContent); } catch (e) { return; }
  if (window.parent === window) { document.body.textContent = 'This page only runs inside Switchboard.'; return; }
  var host = new URLSearchParams(location.hash.slice(1)).get('host');
  if (!host || config.hosts.indexOf(host) < 0) { document.body.textContent = 'Unexpected host.'; return; }
  var target = host === 'file://' ? '*' : host;
  var inner = null;
  var isMessage = function (d) { return d !== null && typeof d === 'object' && !Array.isArray(d) && d.jsonrpc === '2.0'; };
  var reserved = function (d) { return typeof d.method === 'string' && d.method.indexOf('ui/notifications/sandbox-') === 0; };
  var report = function (text) {
    window.parent.postMessage({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', logger: 'sandbox', data: text } }, target);
  };
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (event.source === window.parent && (host === 'file://' || event.origin === host)) {
      if (!isMessage(data)) return;
      if (data.method === RESOURCE) {
        if (inner || !data.params || typeof data.params.html !== 'string') return;
        inner = document.createElement('iframe');
        inner.setAttribute('sandbox', config.sandbox);
        if (config.allow) inner.setAttribute('allow', config.allow);
        inner.setAttribute('title', 'MCP App');
        inner.style.cssText = 'border:0;width:100%;height:100%;display:block';
        inner.srcdoc = data.params.html;
        document.body.appendChild(inner);
        return;
      }
      if (reserved(data)) return;
      if (inner && inner.contentWindow) inner.contentWindow.postMessage(data, '*');
      return;
    }
    if (inner && event.source === inner.contentWindow && event.origin === 'null') {
      if (!isMessage(data)) { report('Dropped a message from the app that is not JSON-RPC 2.0'); return; }
      if (reserved(data)) { report('Dropped ' + String(data.method).slice(0, 80) + ' sent by the app (reserved for the sandbox)'); return; }
      window.parent.postMessage(data, target);
      return;
    }
    report('Dropped a message from an unexpected sender (origin ' + String(event.origin).slice(0, 80) + ')');
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: READY, params: {} }, target);
})();
`;
