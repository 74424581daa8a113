// The gateway's front refuses, before any MCP handler runs: no token, a wrong token, a token in the query string,
// a foreign Origin, a foreign Host, a 100 MiB body (declared or streamed) and a flood of 1,000 connections. The
// gateway cannot add, change, approve or remove servers, and a profile cannot see outside itself.
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { HISTORY_ENTRY_BYTES } from '../../../electron/core/calls/history-store.js';
import { unsendableReason } from '../../../electron/core/sendable.js';
import { ClientEndpoint } from '../../../electron/core/gateway/client-endpoint.js';
import { startFront } from '../../../electron/core/gateway/http-front.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let token = '';
let narrow = '';
let port = 0;
const handled = vi.spyOn(ClientEndpoint.prototype, 'fetch');

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('fx', 'calls-stdio.ts');
  await w.addServer('res', 'res-server.ts');
  await w.enable();
  port = Number(new URL(w.url).port);
  ({ token } = await w.client('full', { mode: 'all', writes: 'allow' }));
  ({ token: narrow } = await w.client('narrow', { mode: 'all', servers: ['fx'], writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());
afterEach(() => handled.mockClear());

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

/** One raw HTTP request; resolves with the status (or 0 when the connection was dropped). */
function raw(opts: {
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  method?: string;
}): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: opts.path ?? '/mcp',
        method: opts.method ?? 'POST',
        headers: {
          Host: `127.0.0.1:${port}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...opts.headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '' }));
    if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

describe('refused before any handler runs', () => {
  it('a valid request passes (the positive control)', async () => {
    const ok = await raw({ headers: { Authorization: `Bearer ${token}` }, body: INIT });
    expect(ok.status).toBe(200);
    expect(handled).toHaveBeenCalledTimes(1);
  });

  it('no token, a wrong token, a token of the right shape that was never issued', async () => {
    expect((await raw({ body: INIT })).status).toBe(401);
    expect((await raw({ headers: { Authorization: 'Bearer nope' }, body: INIT })).status).toBe(401);
    const forged = token.slice(0, -4) + (token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    expect((await raw({ headers: { Authorization: `Bearer ${forged}` }, body: INIT })).status).toBe(401);
    expect((await raw({ headers: { Authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` }, body: INIT })).status).toBe(
      401,
    );
    expect(handled).not.toHaveBeenCalled();
  });

  it('a token in the query string is refused and never read, even with a valid header', async () => {
    const q = await raw({ path: `/mcp?token=${token}`, body: INIT });
    expect(q.status).toBe(400);
    expect(q.body).not.toContain(token);
    expect((await raw({ path: `/mcp?access_token=${token}`, headers: { Authorization: `Bearer ${token}` }, body: INIT })).status).toBe(400);
    expect(handled).not.toHaveBeenCalled();
  });

  it('a foreign Origin and a foreign Host (DNS rebinding)', async () => {
    const auth = { Authorization: `Bearer ${token}` };
    expect((await raw({ headers: { ...auth, Origin: 'http://evil.example' }, body: INIT })).status).toBe(403);
    expect((await raw({ headers: { ...auth, Host: 'evil.example' }, body: INIT })).status).toBe(403);
    expect(
      (await raw({ headers: { ...auth, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` }, body: INIT })).status,
    ).toBe(403);
    expect((await raw({ path: '/other', headers: auth, body: INIT })).status).toBe(404);
    expect((await raw({ method: 'PUT', headers: auth, body: INIT })).status).toBe(405);
    expect(handled).not.toHaveBeenCalled();
  });

  it('a declared 100 MiB body is answered 413 before it is read', async () => {
    const r = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: {
            Host: `127.0.0.1:${port}`,
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Content-Length': String(100 * 1024 * 1024),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', () => resolve(0));
      req.write('{"jsonrpc":"2.0"'); // the rest never comes
    });
    expect(r).toBe(413);
    expect(handled).not.toHaveBeenCalled();
  });

  it('a streamed 100 MiB body is cut at 8 MiB with 413, and the gateway still answers', async () => {
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/mcp',
          method: 'POST',
          headers: {
            Host: `127.0.0.1:${port}`,
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Transfer-Encoding': 'chunked',
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', () => resolve(-1));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const pump = (): void => {
        while (sent < 100) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
        req.end();
      };
      pump();
    });
    expect([413, -1]).toContain(status);
    expect(handled).not.toHaveBeenCalled();
    expect((await raw({ headers: { Authorization: `Bearer ${token}` }, body: INIT })).status).toBe(200);
  });

  it('1,000 connections without a token: all refused or dropped, none handled; the gateway answers afterwards', async () => {
    const sockets: Socket[] = [];
    const outcomes: string[] = [];
    const line = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${INIT.length}\r\n\r\n${INIT}`;
    await Promise.all(
      Array.from(
        { length: 1000 },
        () =>
          new Promise<void>((resolve) => {
            const s = connect(port, '127.0.0.1');
            sockets.push(s);
            let data = '';
            let done = false;
            const finish = (o: string): void => {
              if (done) return;
              done = true;
              outcomes.push(o);
              resolve();
            };
            s.on('connect', () => s.write(line));
            s.on('data', (d: Buffer) => {
              data += d.toString();
              if (data.startsWith('HTTP/1.1 ')) finish(data.slice(9, 12));
            });
            s.on('error', () => finish('dropped'));
            s.on('close', () => finish(data ? data.slice(9, 12) : 'dropped'));
          }),
      ),
    );
    for (const s of sockets) s.destroy();
    expect(outcomes).toHaveLength(1000);
    expect(outcomes.every((o) => o === '401' || o === 'dropped')).toBe(true);
    expect(outcomes.filter((o) => o === '401').length).toBeGreaterThan(0);
    expect(handled).not.toHaveBeenCalled();
    await until(
      async () => (await raw({ headers: { Authorization: `Bearer ${token}` }, body: INIT })).status === 200,
      20_000,
      'the gateway to answer',
    );
  });
});

describe('the connection cap', () => {
  it('keeps at most the cap open, closing the oldest that have not spoken; the ones it keeps are served', async () => {
    const target = { fetch: async () => new Response('{}', { status: 200 }) };
    const front = await startFront({ port: 0, admission: { total: 16 }, authenticate: () => target });
    const sockets: Socket[] = [];
    const line = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nAuthorization: Bearer x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    try {
      const outcomes = await Promise.all(
        Array.from(
          { length: 100 },
          () =>
            new Promise<string>((resolve) => {
              const s = connect(front.port, '127.0.0.1');
              sockets.push(s);
              let data = '';
              s.on('connect', () => s.write(line));
              s.on('data', (d: Buffer) => {
                data += d.toString();
                if (data.startsWith('HTTP/1.1 ')) resolve(data.slice(9, 12));
              });
              s.on('error', () => resolve('dropped'));
              s.on('close', () => resolve(data ? data.slice(9, 12) : 'dropped'));
            }),
        ),
      );
      const served = outcomes.filter((o) => o === '200').length;
      expect(served).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o === 'dropped').length).toBe(100 - served);
      expect(front.connections().evicted).toBeGreaterThan(0);
      const open = front.connections();
      expect(open.authenticated + open.unauthenticated).toBeLessThanOrEqual(16);
    } finally {
      for (const s of sockets) s.destroy();
      await front.close();
    }
  });
});

describe('what the gateway can never do', () => {
  it('offers no way to add, change, approve or remove servers', async () => {
    const before = JSON.stringify(w.host.configs());
    const c = await w.http(token, 'legacy');
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names.every((n) => n.startsWith('mcp__fx__') || n.startsWith('mcp__res__'))).toBe(true);
    for (const method of ['servers/add', 'servers.add', 'servers/approve', 'servers/remove', 'servers/update', 'gateway/addClient']) {
      await expect(c.request({ method, params: { id: 'evil', config: {} } }, z.looseObject({}))).rejects.toThrow(/not found/i);
    }
    const called = await c.callTool({ name: 'servers.add', arguments: { config: { id: 'evil' } } });
    expect(called.isError).toBe(true);
    expect(textOf(called)).toMatch(/Unknown tool/);
    expect(JSON.stringify(w.host.configs())).toBe(before);
  });
});

