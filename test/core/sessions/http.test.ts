// Remote servers: Streamable HTTP stateless (2026-07-28) and sessionful (2025-11-25), and legacy HTTP+SSE.
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addApproved, fixture, makeSessionHost, startHttpFixture, type SessionHarness } from './helpers.js';

let dir: string;
let h: SessionHarness;
const stops: (() => Promise<void>)[] = [];

beforeEach(() => {
  dir = tempDir('sb-sessions-');
  h = makeSessionHost(dir);
});

afterEach(async () => {
  await h.host.shutdown();
  await Promise.all(stops.splice(0).map((s) => s()));
  cleanup(dir);
});

async function echo(id: string): Promise<unknown> {
  const client = await h.sessions.client(id);
  return (await client.callTool({ name: 'echo', arguments: { text: 'over http' } })).content;
}

describe('remote transports', () => {
  it('Streamable HTTP stateless server negotiates 2026-07-28 with auto', async () => {
    const srv = await startHttpFixture(fixture('http-server.ts'), ['--mode', 'stateless']);
    stops.push(srv.stop);
    await addApproved(h.host, { id: 'stateless', name: 'stateless', startup: 'manual', transport: { type: 'http', url: srv.url } });
    expect(await h.sessions.connect('stateless')).toMatchObject({
      state: 'connected',
      protocolVersion: '2026-07-28',
      lifecycle: 'discover',
    });
    expect(h.sessions.identity('stateless')).toMatchObject({ name: 'http-fixture-stateless', instructions: 'HTTP stateless fixture' });
    expect(await echo('stateless')).toEqual([{ type: 'text', text: 'over http' }]);
  });

  it('Streamable HTTP sessionful 2025 server connects through the initialize lifecycle', async () => {
    const srv = await startHttpFixture(fixture('http-server.ts'), ['--mode', 'session']);
    stops.push(srv.stop);
    await addApproved(h.host, { id: 'session', name: 'session', startup: 'manual', transport: { type: 'http', url: srv.url } });
    expect(await h.sessions.connect('session')).toMatchObject({
      state: 'connected',
      protocolVersion: '2025-11-25',
      lifecycle: 'initialize',
    });
    expect(await echo('session')).toEqual([{ type: 'text', text: 'over http' }]);
  });

  it('legacy HTTP+SSE server connects', async () => {
    const srv = await startHttpFixture(fixture('sse-legacy.ts'));
    stops.push(srv.stop);
    await addApproved(h.host, { id: 'sse', name: 'sse', startup: 'manual', transport: { type: 'sse', url: srv.url } });
    const status = await h.sessions.connect('sse');
    expect(status).toMatchObject({ state: 'connected', lifecycle: 'initialize' });
    expect(await echo('sse')).toEqual([{ type: 'text', text: 'over http' }]);
  });

  it('an unreachable URL fails with the URL in the evidence', async () => {
    await addApproved(h.host, { id: 'gone', name: 'gone', startup: 'manual', transport: { type: 'http', url: 'http://127.0.0.1:9/mcp' } });
    const status = await h.sessions.connect('gone');
    expect(status.state).toBe('failed');
    expect(status.error?.evidence?.url).toBe('http://127.0.0.1:9/mcp');
    expect(status.error?.message).toMatch(/127\.0\.0\.1:9/);
  });

  it('a 401 is needs-auth with auth_required, never retried as a lifecycle problem', async () => {
    let requests = 0;
    const server = createServer((req, res) => {
      requests++;
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="test"' }).end('{"error":"unauthorized"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    stops.push(() => new Promise<void>((r) => server.close(() => r())));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    await addApproved(h.host, { id: 'locked', name: 'locked', startup: 'manual', transport: { type: 'http', url } });
    const status = await h.sessions.connect('locked');
    expect(status.state).toBe('needs-auth');
    expect(status.error).toMatchObject({ code: 'auth_required', evidence: { httpStatus: 401, url } });
    expect(status.retryAt).toBeUndefined();
    expect(requests).toBe(1);
  });
  it('retries a handshake that met a transient 503 at most twice (250 ms, 1 s), then connects', async () => {
    const srv = await startHttpFixture(fixture('http-server.ts'), ['--mode', 'session']);
    stops.push(srv.stop);
    const upstream = new URL(srv.url);
    let refused = 0;
    const proxy = createServer((req, res) => {
      if (req.method === 'POST' && refused < 2) {
        refused++;
        req.resume();
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('busy');
        return;
      }
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(out);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    stops.push(
      () =>
        new Promise<void>((r) => {
          proxy.closeAllConnections();
          proxy.close(() => r());
        }),
    );
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${upstream.pathname}`;
    await addApproved(h.host, { id: 'flaky', name: 'flaky', startup: 'manual', lifecycle: 'initialize', transport: { type: 'http', url } });
    expect(await h.sessions.connect('flaky')).toMatchObject({ state: 'connected', lifecycle: 'initialize' });
    expect(refused).toBe(2);
    const retries = h.sessions.logs('flaky').filter((l) => /Retrying in (250|1000) ms/.test(l.text));
    expect(retries.map((l) => /Retrying in (\d+) ms/.exec(l.text)?.[1])).toEqual(['250', '1000']);
  });

  it('gives up after two retries when the server keeps answering 503', async () => {
    let posts = 0;
    const busy = createServer((req, res) => {
      if (req.method === 'POST') posts++;
      req.resume();
      res.writeHead(503).end();
    });
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', () => r()));
    stops.push(() => new Promise<void>((r) => busy.close(() => r())));
    const url = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/mcp`;
    await addApproved(h.host, { id: 'busy', name: 'busy', startup: 'manual', lifecycle: 'initialize', transport: { type: 'http', url } });
    const status = await h.sessions.connect('busy');
    expect(status.state).toBe('failed');
    expect(status.error).toMatchObject({ code: 'http_error', evidence: { httpStatus: 503 } });
    expect(posts).toBe(3);
  });
});
