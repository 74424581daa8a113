// The headless bridge: static renderer + JSON-RPC 2.0 over WebSocket at /bridge?token=TOKEN,
// carrying exactly the contract. Binds 127.0.0.1 only; refuses bad Host, Origin or token first.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AnyEventListener } from '../core/event-bus.js';
import type { Dispatch } from '../core/dispatcher.js';
import type { ViewerState } from '../core/presence.js';
import { encodeForBridge } from '../core/sendable.js';
import { BRIDGE_FRAME_MAX_BYTES, BRIDGE_REQUEST_MAX_BYTES, formatMiB } from '../../shared/message-limits.js';
import { TOKEN_CHECK_HEADER, TOKEN_CHECK_PATH } from '../../shared/headless-link.js';
import { checkBridgeRequest } from './guards.js';
import { serveStatic } from './static-files.js';

/** Largest request the bridge dispatches (a larger one gets `limit_exceeded`; the connection stays). */
export const MAX_BRIDGE_MESSAGE = BRIDGE_REQUEST_MAX_BYTES;
/** The notification a page sends when it is shown or hidden (not part of the contract: only the shell hears it). */
export const VISIBILITY_NOTIFICATION = 'bridge/visibility';

/** What the bridge server needs. */
export interface BridgeServerOptions {
  /** Runs a validated contract call. */
  dispatch: Dispatch;
  /** Core events to forward to every connected browser (the shell's relay of the core's, or a core's own bus). */
  events: { subscribe(listener: AnyEventListener): () => void };
  /** Where each page's visibility goes (a page counts once it says it is visible; gone when it disconnects). */
  presence?: { set(viewer: string, state: ViewerState | undefined): void };
  /** Folder with the built renderer. */
  staticDir: string;
  /** The renderer's policy for a style nonce (the shell adds the MCP Apps sandbox origin to frame-src). */
  csp?: (nonce: string) => string;
  /** The per-launch token. */
  token: string;
  /** Port to bind on 127.0.0.1 (0 = ephemeral). */
  port: number;
  /** Called for every refused request (for tests and logs). */
  onRefused?: (reason: string) => void;
  /** Called when an answer or event could not be serialised (it was replaced by an error, or not sent). */
  onSendError?: (what: string, reason: string) => void;
}

/** A running bridge server. */
export interface BridgeServer {
  /** Bound port. */
  port: number;
  /** Base URL (without the token). */
  origin: string;
  /** Stops accepting and closes every client. */
  close(): Promise<void>;
}

type JsonRpcId = string | number | null;

function rpcError(id: JsonRpcId, code: number, message: string, data?: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } });
}