describe('a profile sees only its servers', () => {
  it('tools, calls, prompts, resources and completion', async () => {
    const c = await w.http(narrow, 'modern');
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => n.startsWith('mcp__fx__'))).toBe(true);
    const call = await c.callTool({ name: 'mcp__res__bump', arguments: {} });
    expect(call.isError).toBe(true);
    expect(textOf(call)).toMatch(/Unknown tool: mcp__res__bump/);
    expect((await c.listPrompts()).prompts).toEqual([]);
    expect((await c.listResources()).resources).toEqual([]);
    await expect(c.readResource({ uri: 'switchboard://res/res://plain' })).rejects.toThrow(/Unknown resource/);
    await expect(c.getPrompt({ name: 'mcp__res__plain' })).rejects.toThrow(/Unknown prompt/);
    await expect(
      c.complete({ ref: { type: 'ref/prompt', name: 'mcp__res__review' }, argument: { name: 'language', value: 't' } }),
    ).rejects.toThrow(/Unknown prompt/);
    // The full client sees both, so the refusals above are the profile's doing.
    const full = await w.http(token, 'modern');
    expect((await full.listResources()).resources.length).toBeGreaterThan(0);
  });
});

// Issue 22, items 3 and 4: hostile arguments are bounded where they enter and never break or bloat the history.
describe('hostile arguments from a gateway client', () => {
  it('a 700-deep argument object is refused before it runs, and the history stays sendable', async () => {
    const c = await w.http(token, 'modern');
    let deep: Record<string, unknown> = { label: 'deep-one', ms: 0 };
    for (let i = 0; i < 700; i++) deep = { d: deep };
    await expect(c.callTool({ name: 'mcp__fx__write', arguments: { ms: 0, label: 'deep-one', deep } })).rejects.toThrow(
      /nested deeper than 64 levels/,
    );
    const history = w.host.calls.history.search({});
    expect(unsendableReason(history)).toBeUndefined();
    expect(w.host.calls.history.search({ query: 'deep-one' }).total).toBe(0);
  });

  it('6 MiB arguments run, and the history keeps only their size and sha-256', async () => {
    const c = await w.http(token, 'modern');
    const args = { ms: 0, label: 'six-mib', pad: 'p'.repeat(6 * 1024 * 1024) };
    const called = await c.callTool({ name: 'mcp__fx__write', arguments: args });
    expect(called.isError).toBeFalsy();
    const entry = w.host.calls.history.search({ query: 'from full' }).entries.find((e) => e.cut?.arguments !== undefined);
    expect(entry?.cut?.arguments?.bytes).toBeGreaterThan(6 * 1024 * 1024);
    expect(entry?.arguments).toEqual({});
    expect(JSON.stringify(w.host.calls.history.search({ limit: 1000 })).length).toBeLessThan(HISTORY_ENTRY_BYTES * 10);
  });
});
