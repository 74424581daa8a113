// Headless mode's MCP Apps sandbox: a second loopback listener (its own port, so its own origin) that serves only the
// sandbox's pages (an open launch's proxy page and app document, the proxy's script, the warm-up pages). The app never
// shares an origin with the renderer, so it can reach neither the bridge nor its token; its policy comes from the
// core's launch record.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerSandbox, sandboxText, SANDBOX_PAGE_PATH, SANDBOX_WARM_PATH, type SandboxPageInput } from '../core/apps/sandbox-page.js';
import { hostAllowed } from '../core/net/loopback-guards.js';

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
  /** The warm-up page's URL. */
  warmUrl: string;
  /** Stops the listener. */
  close(): Promise<void>;
}

/** Starts the sandbox listener on 127.0.0.1. */
export async function startAppSandboxServer(opts: AppSandboxServerOptions): Promise<AppSandboxServer> {
  let port = 0;
  const http: Server = createServer((req, res) => {
    const answer = (() => {
      if (!hostAllowed(req.headers.host, port)) return sandboxText(421, 'Misdirected request');
      if (req.method !== 'GET' && req.method !== 'HEAD') return sandboxText(405, 'Method not allowed');
      let url: URL;
      try {
        url = new URL(req.url ?? '/', 'http://x');
      } catch {
        return sandboxText(400, 'Bad request');
      }
      opts.onRequest?.(url.pathname);
      const origins = opts.rendererOrigins();
      return answerSandbox(url, opts.launch, {
        hostOrigins: origins,
        frameAncestors: origins,
        sandboxOrigin: `http://${req.headers.host}`,
      });
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
    warmUrl: `${origin}${SANDBOX_WARM_PATH}`,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
