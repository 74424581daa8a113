// The headless bridge on a real loopback socket: every refusal happens before any handler
// runs; a good connection speaks JSON-RPC 2.0 over the real dispatcher; events become
// notifications; static files need no token but stay inside their folder.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect as netConnect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerSummary } from '../../shared/contract.js';
import { createDispatcher, type Dispatch } from '../../electron/core/dispatcher.js';
import type { Handlers } from '../../electron/core/handlers.js';
import { MAX_BRIDGE_MESSAGE, startBridgeServer, type BridgeServer } from '../../electron/headless/bridge-server.js';
import { CSP_NONCE_PLACEHOLDER } from '../../electron/renderer-csp.js';
import { cleanup, makeHost, tempDir, type HostHarness } from '../shared/support/harness.js';

let dir: string;
let staticDir: string;
let h: HostHarness;
let server: BridgeServer;
let token: string;
/** Every call that reached the dispatcher, and every call that reached a handler. */
let dispatched: { method: string; args: unknown }[];
let handled: string[];
let refused: string[];
const sockets: WebSocket[] = [];

/** Wraps each real handler so the test can see whether it ran. */
function countingHandlers(real: Handlers): Handlers {
  const out: Record<string, (args: never) => Promise<unknown>> = {};
  for (const [key, fn] of Object.entries(real) as [string, (args: never) => Promise<unknown>][]) {
    out[key] = (args: never) => {
      handled.push(key);
      return fn(args);
    };
  }
  return out as unknown as Handlers;
}

beforeEach(async () => {
  dir = tempDir();
  staticDir = join(dir, 'renderer');
  mkdirSync(join(staticDir, 'assets'), { recursive: true });
  writeFileSync(
    join(staticDir, 'index.html'),
    `<!doctype html><meta name="csp-nonce" content="${CSP_NONCE_PLACEHOLDER}"><title>Switchboard</title>`,
  );
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'OUTSIDE_STATIC_ROOT');
  h = makeHost(join(dir, 'data'));
  dispatched = [];
  handled = [];
  refused = [];
  const real = createDispatcher(countingHandlers(h.handlers));
  const dispatch: Dispatch = (method, args) => {
    dispatched.push({ method, args });
    return real(method, args);
  };
  token = randomBytes(32).toString('base64url');
  server = await startBridgeServer({ dispatch, events: h.host.events, staticDir, token, port: 0, onRefused: (r) => refused.push(r) });
});

afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await server.close();
  cleanup(dir);
});

interface UpgradeOpts {
  path?: string;
  token?: string | null;
  origin?: string | null;
  host?: string;
}

