// The control door: how the `switchboard` command uses the running app's core instead of starting a second one on the
// same data folder (the single-process rule). Both shells open it once their core is supervised: an HTTP listener on
// 127.0.0.1 (a random port) that relays exactly the contract — one POST per call, `{method, args}` handed to the
// supervisor's dispatch, whose core validates the method against the closed InvokeKey set and the arguments with the
// contract's schemas, as for the bridge and IPC — and answers with the contract's envelope. Before any of that it
// refuses a request whose Host is not its own loopback name (DNS rebinding), one carrying any Origin (only a browser
// sends one; the command never does) and one without this launch's token (constant-time compare). The URL, the pid and
// the token are in `<dataDir>/control.json` (mode 0600, written atomically, removed when the door closes). A tool call
// whose command disconnects before the answer is cancelled in the app.
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IpcEnvelope } from '../../shared/contract.js';
import type { ErrorCode } from '../../shared/errors.js';
import { BRIDGE_REQUEST_MAX_BYTES, formatMiB } from '../../shared/message-limits.js';
import { hostAllowed } from '../core/net/loopback-guards.js';
import { encodeForBridge } from '../core/sendable.js';
import { writeJsonAtomic } from '../core/storage/json-file.js';
import { tokenMatches } from '../headless/guards.js';
import { CONTROL_CALL_PATH, CONTROL_HELLO_PATH, CONTROL_VERSION, controlPath, readControlFile, type ControlFile } from './control-file.js';

/** Largest call the door reads (the bridge's bound: a larger one is refused with `limit_exceeded`). */
export const MAX_CONTROL_REQUEST = BRIDGE_REQUEST_MAX_BYTES;

/** Why the door refused a request before reading it. */
export type ControlRefusal = 'bad_host' | 'bad_origin' | 'bad_token' | 'bad_path' | 'bad_method' | 'bad_request' | 'limit_exceeded';

/** What the door needs from its shell. */
export interface ControlDoorOptions {
  /** The data folder whose control.json the door writes. */
  dataDir: string;
  /** The supervisor's relay of the contract (the core validates method and arguments). */
  dispatch(method: string, args: unknown): Promise<IpcEnvelope<unknown>>;
  /** The shell's log. */
  log(level: 'info' | 'warn', message: string): void;
  /** Called for every refused request (tests). */
  onRefused?: (reason: ControlRefusal) => void;
}

/** An open control door. */
export interface ControlDoor {
  /** Its port on 127.0.0.1. */
  readonly port: number;
  /** Stops listening, ends every connection and removes control.json. */
  close(): Promise<void>;
}

const STATUS: Record<ControlRefusal, number> = {
  bad_host: 421,
  bad_origin: 403,
  bad_token: 401,
  bad_path: 404,
  bad_method: 405,
  bad_request: 400,
  limit_exceeded: 413,
};

function answer(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function failure(code: ErrorCode, message: string): string {
  return JSON.stringify({ ok: false, error: { code, message } });
}

/** Opens the door on a random loopback port and publishes it in control.json. */
export async function openControlDoor(opts: ControlDoorOptions): Promise<ControlDoor> {
  const token = randomBytes(32).toString('base64url');
  let port = 0;

  const refuse = (res: ServerResponse, reason: ControlRefusal, message: string): void => {
    opts.onRefused?.(reason);
    const code: ErrorCode = reason === 'limit_exceeded' ? 'limit_exceeded' : reason === 'bad_request' ? 'invalid_request' : 'denied';
    answer(res, STATUS[reason], failure(code, message));
  };

  const server = createServer({ maxHeaderSize: 16 * 1024, headersTimeout: 10_000 }, (req, res) => {
    // The checks every local listener makes, before anything is read: Host, Origin, token.
    if (!hostAllowed(req.headers.host, port)) return refuse(res, 'bad_host', 'Misdirected request');
    if (req.headers.origin !== undefined) return refuse(res, 'bad_origin', 'Forbidden');
    const auth = req.headers.authorization;
    const presented = typeof auth === 'string' && auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : null;
    if (!tokenMatches(presented, token)) return refuse(res, 'bad_token', "The token is not this Switchboard's");
    const path = req.url ?? '/';
    if (path === CONTROL_HELLO_PATH) {
      if (req.method !== 'GET') return refuse(res, 'bad_method', 'Use GET');
      return answer(res, 200, JSON.stringify({ version: CONTROL_VERSION, pid: process.pid }));
    }
    if (path !== CONTROL_CALL_PATH) return refuse(res, 'bad_path', 'Not found');
    if (req.method !== 'POST') return refuse(res, 'bad_method', 'Use POST');
    if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return refuse(res, 'bad_request', 'The body must be JSON');
    void relay(req, res).catch((err: unknown) => {
      // Nothing a request does may end the shell: a generic error, when the answer has not started.
      opts.log('warn', `control door: a call failed to relay: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) answer(res, 500, failure('internal', 'Internal error'));
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? 0);
    const tooLarge = (bytes: number): void => {
      const message = `The request is ${formatMiB(bytes)}, larger than the ${formatMiB(MAX_CONTROL_REQUEST)} the door accepts`;
      refuse(res, 'limit_exceeded', message);
      res.once('finish', () => req.destroy());
    };
    if (declared > MAX_CONTROL_REQUEST) return tooLarge(declared);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_CONTROL_REQUEST) return tooLarge(size);
      chunks.push(chunk);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return refuse(res, 'bad_request', 'The body is not valid JSON');
    }
    const { method, args } = (typeof body === 'object' && body !== null ? body : {}) as { method?: unknown; args?: unknown };
    if (typeof method !== 'string') return refuse(res, 'bad_request', 'The body needs a method');
    // A command that goes away before its call is answered (killed, even with SIGKILL) does not leave it running in
    // the app: the call is cancelled, as the command itself asks when it is interrupted.
    const callId = method === 'tools.call' ? (args as { callId?: unknown } | null)?.callId : undefined;
    let answered = false;
    if (typeof callId === 'string') {
      res.once('close', () => {
        if (answered) return;
        opts.log('info', 'control door: the command went away during its call; cancelling it');
        void opts.dispatch('tools.cancel', { callId }).catch(() => undefined);
      });
    }
    const envelope = await opts.dispatch(method, args);
    answered = true;
    if (res.destroyed) return;
    const encoded = encodeForBridge(envelope);
    if (encoded.ok) answer(res, 200, encoded.text);
    else answer(res, 200, failure('internal', `The answer to ${method} could not be sent: ${encoded.reason}`));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const file = controlPath(opts.dataDir);
  const content: ControlFile = { version: CONTROL_VERSION, url: `http://127.0.0.1:${port}`, pid: process.pid, token };
  // Any older file is a dead launch's (the data folder's lock is ours): replaced.
  try {
    await writeJsonAtomic(file, content);
  } catch (err) {
    server.close();
    throw err;
  }

  let closed = false;
  // Only our own file: a later launch's must survive a slow exit of this one.
  const removeFile = (): void => {
    if (readControlFile(opts.dataDir)?.token === token) rmSync(file, { force: true });
  };
  // A shell that exits without closing the door (a second Ctrl-C, a crash) still takes its file along.
  const onExit = (): void => {
    if (!closed) removeFile();
  };
  process.once('exit', onExit);
  opts.log('info', `control door on 127.0.0.1:${port} (${file})`);

  return {
    port,
    close: async () => {
      if (closed) return;
      closed = true;
      process.removeListener('exit', onExit);
      removeFile();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
