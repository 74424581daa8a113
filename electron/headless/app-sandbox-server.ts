// Headless mode's MCP Apps sandbox: a second loopback listener (its own port, so its own origin) that serves only the
// sandbox proxy page of an open launch and the proxy's script. The app never shares an origin with the renderer, so
// it can reach neither the bridge nor its token; the page's policy comes from the core's launch record.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SANDBOX_HEADERS,
  SANDBOX_PAGE_PATH,
  SANDBOX_SCRIPT,
  SANDBOX_SCRIPT_PATH,
  sandboxPage,
  type SandboxPageInput,
} from '../core/apps/sandbox-page.js';
import { hostAllowed } from './guards.js';

/** What the sandbox server needs. */
export interface AppSandboxServerOptions {
  /** Port to bind on 127.0.0.1 (0 = ephemeral). */
  port?: number;
  /** The renderer's origins (the only parents the proxy answers and the only allowed frame ancestors). */
  rendererOrigins: () => string[];
  /** The policy of an open launch; undefined for an unknown or closed one. */
  launch: (launchId: string) => SandboxPageInput | undefined;
  /** Called for every request with its path (tests). */
  onRequest?: (path: string) => void;
}

/** A running sandbox server. */
export interface AppSandboxServer {
  /** Bound port. */
  port: number;
  /** The sandbox origin (`http://127.0.0.1:<port>`). */
  origin: string;
  /** The proxy page URL of a launch. */
  pageUrl(launchId: string): string;
  /** Stops the listener. */
  close(): Promise<void>;
}

const text = (status: number, body: string): { status: number; headers: Record<string, string>; body: string } => ({
  status,
  headers: { ...SANDBOX_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" },
  body,
});

/** Starts the sandbox listener on 127.0.0.1. */
export async function startAppSandboxServer(opts: AppSandboxServerOptions): Promise<AppSandboxServer> {
  let port = 0;
  const http: Server = createServer((req, res) => {
    const answer = (() => {
      if (!hostAllowed(req.headers.host, port)) return text(421, 'Misdirected request');
      if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Method not allowed');
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://x');
      } catch {
        return text(400, 'Bad request');
      }
      opts.onRequest?.(url.pathname);
      if (url.pathname === SANDBOX_SCRIPT_PATH) {
        return {
          status: 200,
          headers: {
            ...SANDBOX_HEADERS,
            'Content-Type': 'text/javascript; charset=utf-8',
            'Content-Security-Policy': "default-src 'none'",
          },
          body: SANDBOX_SCRIPT,
        };
      }
      if (url.pathname !== SANDBOX_PAGE_PATH) return text(404, 'Not found');
      const launch = opts.launch(url.searchParams.get('launch') ?? '');
      if (!launch) return text(404, 'This app is closed');
      const origins = opts.rendererOrigins();
      return { status: 200, ...sandboxPage(launch, { hostOrigins: origins, frameAncestors: origins }) };
    })();
    res.writeHead(answer.status, answer.headers);
    res.end(req.method === 'HEAD' ? undefined : answer.body);
  });
  // Nothing upgrades here: no WebSocket of any kind is served on the sandbox origin.
  http.on('upgrade', (_req, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    pageUrl: (launchId) => `${origin}${SANDBOX_PAGE_PATH}?launch=${encodeURIComponent(launchId)}`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