/** Attempts a WebSocket upgrade; resolves with the open socket or the refusal's HTTP status. */
function tryUpgrade(o: UpgradeOpts = {}): Promise<{ ws?: WebSocket; status?: number }> {
  const path = o.path ?? '/bridge';
  const tok = o.token === undefined ? token : o.token;
  const query = tok === null ? '' : `?token=${encodeURIComponent(tok)}`;
  const headers: Record<string, string> = {};
  if (o.host !== undefined) headers['Host'] = o.host;
  const origin = o.origin === undefined ? server.origin : o.origin;
  if (origin !== null) headers['Origin'] = origin;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}${path}${query}`, { headers });
    sockets.push(ws);
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

async function expectRefused(o: UpgradeOpts, status: number, reason: string): Promise<void> {
  const result = await tryUpgrade(o);
  expect(result.ws, 'connection must not open').toBeUndefined();
  expect(result.status).toBe(status);
  expect(refused).toEqual([reason]);
  expect(dispatched).toEqual([]);
  expect(handled).toEqual([]);
}

/** One JSON-RPC exchange over an open socket; skips notifications. */
function rpc(ws: WebSocket, payload: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if ('method' in msg && !('id' in msg)) return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
    ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  });
}

function nextNotification(ws: WebSocket, method: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer): void => {
      const msg = JSON.parse(data.toString()) as Record<string, unknown>;
      if (msg['method'] !== method || 'id' in msg) return;
      ws.off('message', onMessage);
      resolve(msg);
    };
    ws.on('message', onMessage);
  });
}

async function open(o: UpgradeOpts = {}): Promise<WebSocket> {
  const r = await tryUpgrade(o);
  if (!r.ws) throw new Error(`upgrade refused with ${r.status}`);
  return r.ws;
}

function httpGet(path: string, host?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: server.port, path, method: 'GET', headers: { Host: host ?? `127.0.0.1:${server.port}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.setTimeout(5000, () => req.destroy(new Error(`GET ${path} timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** Sends raw bytes and returns whatever the server answers before closing (or after 3 s). */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const s = netConnect({ host: '127.0.0.1', port: server.port }, () => s.write(text));
    const done = (): void => resolve(Buffer.concat(chunks).toString());
    s.setTimeout(3000, () => (s.destroy(), done()));
    s.on('data', (c: Buffer) => chunks.push(c));
    s.once('close', done);
    s.once('error', done);
  });
}

describe('refusals happen before any handler runs', () => {
  it('missing token → 401', () => expectRefused({ token: null }, 401, 'bad_token'));
  it('empty token → 401', () => expectRefused({ token: '' }, 401, 'bad_token'));
  it('wrong token of the right length → 401', async () => {
    const wrong = randomBytes(32).toString('base64url');
    expect(wrong).toHaveLength(token.length);
    await expectRefused({ token: wrong }, 401, 'bad_token');
  });
  it('token differing only in its last character → 401', () =>
    expectRefused({ token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A') }, 401, 'bad_token'));
  it('token of the wrong length (prefix) → 401', () => expectRefused({ token: token.slice(0, 10) }, 401, 'bad_token'));
  it('token of the wrong length (extended) → 401', () => expectRefused({ token: `${token}x` }, 401, 'bad_token'));
  it('missing Origin → 403', () => expectRefused({ origin: null }, 403, 'bad_origin'));
  it('foreign Origin → 403', () => expectRefused({ origin: 'http://evil.example' }, 403, 'bad_origin'));
  it('Origin on another port → 403', () => expectRefused({ origin: `http://127.0.0.1:${server.port + 1}` }, 403, 'bad_origin'));
  it('Origin "null" → 403', () => expectRefused({ origin: 'null' }, 403, 'bad_origin'));
  it('https Origin of the same host → 403', () => expectRefused({ origin: `https://127.0.0.1:${server.port}` }, 403, 'bad_origin'));
  it('Host evil.example:PORT (DNS rebinding) → 403', () => expectRefused({ host: `evil.example:${server.port}` }, 403, 'bad_host'));
  it('Host 127.0.0.1 on another port → 403', () => expectRefused({ host: `127.0.0.1:${server.port + 1}` }, 403, 'bad_host'));
  it('Host without a port → 403', () => expectRefused({ host: '127.0.0.1' }, 403, 'bad_host'));
  it('wrong path → 404', () => expectRefused({ path: '/ws' }, 404, 'bad_path'));
  it('path with a trailing segment → 404', () => expectRefused({ path: '/bridge/x' }, 404, 'bad_path'));

  it('an unparsable upgrade target is refused without crashing the server', async () => {
    const reply = await rawRequest(
      `GET //[/bridge?token=${token} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${server.origin}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(reply).toMatch(/^HTTP\/1\.1 404 /);
    expect(refused).toEqual(['bad_path']);
    expect(dispatched).toEqual([]);
    expect(handled).toEqual([]);
    const ws = await open();
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it('plain HTTP with a foreign Host is refused (421) even for static files', async () => {
    const res = await httpGet('/', `evil.example:${server.port}`);
    expect(res.status).toBe(421);
    expect(res.body).not.toContain('Switchboard');
    expect(refused).toEqual(['bad_host']);
  });

  it('a plain GET of /bridge does not reach the dispatcher', async () => {
    const res = await httpGet(`/bridge?token=${token}`);
    expect(res.status).toBe(426);
    expect(dispatched).toEqual([]);
  });
});

describe('a good connection', () => {
  it('accepts both 127.0.0.1 and localhost as Host and Origin', async () => {
    const a = await open();
    const b = await open({ host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` });
    expect(a.readyState).toBe(WebSocket.OPEN);
    expect(b.readyState).toBe(WebSocket.OPEN);
    expect(refused).toEqual([]);
  });

  it('answers a request with its result', async () => {
    const ws = await open();
    const reply = await rpc(ws, { jsonrpc: '2.0', id: 1, method: 'servers.list', params: {} });
    expect(reply).toEqual({ jsonrpc: '2.0', id: 1, result: [] });
    expect(handled).toEqual(['servers.list']);
    const info = await rpc(ws, { jsonrpc: '2.0', id: 'two', method: 'app.info', params: {} });
    expect(info['id']).toBe('two');
    expect((info['result'] as { mode: string }).mode).toBe('headless');
  });

  it('adds a server through the bridge and it is persisted', async () => {
    const ws = await open();
    const reply = await rpc(ws, {
      jsonrpc: '2.0',
      id: 3,
      method: 'servers.add',
      params: { config: { id: 'srv', name: 'Srv', transport: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: {} } } },
    });
    expect((reply['result'] as { id: string }).id).toBe('srv');
    expect(readFileSync(join(dir, 'data', 'config.json'), 'utf8')).toContain('"srv"');
  });

  it('unknown method → -32601 and no handler ran', async () => {
    const ws = await open();
    for (const method of ['servers.nuke', '__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const reply = await rpc(ws, { jsonrpc: '2.0', id: 7, method, params: {} });
      expect((reply['error'] as { code: number }).code, method).toBe(-32601);
    }
    expect(handled).toEqual([]);
  });

  it('invalid params → -32602 with data.code invalid_request, and no handler ran', async () => {
    const ws = await open();
    const cases = [
      { method: 'servers.get', params: { id: 5 } },
      { method: 'servers.get', params: { id: 'x', extra: true } },
      { method: 'servers.add', params: { config: { id: 'Bad Id', name: 'x', transport: { type: 'stdio', command: 'x' } } } },
      { method: 'servers.list', params: 'not an object' },
    ];
    for (const c of cases) {
      const reply = await rpc(ws, { jsonrpc: '2.0', id: 8, ...c });
      const error = reply['error'] as { code: number; data: { code: string } };
      expect(error.code, JSON.stringify(c)).toBe(-32602);
      expect(error.data.code).toBe('invalid_request');
    }
    expect(handled).toEqual([]);
  });

  it('a core error crosses as -32000 with the error data', async () => {
    const ws = await open();
    const reply = await rpc(ws, { jsonrpc: '2.0', id: 9, method: 'servers.get', params: { id: 'missing' } });
    expect(reply['error']).toMatchObject({ code: -32000, data: { code: 'not_found', serverId: 'missing' } });
  });

  it('parse error → -32700; malformed requests → -32600; nothing dispatched', async () => {
    const ws = await open();
    expect(await rpc(ws, '{"jsonrpc": "2.0", "id": 1, "method": ')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rpc(ws, '[1,2]')).toMatchObject({ error: { code: -32600 } });
    expect(await rpc(ws, { jsonrpc: '1.0', id: 1, method: 'servers.list' })).toMatchObject({ id: 1, error: { code: -32600 } });
    expect(await rpc(ws, { jsonrpc: '2.0', id: 1, method: 42 })).toMatchObject({ error: { code: -32600 } });
    expect(await rpc(ws, { jsonrpc: '2.0', method: 'servers.list' })).toMatchObject({ error: { code: -32600 } });
    expect(dispatched).toEqual([]);
  });

  it('an oversized request is refused with limit_exceeded on its own; the connection stays and the next call works', async () => {
    const ws = await open();
    let closed = false;
    ws.on('close', () => (closed = true));
    const big = 'x'.repeat(MAX_BRIDGE_MESSAGE + 1024);
    const reply = await rpc(ws, { jsonrpc: '2.0', id: 7, method: 'servers.add', params: { name: big } });
    expect(reply).toMatchObject({ id: 7, error: { code: -32000, data: { code: 'limit_exceeded' } } });
    expect(dispatched).toEqual([]);
    expect(refused).toEqual(['limit_exceeded']);
    // The id is found wherever it is in the request.
    const late = await rpc(ws, `{"params":{"name":"${big}"},"method":"servers.add","jsonrpc":"2.0","id":"late"}`);
    expect(late).toMatchObject({ id: 'late', error: { data: { code: 'limit_exceeded' } } });
    expect(await rpc(ws, { jsonrpc: '2.0', id: 8, method: 'servers.list', params: {} })).toEqual({ jsonrpc: '2.0', id: 8, result: [] });
    expect(closed).toBe(false);
    expect(ws.readyState).toBe(WebSocket.OPEN);
  });

  it('counts no viewer before a page attaches: core modules listen as internal', () => {
    // Counted listeners stand for a window or page; a core module counted as one would make the traffic log format
    // entries for nobody.
    expect(h.host.events.size).toBe(0);
  });

  it('forwards EventBus events as JSON-RPC notifications, and detaches on close', async () => {
    const before = h.host.events.size;
    const ws = await open();
    await rpc(ws, { jsonrpc: '2.0', id: 1, method: 'servers.list', params: {} }); // attached by now
    expect(h.host.events.size).toBe(before + 1);
    const pending = nextNotification(ws, 'app.notices');
    h.host.events.emit('app.notices', { notices: [{ id: 'n1', level: 'info', message: 'hello' }] });
    expect(await pending).toEqual({
      jsonrpc: '2.0',
      method: 'app.notices',
      params: { notices: [{ id: 'n1', level: 'info', message: 'hello' }] },
    });

    const changed = nextNotification(ws, 'servers.changed');
    await rpc(ws, {
      jsonrpc: '2.0',
      id: 2,
      method: 'servers.add',
      params: { config: { id: 'evt', name: 'Evt', transport: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } },
    });
    const note = await changed;
    expect((note['params'] as { servers: ServerSummary[] }).servers.map((s) => s.id)).toEqual(['evt']);

    await new Promise<void>((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
    });
    await expect.poll(() => h.host.events.size).toBe(before);
  });
});

