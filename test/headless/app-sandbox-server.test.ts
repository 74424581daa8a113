// Headless mode's MCP Apps sandbox on a real loopback socket: it serves only an open launch's proxy page (framed only
// by the renderer) and app document (with the launch's policy, framed only by the proxy inside the renderer), the
// proxy script and the warm-up pages; and the bridge refuses its origin outright.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildCspPolicy } from '../../electron/core/apps/csp.js';
import { innerSandboxFlags, SANDBOX_SCRIPT, sandboxAppPage, scriptHash } from '../../electron/core/apps/sandbox-page.js';
import { WEBRTC_GUARD_SCRIPT, withWebRtcGuard } from '../../electron/core/apps/webrtc-guard.js';
import { startAppSandboxServer, type AppSandboxServer } from '../../electron/headless/app-sandbox-server.js';
import { startBridgeServer } from '../../electron/headless/bridge-server.js';
import { cleanup, makeHost, tempDir } from '../shared/support/harness.js';

const APP_HTML = '<!doctype html><h1>The app</h1>';
const RENDERER = 'http://127.0.0.1:4000 http://localhost:4000';
const policy = buildCspPolicy({ connectDomains: [], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] });
let sandbox: AppSandboxServer;
let paths: string[];

beforeEach(async () => {
  paths = [];
  sandbox = await startAppSandboxServer({
    rendererOrigins: () => ['http://127.0.0.1:4000', 'http://localhost:4000'],
    launch: (id) => (id === 'open-launch' ? { cspPolicy: policy, permissions: ['camera'], popups: false, html: APP_HTML } : undefined),
    onRequest: (p) => paths.push(p),
  });
});
afterEach(async () => sandbox.close());

function get(
  path: string,
  opts: { host?: string; method?: string } = {},
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: sandbox.port,
        path,
        method: opts.method ?? 'GET',
        headers: { host: opts.host ?? `127.0.0.1:${sandbox.port}` },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('app sandbox server', () => {
  it('serves an open launch’s proxy page, framed only by the renderer, naming the app document', async () => {
    const res = await get('/proxy.html?launch=open-launch');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'none'; script-src '${scriptHash()}'; style-src 'unsafe-inline'; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${RENDERER}`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const config = JSON.parse(/<script type="application\/json" id="sandbox-config">(.*?)<\/script>/.exec(res.body)![1]!) as unknown;
    expect(config).toEqual({
      hosts: ['http://127.0.0.1:4000', 'http://localhost:4000'],
      sandbox: 'allow-scripts allow-forms',
      allow: 'camera',
      app: '/app.html?launch=open-launch',
    });
    expect(res.body).not.toContain('allow-same-origin');
    expect(res.body).not.toContain('The app');
    // The proxy's script is inline, allowed by its hash alone.
    expect(res.body).toContain(`<script>${SANDBOX_SCRIPT}</script>`);
    expect(scriptHash()).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(sandbox.pageUrl('open-launch')).toBe(`${sandbox.origin}/proxy.html?launch=open-launch`);
  });

  it('serves the app’s document under its policy, framed only by the sandbox origin (as reached) and the renderer', async () => {
    for (const host of [`127.0.0.1:${sandbox.port}`, `localhost:${sandbox.port}`]) {
      const res = await get('/app.html?launch=open-launch', { host });
      expect(res.status).toBe(200);
      // Its first script is the WebRTC guard, after the doctype (the document keeps its standards mode).
      expect(res.body).toBe(withWebRtcGuard(APP_HTML));
      expect(res.body).toBe(`<!doctype html><script>${WEBRTC_GUARD_SCRIPT}</script><h1>The app</h1>`);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      // The sandbox directive keeps the document opaque even when it is loaded outside the proxy's frame.
      expect(res.headers['content-security-policy']).toBe(
        `${policy}; sandbox allow-scripts allow-forms; frame-ancestors http://${host} ${RENDERER}`,
      );
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('gives the app’s document the sandbox flags of its frame, pop-ups exactly when they are granted', () => {
    const shell = { hostOrigins: [RENDERER], frameAncestors: [RENDERER], sandboxOrigin: 'http://127.0.0.1:1' };
    const csp = (popups: boolean): string =>
      sandboxAppPage({ cspPolicy: policy, permissions: [], popups, html: APP_HTML }, shell).headers['Content-Security-Policy']!;
    expect(csp(false).split('; ')).toContain('sandbox allow-scripts allow-forms');
    expect(csp(true).split('; ')).toContain(`sandbox ${innerSandboxFlags(true)}`);
    expect(innerSandboxFlags(true)).toBe('allow-scripts allow-forms allow-popups');
  });

  it('serves the warm-up pages: no script, no app, framed like the real ones', async () => {
    expect(sandbox.warmUrl).toBe(`${sandbox.origin}/warm.html`);
    const warm = await get('/warm.html');
    expect(warm.status).toBe(200);
    expect(warm.body).toContain('<iframe sandbox="allow-scripts allow-forms"');
    expect(warm.body).not.toContain('<script');
    expect(warm.headers['content-security-policy']).toContain(`frame-ancestors ${RENDERER}`);
    const inner = /src="([^"]+)"/.exec(warm.body)![1]!;
    const innerRes = await get(inner);
    expect(innerRes.status).toBe(200);
    expect(innerRes.headers['content-security-policy']).toBe(`default-src 'none'; frame-ancestors ${sandbox.origin} ${RENDERER}`);
  });

  it('serves nothing else', async () => {
    for (const path of [
      '/proxy.js',
      '/',
      '/index.html',
      '/bridge',
      '/proxy.html',
      '/proxy.html?launch=closed',
      '/app.html',
      '/app.html?launch=closed',
      '/../etc/passwd',
    ]) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await get('/warm.html', { method: 'POST' })).status).toBe(405);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect((await get('/warm.html', { host: 'evil.example.com' })).status).toBe(421);
    expect((await get('/warm.html', { host: `localhost:${sandbox.port}` })).status).toBe(200);
  });

  it('upgrades nothing to a WebSocket', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${sandbox.port}/bridge`);
    const outcome = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('error', () => resolve('refused'));
    });
    expect(outcome).toBe('refused');
    expect(paths).toEqual([]);
  });
});

describe('the bridge and the sandbox origin', () => {
  it('refuses a WebSocket from the sandbox origin (or an opaque one) even with the right token', async () => {
    const dir = tempDir();
    const h = makeHost(dir);
    const refusals: string[] = [];
    const bridge = await startBridgeServer({
      dispatch: h.dispatch,
      events: h.host.events,
      staticDir: dir,
      token: 'T0KEN',
      port: 0,
      onRefused: (r) => refusals.push(r),
    });
    try {
      for (const origin of [sandbox.origin, `http://localhost:${sandbox.port}`, 'null']) {
        const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge?token=T0KEN`, { headers: { origin } });
        const status = await new Promise<number | string>((resolve) => {
          ws.on('open', () => resolve('open'));
          ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
          ws.on('error', () => resolve('error'));
        });
        expect(status, origin).toBe(403);
      }
      expect(refusals).toEqual(['bad_origin', 'bad_origin', 'bad_origin']);
      // The control: the renderer's own origin with the token gets in.
      const ok = new WebSocket(`ws://127.0.0.1:${bridge.port}/bridge?token=T0KEN`, { headers: { origin: bridge.origin } });
      await new Promise<void>((resolve, reject) => {
        ok.on('open', () => resolve());
        ok.on('error', reject);
      });
      ok.close();
    } finally {
      await bridge.close();
      await h.host.shutdown();
      cleanup(dir);
    }
  });
});
