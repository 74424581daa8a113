// The gateway's port, held by the shell so it outlives a core. The core's HTTP front listens on a private loopback
// port; the shell listens on the port gateway clients know and pipes each connection, byte for byte, to that front
// (every check and every token stays in the core). While no core serves the gateway (it crashed and is being
// restarted, or the shell gave up on it) the shell answers every request itself: 503 with Retry-After and a JSON-RPC
// error, so a client sees a clean error instead of a refused connection, and works again with the same token once a
// new core has opened the door. A TCP pipe rather than handing the listening socket to the core: Electron's utility
// processes cannot receive handles, and the same door serves both shells.
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { EventMap } from '../../shared/contract.js';
import type { GatewayDoorRequest, ShellRequest } from '../core-process/messages.js';
import type { CoreEventListener } from './core-supervisor.js';
import { hostAllowed, originAllowed } from '../core/net/loopback-guards.js';
import { DEFAULT_ADMISSION } from '../core/gateway/connection-admission.js';

/** Seconds a client is told to wait before retrying during the gap. */
export const GAP_RETRY_AFTER_S = 2;
/**
 * Connections the door holds at once: as many as the core's front keeps (its admission decides which to keep; a lower
 * cap here dropped a client's own connections once it had ~1,000 calls in flight).
 */
const MAX_CONNECTIONS = DEFAULT_ADMISSION.total;

/** What opening the door gave: the port clients reach, or why not. */
export type DoorOpened = { port: number } | { error: 'port_in_use' | 'listen_failed'; message: string };

/** How the door explains the gap (the supervisor's state, in words). */
export interface GatewayDoorOptions {
  /** Why no core answers right now ("Switchboard's core is restarting"). */
  gapReason(): string;
}

/** The shell's listener on the gateway's port. */
export class GatewayDoor {
  readonly #opts: GatewayDoorOptions;
  readonly #sockets = new Set<Socket>();
  readonly #gap = createHttpServer({ maxHeaderSize: 16 * 1024, headersTimeout: 10_000, requestTimeout: 10_000 }, (req, res) =>
    this.#answerGap(req, res),
  );
  #server: Server | undefined;
  #port = 0;
  #upstream: number | undefined;

  constructor(opts: GatewayDoorOptions) {
    this.#opts = opts;
    this.#gap.on('clientError', (_err, socket: Socket) => socket.destroy());
  }

  /** The port clients reach (0 when closed). */
  get port(): number {
    return this.#server ? this.#port : 0;
  }

  /** Whether a core's front is behind the door (false during the gap). */
  get serving(): boolean {
    return this.#server !== undefined && this.#upstream !== undefined;
  }

  /**
   * A core's front listens on `upstream`: listen on `port` (0: keep the current port, or pick a free one) and send
   * connections there. The port the door already holds is kept, so a restarted core reopens it where clients know it.
   */
  async open(port: number, upstream: number): Promise<DoorOpened> {
    if (this.#server && port !== 0 && port !== this.#port) await this.close();
    if (!this.#server) {
      const server = createServer({ pauseOnConnect: true }, (socket) => this.#route(socket));
      server.maxConnections = MAX_CONNECTIONS;
      const failed = await new Promise<DoorOpened | undefined>((resolve) => {
        server.once('error', (err: NodeJS.ErrnoException) =>
          resolve(
            err.code === 'EADDRINUSE'
              ? { error: 'port_in_use', message: `Port ${port} on 127.0.0.1 is already in use; choose another port for the gateway` }
              : { error: 'listen_failed', message: `The gateway could not listen: ${err.code ?? 'error'}` },
          ),
        );
        server.listen(port, '127.0.0.1', () => resolve(undefined));
      });
      if (failed) return failed;
      this.#server = server;
      this.#port = (server.address() as AddressInfo).port;
    }
    this.#upstream = upstream;
    return { port: this.#port };
  }

  /** The core's front is gone (it died): keep the port, answer for it until a new core opens the door. */
  coreGone(): void {
    this.#upstream = undefined;
  }

  /** The gateway is off (or the shell is closing): stop listening and end every connection. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#upstream = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #route(client: Socket): void {
    this.#sockets.add(client);
    client.once('close', () => this.#sockets.delete(client));
    client.on('error', () => client.destroy());
    const upstream = this.#upstream;
    if (upstream === undefined) {
      this.#gapConnection(client);
      return;
    }
    // No Nagle on either leg: a request or answer written in parts (headers, then body) is passed on at once rather
    // than held for the previous part's ACK (node:http turns Nagle off on its own sockets for the same reason).
    client.setNoDelay(true);
    const target = connect({ port: upstream, host: '127.0.0.1', noDelay: true });
    let connected = false;
    target.once('connect', () => {
      connected = true;
      client.pipe(target);
      target.pipe(client);
    });
    target.on('error', () => {
      // The core died between its last word and this connection: this one is part of the gap.
      if (!connected && !client.destroyed) this.#gapConnection(client);
      else client.destroy();
      target.destroy();
    });
    target.once('close', () => {
      if (connected) client.destroy();
    });
    client.once('close', () => target.destroy());
  }

  #gapConnection(client: Socket): void {
    this.#gap.emit('connection', client);
    client.resume();
  }

  #answerGap(req: IncomingMessage, res: ServerResponse): void {
    // The same Host and Origin rule as the front behind it: a web page learns nothing, not even that we are here.
    const origin = req.headers.origin;
    const ok = hostAllowed(req.headers.host, this.#port) && (origin === undefined || originAllowed(origin, this.#port));
    const status = ok ? 503 : 403;
    const message = ok
      ? `${this.#opts.gapReason()}; the gateway is back in a moment with the same tokens (retry after ${GAP_RETRY_AFTER_S} s)`
      : 'Forbidden';
    res.writeHead(status, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
      Connection: 'close',
      ...(ok ? { 'Retry-After': String(GAP_RETRY_AFTER_S) } : {}),
    });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
    if (req.readable) req.resume();
  }
}

const isDoorRequest = (request: ShellRequest): request is GatewayDoorRequest => request.op.startsWith('gatewayDoor.');

/** Answers the core's gateway-door requests with `door` and passes everything else to `serve`. */
export function withGatewayDoor(
  door: GatewayDoor,
  serve: (request: ShellRequest) => Promise<unknown>,
): (request: ShellRequest) => Promise<unknown> {
  return async (request) => {
    if (!isDoorRequest(request)) return serve(request);
    if (request.op === 'gatewayDoor.close') {
      await door.close();
      return true;
    }
    const { port, upstream } = request;
    if (!validPort(port) || !validPort(upstream) || upstream === 0) throw new Error('the gateway door needs ports 0–65535');
    return door.open(port, upstream);
  };
}

const validPort = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 65535;

/** A listener of the supervisor's events that puts the door in its gap whenever the core is not running. */
export function doorFollowsCore(door: GatewayDoor): CoreEventListener {
  return (event, payload) => {
    if (event === 'app.coreStatus' && (payload as EventMap['app.coreStatus']).state !== 'running') door.coreGone();
  };
}