describe('static files', () => {
  it('are served without a token, with a CSP header and a fresh style nonce per document', async () => {
    const index = await httpGet('/');
    expect(index.status).toBe(200);
    expect(index.body).toContain('<title>Switchboard</title>');
    const csp = index.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const nonce = /'nonce-([A-Za-z0-9+/=]{20,})'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(index.body).toContain(`content="${nonce}"`);
    expect(index.body).not.toContain(CSP_NONCE_PLACEHOLDER);
    const again = await httpGet('/');
    expect(again.headers['content-security-policy']).not.toBe(csp);
    expect(index.headers['content-type']).toMatch(/^text\/html/);
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    const js = await httpGet('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['content-security-policy']).toMatch(/script-src 'self';/);
    expect(dispatched).toEqual([]);
  });

  it('refuse path traversal in every spelling', async () => {
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00',
      '/index.html%00.js',
    ]) {
      const res = await httpGet(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body, path).not.toContain('OUTSIDE_STATIC_ROOT');
    }
  });

  it('answer a malformed percent-encoding with an error status instead of hanging', async () => {
    const res = await httpGet('/%E0%A4%A');
    expect(res.status).toBe(400);
    // The server is still healthy afterwards.
    expect((await httpGet('/')).status).toBe(200);
  });

  it('answer an unparsable request target with 400 instead of crashing', async () => {
    for (const target of ['//[', '//:99999/']) {
      const reply = await rawRequest(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
      expect(reply, target).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect((await httpGet('/')).status).toBe(200);
  });

  it('refuse methods other than GET and HEAD', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: server.port, path: '/', method: 'POST', headers: { Host: `127.0.0.1:${server.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('x');
    });
    expect(status).toBe(405);
  });
});

describe('network exposure', () => {
  function canConnect(host: string, port: number): Promise<boolean> {
    return new Promise((resolve) => {
      const s = netConnect({ host, port });
      s.setTimeout(2000, () => (s.destroy(), resolve(false)));
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
  }

  it('listens on 127.0.0.1 only', async () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(await canConnect('127.0.0.1', server.port)).toBe(true);
    const others = Object.values(networkInterfaces())
      .flat()
      .filter((i): i is NonNullable<typeof i> => i !== undefined && !(i.family === 'IPv4' && i.address === '127.0.0.1'))
      .map((i) => i.address);
    for (const address of ['::1', ...others]) {
      expect(await canConnect(address, server.port), address).toBe(false);
    }
    if (process.platform === 'linux') {
      // 127.0.0.2 is loopback on Linux but not the bound address.
      expect(await canConnect('127.0.0.2', server.port)).toBe(false);
      const portHex = server.port.toString(16).toUpperCase().padStart(4, '0');
      const listening = readFileSync('/proc/net/tcp', 'utf8')
        .split('\n')
        .slice(1)
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f[1]?.endsWith(`:${portHex}`) && f[3] === '0A')
        .map((f) => f[1]);
      expect(listening).toEqual([`0100007F:${portHex}`]);
    }
  });
});

describe('send paths survive values that cannot be serialised', () => {
  function deepValue(n: number): unknown {
    return JSON.parse('{"a":'.repeat(n) + '1' + '}'.repeat(n)) as unknown;
  }

  it('an answer JSON cannot encode becomes a typed error for that caller, and the bridge keeps serving', async () => {
    const sendErrors: string[] = [];
    const deep = deepValue(200_000);
    const other = await startBridgeServer({
      dispatch: async (method) => (method === 'calls.result' ? { ok: true, value: deep } : { ok: true, value: [] }),
      events: h.host.events,
      staticDir,
      token,
      port: 0,
      onSendError: (what) => sendErrors.push(what),
    });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/bridge?token=${token}`, { headers: { Origin: other.origin } });
      sockets.push(ws);
      await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
      const answer = await rpc(ws, { jsonrpc: '2.0', id: 1, method: 'calls.result', params: { callId: 'x' } });
      expect(answer['error']).toMatchObject({ code: -32000, data: { code: 'internal' } });
      expect(String((answer['error'] as { message: string }).message)).toMatch(/answer to calls\.result could not be sent/);
      expect(sendErrors).toEqual(['calls.result']);
      const next = await rpc(ws, { jsonrpc: '2.0', id: 2, method: 'servers.list', params: {} });
      expect(next['result']).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('an event JSON cannot encode is skipped for that event only; later events still arrive', async () => {
    const sendErrors: string[] = [];
    const other = await startBridgeServer({
      dispatch: async () => ({ ok: true, value: null }),
      events: h.host.events,
      staticDir,
      token,
      port: 0,
      onSendError: (what) => sendErrors.push(what),
    });
    try {
      const ws = new WebSocket(`ws://127.0.0.1:${other.port}/bridge?token=${token}`, { headers: { Origin: other.origin } });
      sockets.push(ws);
      await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
      const later = nextNotification(ws, 'app.notices');
      h.host.events.emit('app.notices', { notices: deepValue(200_000) as never });
      h.host.events.emit('app.notices', { notices: [] });
      expect(await later).toMatchObject({ params: { notices: [] } });
      expect(sendErrors).toEqual(['app.notices']);
    } finally {
      await other.close();
    }
  });
});