/** The id of a request too large to dispatch: read from its start (where the renderer puts it), else by parsing. */
function requestId(text: string): JsonRpcId {
  const head = /^\s*\{(?:\s*"jsonrpc"\s*:\s*"2\.0"\s*,)?\s*"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]){0,200}")/.exec(text.slice(0, 512));
  if (head?.[1] !== undefined) return JSON.parse(head[1]) as string | number;
  try {
    const id = (JSON.parse(text) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/** Parses a request target; null when it is not a valid path (e.g. `//[`), which must not throw in a listener. */
function parseTarget(raw: string | undefined): URL | null {
  try {
    return new URL(raw ?? '/', 'http://x');
  } catch {
    return null;
  }
}

/** Starts the bridge server. */
export async function startBridgeServer(opts: BridgeServerOptions): Promise<BridgeServer> {
  // ws is loaded once a page is requested, not before: it is a good part of the launcher's start-up, and no page can
  // open the bridge before it has loaded the page that does, so the address is printed without waiting for it.
  let wss: Promise<WebSocketServer> | undefined;
  const sockets = (): Promise<WebSocketServer> =>
    (wss ??= import('ws').then(({ WebSocketServer: Server }) => new Server({ noServer: true, maxPayload: BRIDGE_FRAME_MAX_BYTES })));
  let port = 0;
  const http: Server = createServer((req, res) => {
    const host = req.headers.host;
    if (host?.toLowerCase() !== `127.0.0.1:${port}` && host?.toLowerCase() !== `localhost:${port}`) {
      opts.onRefused?.('bad_host');
      res.writeHead(421, { 'Content-Type': 'text/plain' }).end('Misdirected request');
      return;
    }
    const target = parseTarget(req.url);
    if (!target) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request');
      return;
    }
    if (target.pathname === '/bridge') {
      res.writeHead(426, { 'Content-Type': 'text/plain' }).end('WebSocket upgrade required');
      return;
    }
    if (target.pathname === TOKEN_CHECK_PATH) {
      answerTokenCheck(req, res);
      return;
    }
    // The page is loading: it will open the bridge next.
    void sockets().catch(() => undefined);
    serveStatic(opts.staticDir, req, res, opts.csp).catch(() => {
      // Never let one bad request become an unhandled rejection that ends the process.
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Internal error');
      else res.destroy();
    });
  });

  http.on('upgrade', (req: IncomingMessage, socket, head) => {
    const url = parseTarget(req.url);
    const refusal =
      url === null || url.pathname !== '/bridge'
        ? 'bad_path'
        : checkBridgeRequest({ host: req.headers.host, origin: req.headers.origin }, url.searchParams.get('token'), port, opts.token);
    if (refusal) {
      opts.onRefused?.(refusal);
      const status = refusal === 'bad_token' ? '401 Unauthorized' : refusal === 'bad_path' ? '404 Not Found' : '403 Forbidden';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets().then(
      (server) => server.handleUpgrade(req, socket, head, (ws) => attach(ws)),
      () => socket.destroy(),
    );
  });

  // A page whose WebSocket was refused asks why (a browser never sees the upgrade's status): a token from an earlier
  // run gets 401, so the page can say the link went stale instead of "could not connect".
  function answerTokenCheck(req: IncomingMessage, res: ServerResponse): void {
    const presented = req.headers[TOKEN_CHECK_HEADER];
    const refusal =
      req.method !== 'POST'
        ? 'bad_method'
        : checkBridgeRequest(
            { host: req.headers.host, origin: req.headers.origin },
            typeof presented === 'string' ? presented : null,
            port,
            opts.token,
          );
    if (refusal) opts.onRefused?.(refusal);
    const status = refusal === null ? 204 : refusal === 'bad_token' ? 401 : refusal === 'bad_method' ? 405 : 403;
    res.writeHead(status, { 'Cache-Control': 'no-store', 'Content-Length': '0' }).end();
  }

  let connections = 0;
  function attach(ws: WebSocket): void {
    const viewer = `page-${++connections}`;
    const unsubscribe = opts.events.subscribe((event, payload) => {
      if (ws.readyState !== ws.OPEN) return;
      const encoded = encodeForBridge({ jsonrpc: '2.0', method: event, params: payload });
      if (encoded.ok) ws.send(encoded.text);
      else opts.onSendError?.(event, encoded.reason);
    });
    const detach = (): void => {
      unsubscribe();
      opts.presence?.set(viewer, undefined);
    };
    viewers.set(ws, viewer);
    ws.on('close', detach);
    ws.on('error', detach);
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        ws.send(rpcError(null, -32700, 'Binary frames are not accepted'));
        return;
      }
      const bytes = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
      if (bytes > MAX_BRIDGE_MESSAGE) {
        // One oversized request is refused on its own: the page keeps its connection and its other calls.
        const message = `The request is ${formatMiB(bytes)}, larger than the ${formatMiB(MAX_BRIDGE_MESSAGE)} the bridge accepts`;
        opts.onRefused?.('limit_exceeded');
        ws.send(rpcError(requestId(data.toString()), -32000, message, { code: 'limit_exceeded', message }));
        return;
      }
      handleMessage(ws, data.toString()).catch((err: unknown) => {
        // Nothing a request does may end the process: answer with a generic error when the socket is still open.
        opts.onSendError?.('request', err instanceof Error ? err.message : 'unknown error');
        if (ws.readyState === ws.OPEN) ws.send(rpcError(null, -32603, 'Internal error'));
      });
    });
  }

  const viewers = new WeakMap<WebSocket, string>();

  async function handleMessage(ws: WebSocket, text: string): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      ws.send(rpcError(null, -32700, 'Parse error'));
      return;
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      ws.send(rpcError(null, -32600, 'Invalid request'));
      return;
    }
    const { jsonrpc, id, method, params } = msg as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    const rid: JsonRpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
    if (jsonrpc === '2.0' && method === VISIBILITY_NOTIFICATION && id === undefined) {
      const visible = typeof params === 'object' && params !== null && (params as { visible?: unknown }).visible === true;
      const viewer = viewers.get(ws);
      if (viewer !== undefined && ws.readyState === ws.OPEN) opts.presence?.set(viewer, visible ? 'visible' : 'hidden');
      return;
    }
    if (jsonrpc !== '2.0' || typeof method !== 'string' || rid === null) {
      ws.send(rpcError(rid, -32600, 'Invalid request'));
      return;
    }
    const envelope = await opts.dispatch(method, params);
    if (ws.readyState !== ws.OPEN) return;
    if (envelope.ok) {
      const encoded = encodeForBridge({ jsonrpc: '2.0', id: rid, result: envelope.value });
      if (encoded.ok) ws.send(encoded.text);
      else {
        opts.onSendError?.(method, encoded.reason);
        const message = `The answer to ${method} could not be sent: ${encoded.reason}`;
        ws.send(rpcError(rid, -32000, message, { code: 'internal', message }));
      }
    } else {
      const code = envelope.error.code === 'unknown_method' ? -32601 : envelope.error.code === 'invalid_request' ? -32602 : -32000;
      ws.send(rpcError(rid, code, envelope.error.message, envelope.error));
    }
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, '127.0.0.1', () => resolve());
  });
  port = (http.address() as AddressInfo).port;

  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      const server = await wss?.catch(() => undefined);
      for (const client of server?.clients ?? []) client.terminate();
      server?.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
