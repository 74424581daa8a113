// The loopback redirect listener for one OAuth flow: 127.0.0.1 on an ephemeral port, redirect URI
// http://127.0.0.1:PORT/callback, GET on that exact path only, Host checked, a static page with
// Referrer-Policy: no-referrer, closed after the flow or after 5 minutes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ListenForRedirect, RedirectListener } from '../core/auth/auth-ports.js';

/** The only path the listener answers. */
export const CALLBACK_PATH = '/callback';

/** How long a closing listener lets a callback still being answered finish. */
const CLOSE_GRACE_MS = 10_000;

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  // One flow, one request: no keep-alive, so closing the listener never waits on an idle browser connection.
  Connection: 'close',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
} as const;

function page(title: string, text: string): string {
  // Static text only: nothing from the request is ever echoed.
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;
}

const DONE = page('Switchboard', 'You can close this tab and return to Switchboard.');
const REFUSED = page('Switchboard', 'This sign-in could not be completed. Return to Switchboard for details.');

function plain(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    Connection: 'close',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
    ...extra,
  });
  res.end(text);
}

/** Starts a listener for one flow. */
export const listenForRedirect: ListenForRedirect = async ({ onCallback, onTimeout, timeoutMs = 5 * 60 * 1000 }) => {
  let port = 0;
  let closed = false;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res);
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = req.headers.host;
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      plain(res, 421, 'Misdirected request');
      return;
    }
    const target = req.url ?? '';
    let url: URL;
    try {
      url = new URL(target, `http://127.0.0.1:${port}`);
    } catch {
      plain(res, 400, 'Bad request');
      return;
    }
    if (!target.startsWith('/') || url.pathname !== CALLBACK_PATH) {
      plain(res, 404, 'Not found');
      return;
    }
    if (req.method !== 'GET') {
      plain(res, 405, 'Method not allowed', { Allow: 'GET' });
      return;
    }
    // The redirect URI is always the 127.0.0.1 form, whatever Host the browser used.
    const hit = new URL(`http://127.0.0.1:${port}${CALLBACK_PATH}${url.search}`);
    let ok = false;
    try {
      ok = (await onCallback({ url: hit })).ok;
    } catch {
      ok = false;
    }
    res.writeHead(ok ? 200 : 400, PAGE_HEADERS);
    res.end(ok ? DONE : REFUSED);
  };
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    // The flow usually ends while the callback that ended it is still being answered: stop accepting, drop idle
    // connections, and let that response (the "return to Switchboard" page) finish; cut off stragglers later.
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    force.unref();
    await stopped;
    clearTimeout(force);
  };
  const timer = setTimeout(() => {
    void close();
    onTimeout();
  }, timeoutMs);
  timer.unref();
  const listener: RedirectListener = { redirectUri: `http://127.0.0.1:${port}${CALLBACK_PATH}`, close };
  return listener;
};
