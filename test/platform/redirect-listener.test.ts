// The loopback redirect listener: 127.0.0.1, exact path, GET only, Host checked, static page, one flow, timeout.
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RedirectListener } from '../../electron/core/auth/auth-ports.js';
import { listenForRedirect } from '../../electron/platform/redirect-listener.js';

let listener: RedirectListener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

function raw(
  port: number,
  opts: { method?: string; path: string; host?: string },
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: opts.host ?? `127.0.0.1:${port}` } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('redirect listener', () => {
  it('binds 127.0.0.1 on an ephemeral port and serves only GET /callback with a loopback Host', async () => {
    const hits: string[] = [];
    listener = await listenForRedirect({
      onCallback: async (hit) => {
        hits.push(hit.url.href);
        return { ok: true };
      },
      onTimeout: () => undefined,
    });
    expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const port = Number(new URL(listener.redirectUri).port);

    expect((await raw(port, { path: '/callback?code=1&state=2', host: 'evil.example' })).status).toBe(421);
    expect((await raw(port, { path: '/callback?code=1&state=2', host: `evil.example:${port}` })).status).toBe(421);
    expect((await raw(port, { path: '/other?code=1' })).status).toBe(404);
    expect((await raw(port, { path: '/callback/extra?code=1' })).status).toBe(404);
    expect((await raw(port, { path: '/callback?code=1', method: 'POST' })).status).toBe(405);
    expect(hits).toEqual([]);

    const ok = await raw(port, { path: '/callback?code=<script>alert(1)</script>&state=s' });
    expect(ok.status).toBe(200);
    expect(ok.headers['referrer-policy']).toBe('no-referrer');
    expect(ok.body).not.toContain('<script>');
    expect(ok.body).toContain('return to Switchboard');
    expect(hits).toHaveLength(1);
  });

  it('answers a refused callback with a static page that echoes nothing', async () => {
    listener = await listenForRedirect({ onCallback: async () => ({ ok: false }), onTimeout: () => undefined });
    const port = Number(new URL(listener.redirectUri).port);
    const res = await raw(port, { path: '/callback?error=access_denied&error_description=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E' });
    expect(res.status).toBe(400);
    expect(res.body).not.toContain('onerror');
    expect(res.body).not.toContain('access_denied');
  });

  it('still answers the callback that ended the flow when the flow closes the listener while handling it', async () => {
    const ref: { l?: RedirectListener } = {};
    ref.l = await listenForRedirect({
      onCallback: async () => {
        void ref.l?.close();
        await new Promise((r) => setTimeout(r, 50));
        return { ok: true };
      },
      onTimeout: () => undefined,
    });
    listener = ref.l;
    const port = Number(new URL(listener.redirectUri).port);
    const res = await raw(port, { path: '/callback?code=1&state=2' });
    expect(res.status).toBe(200);
    expect(res.body).toContain('return to Switchboard');
    await listener.close();
    await expect(raw(port, { path: '/callback?code=1' })).rejects.toThrow();
  });

  it('stops listening after its timeout', async () => {
    let timedOut = false;
    listener = await listenForRedirect({ onCallback: async () => ({ ok: true }), onTimeout: () => (timedOut = true), timeoutMs: 100 });
    const port = Number(new URL(listener.redirectUri).port);
    await new Promise((r) => setTimeout(r, 250));
    expect(timedOut).toBe(true);
    await expect(raw(port, { path: '/callback?code=1' })).rejects.toThrow();
  });
});
