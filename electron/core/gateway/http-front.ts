// The gateway's loopback HTTP front: 127.0.0.1 only, one path (/mcp), and every check done on the request line
// and headers before any body is read or any MCP code runs: Host and Origin as on the headless bridge
// (DNS rebinding, cross-site requests), no query string (a token there is refused, never read), a bearer token in
// the Authorization header only, bodies bounded at 8 MiB. Which connections it keeps, and for how long, is
// connection-admission.ts (idle and header deadlines, caps, the person's clients first). It never redirects.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { nodeHttpHandler } from '../sdk/node-handler.js';
import { AppError } from '../../../shared/errors.js';
import { hostAllowed, originAllowed } from '../net/loopback-guards.js';
import { bearerOf } from './client-tokens.js';
import { MAX_BODY_BYTES } from './client-endpoint.js';
import { ConnectionAdmission, type AdmissionCounts, type AdmissionLimits } from './connection-admission.js';
/** The only path served. */
export const MCP_PATH = '/mcp';

/** Why a request was refused before reaching a handler. */
export type FrontRefusal = 'bad_host' | 'bad_origin' | 'bad_path' | 'query' | 'no_token' | 'bad_token' | 'too_large' | 'bad_method';

/** Something that serves an authenticated client's requests. */
export interface FrontTarget {
  fetch(request: Request): Promise<Response>;
}

/** What the front needs. */
export interface FrontOptions {
  /** Port on 127.0.0.1 (0 picks a free one). */
  port: number;
  /** The client a presented bearer token belongs to (constant-time), or undefined. */
  authenticate(token: string): FrontTarget | undefined;
  /** Every refusal (tests, diagnostics). */
  onRefused?(reason: FrontRefusal): void;
  /** Connection deadlines and caps (defaults: DEFAULT_ADMISSION). */
  admission?: Partial<AdmissionLimits>;
  /** The shell's listener in front (it outlives this process): the front listens privately and `port` is the door's. */
  door?: FrontDoor;
}

/** A listener in front of the front that outlives the core process (the shell's), forwarding connections to it. */
export interface FrontDoor {
  /** Listens on `port` (0: the one it holds, or any) and forwards to `upstream`; resolves with the port clients reach. */
  open(port: number, upstream: number): Promise<number>;
  /** Stops listening (the gateway is off). */
  close(): Promise<void>;
}

/** A listening front. */
export interface Front {
  port: number;
  url: string;
  /** How many connections are open, by kind, and how many were closed (tests, diagnostics). */
  connections(): AdmissionCounts;
  close(): Promise<void>;
}

const STATUS: Record<FrontRefusal, number> = {
  bad_host: 403,
  bad_origin: 403,
  bad_path: 404,
  query: 400,
  no_token: 401,
  bad_token: 401,
  too_large: 413,
  bad_method: 405,
};
const MESSAGE: Record<FrontRefusal, string> = {
  bad_host: 'Forbidden: the Host header must name this listener on 127.0.0.1 or localhost',
  bad_origin: 'Forbidden: cross-origin requests are not accepted',
  bad_path: 'Not found',
  query: 'Query parameters are not accepted; send the token in the Authorization header',
  no_token: 'A bearer token is required in the Authorization header',
  bad_token: 'The token is not valid',
  too_large: `Request bodies are limited to ${MAX_BODY_BYTES} bytes`,
  bad_method: 'Method not allowed',
};

function refuse(res: ServerResponse, reason: FrontRefusal): void {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Connection: 'close' };
  if (reason === 'no_token' || reason === 'bad_token') headers['WWW-Authenticate'] = 'Bearer realm="switchboard-gateway"';
  if (reason === 'bad_method') headers['Allow'] = 'GET, POST, DELETE';
  res
    .writeHead(STATUS[reason], headers)
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: MESSAGE[reason] }, id: null }));
}

/** The first refusal for a request's line and headers, or the authenticated target. */
export function screen(
  req: Pick<IncomingMessage, 'headers' | 'method' | 'url'>,
  port: number,
  authenticate: (token: string) => FrontTarget | undefined,
): { refusal: FrontRefusal } | { target: FrontTarget } {
  if (!hostAllowed(req.headers.host, port)) return { refusal: 'bad_host' };
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, port)) return { refusal: 'bad_origin' };
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  if (path !== MCP_PATH) return { refusal: 'bad_path' };
  if (q >= 0) return { refusal: 'query' };
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'POST' && method !== 'DELETE') return { refusal: 'bad_method' };
  const header = req.headers.authorization;
  if (header === undefined) return { refusal: 'no_token' };
  const token = bearerOf(header);
  const target = token === undefined ? undefined : authenticate(token);
  if (!target) return { refusal: 'bad_token' };
  const length = Number(req.headers['content-length'] ?? '0');
  if (!Number.isFinite(length) || length > MAX_BODY_BYTES) return { refusal: 'too_large' };
  return { target };
}

/** Starts the front on 127.0.0.1; rejects with port_in_use when the port is taken. */
export async function startFront(opts: FrontOptions): Promise<Front> {
  let port = 0;
  const admission = new ConnectionAdmission(opts.admission);
  const server: Server = createServer(
    { maxHeaderSize: 16 * 1024, headersTimeout: 60_000, requestTimeout: 300_000, keepAliveTimeout: 10_000 },
    (req, res) => {
      const checked = screen(req, port, opts.authenticate);
      if ('refusal' in checked) {
        opts.onRefused?.(checked.refusal);
        refuse(res, checked.refusal);
        if (req.readable) req.resume();
        return;
      }
      admission.started(req.socket);
      res.once('close', () => admission.ended(req.socket));
      void nodeHttpHandler(checked.target, { maxRequestBodySize: MAX_BODY_BYTES })(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    },
  );
  server.on('connection', (socket: Socket) => admission.admit(socket));
  // A malformed or over-long request: say so once and drop the socket (a half-closed one would linger).
  server.on('clientError', (_err, socket: Socket) => {
    if (socket.writable && !socket.destroyed)
      socket.write('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', () => socket.destroy());
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new AppError('port_in_use', `Port ${opts.port} on 127.0.0.1 is already in use; choose another port for the gateway`)
          : new AppError('internal', `The gateway could not listen: ${err.code ?? 'error'}`),
      ),
    );
    // Behind a door the front's own port is private (any free one); the Host clients send names the door's.
    server.listen(opts.door ? 0 : opts.port, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const door = opts.door;
  if (door) {
    try {
      port = await door.open(opts.port, port);
    } catch (err) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw err;
    }
  }
  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    connections: () => admission.counts(),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      admission.closeAll();
      await Promise.all([closed, door?.close().catch(() => undefined)]);
    },
  };
}
