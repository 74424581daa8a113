// Headless mode's MCP Apps sandbox on a real loopback socket: it serves only an open launch's proxy page (with the
// launch's policy, framed only by the renderer) and the proxy script; and the bridge refuses its origin outright.
import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildCspPolicy } from '../../electron/core/apps/csp.js';
import { SANDBOX_SCRIPT } from '../../electron/core/apps/sandbox-page.js';
import { startAppSandboxServer, type AppSandboxServer } from '../../electron/headless/app-sandbox-server.js';
import { startBridgeServer } from '../../electron/headless/bridge-server.js';
import { cleanup, makeHost, tempDir } from '../shared/support/harness.js';

const policy = buildCspPolicy({ connectDomains: [], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] });
let sandbox: AppSandboxServer;
let paths: string[];

beforeEach(async () => {
  paths = [];
  sandbox = await startAppSandboxServer({
    rendererOrigins: () => ['http://127.0.0.1:4000', 'http://localhost:4000'],
    launch: (id) => (id === 'open-launch' ? { cspPolicy: policy, permissions: ['camera'], popups: false } : undefined),
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
  it('serves an open launch’s page with its policy, framed only by the renderer', async () => {
    const res = await get('/proxy.html?launch=open-launch');
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toBe(`${policy}; frame-ancestors http://127.0.0.1:4000 http://localhost:4000`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const config = JSON.parse(/<script type="application\/json" id="sandbox-config">(.*?)<\/script>/.exec(res.body)![1]!) as unknown;
    expect(config).toEqual({
      hosts: ['http://127.0.0.1:4000', 'http://localhost:4000'],
      sandbox: 'allow-scripts allow-forms',
      allow: 'camera',
    });
    expect(res.body).not.toContain('allow-same-origin');
    expect(sandbox.pageUrl('open-launch')).toBe(`${sandbox.origin}/proxy.html?launch=open-launch`);
  });

  it('serves the proxy script and nothing else', async () => {
    const script = await get('/proxy.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toBe(SANDBOX_SCRIPT);
    for (const path of ['/', '/index.html', '/bridge', '/proxy.html', '/proxy.html?launch=closed', '/../etc/passwd']) {
      expect((await get(path)).status, path).toBe(404);
    }
    expect((await get('/proxy.js', { method: 'POST' })).status).toBe(405);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    expect((await get('/proxy.js', { host: 'evil.example.com' })).status).toBe(421);
    expect((await get('/proxy.js', { host: `localhost:${sandbox.port}` })).status).toBe(200);
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
