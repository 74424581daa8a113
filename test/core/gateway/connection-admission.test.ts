// The gateway front under a flood of silent connections (issue 22 item 8): 2,100 idle sockets from one local
// process neither lock out the person's client — a real SDK v2 client with a valid token still gets through — nor
// stay open: each is closed by the front within its idle/header deadline. Limits are shortened so the test is quick;
// the mechanism is the one the defaults use.
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFront } from '../../../electron/core/gateway/http-front.js';
import { GatewayWorld, textOf, until } from './harness.js';

const LIMITS = { idleMs: 3000, headersMs: 3000, perPeerUnauthenticated: 200, total: 400, graceMs: 1000 };
const FLOOD = 2100;

let w: GatewayWorld;
let token = '';
let port = 0;

beforeAll(async () => {
  w = new GatewayWorld({ admission: LIMITS });
  await w.addServer('fx', 'calls-stdio.ts');
  await w.enable();
  port = Number(new URL(w.url).port);
  ({ token } = await w.client('person', { mode: 'all', writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

interface Watched {
  socket: Socket;
  closed: Promise<void>;
  isClosed: () => boolean;
}

/** Opens a socket and resolves once it is connected; `closed` settles when the front (or anything) closes it. */
function open(to = port): Promise<Watched> {
  return new Promise((resolve, reject) => {
    const socket = connect(to, '127.0.0.1');
    let done = false;
    const closed = new Promise<void>((r) =>
      socket.once('close', () => {
        done = true;
        r();
      }),
    );
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed, isClosed: () => done }));
    socket.once('close', () => reject(new Error('closed before it connected')));
  });
}

describe('the front under 2,100 idle connections', () => {
  it('lets a real client through and closes every idle socket within its deadline', async () => {
    const sockets: Watched[] = [];
    try {
      // Opened in batches so the listen backlog is not what refuses them.
      for (let i = 0; i < FLOOD; i += 100)
        sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, FLOOD - i) }, () => open()))));
      // The front keeps no more than the per-peer cap of sockets that have not spoken; it closed the oldest.
      await until(() => sockets.filter((s) => !s.isClosed()).length <= LIMITS.perPeerUnauthenticated, 20_000, 'the cap to hold');
      // It is full of silent sockets when the person's client arrives.
      expect(sockets.filter((s) => !s.isClosed()).length).toBe(LIMITS.perPeerUnauthenticated);

      // A half-sent request is closed too.
      const half = await open();
      half.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/`);

      const client = await w.http(token, 'modern');
      const listed = await client.listTools();
      expect(listed.tools.length).toBeGreaterThan(0);
      const called = await client.callTool({ name: 'mcp__fx__write', arguments: { ms: 0, label: 'through' } });
      expect(textOf(called)).toContain('through');

      // Every idle socket, and the half-sent one, is closed by the front: we never close them ourselves here.
      await Promise.all([...sockets.map((s) => s.closed), half.closed]);
      expect(sockets.every((s) => s.isClosed())).toBe(true);
      // The person's client, which spoke, is still served after the flood has gone.
      expect((await client.listTools()).tools.length).toBe(listed.tools.length);
    } finally {
      for (const s of sockets) s.socket.destroy();
    }
  });
});

describe('the front when full', () => {
  it("never closes a client's running request to make room, and answers a malformed request with 400 and a closed socket", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const target = {
      fetch: async () => {
        await gate;
        return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
      },
    };
    const front = await startFront({
      port: 0,
      admission: { total: 4, perPeerUnauthenticated: 4, idleMs: 60_000, headersMs: 60_000 },
      authenticate: () => target,
    });
    const sockets: Watched[] = [];
    try {
      const running = await open(front.port);
      sockets.push(running);
      let answer = '';
      running.socket.on('data', (d: Buffer) => (answer += d.toString()));
      running.socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nAuthorization: Bearer ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
      );
      await until(() => front.connections().authenticated === 1, 10_000, 'the running request');
      for (let i = 0; i < 20; i++) sockets.push(await open(front.port));
      // The silent ones made room for each other; the running request kept its socket.
      await until(() => front.connections().evicted >= 17, 10_000, 'evictions');
      expect(running.isClosed()).toBe(false);
      expect(front.connections()).toMatchObject({ authenticated: 1, unauthenticated: 3 });
      release();
      await until(() => answer.startsWith('HTTP/1.1 200'), 10_000, 'the answer');

      const bad = await open(front.port);
      sockets.push(bad);
      let reply = '';
      bad.socket.on('data', (d: Buffer) => (reply += d.toString()));
      bad.socket.write('NOT HTTP AT ALL\r\n\r\n');
      await bad.closed;
      expect(reply).toMatch(/^HTTP\/1\.1 400/);
    } finally {
      for (const s of sockets) s.socket.destroy();
      await front.close();
    }
  });
});

describe('a burst of connections from one client', () => {
  it('serves every request of a burst larger than the per-peer cap when each socket speaks within the grace', async () => {
    const target = { fetch: async () => new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } }) };
    // A long grace so the test does not depend on how fast this machine connects 300 sockets.
    const front = await startFront({
      port: 0,
      admission: { total: 1000, perPeerUnauthenticated: 10, idleMs: 60_000, headersMs: 60_000, graceMs: 60_000 },
      authenticate: () => target,
    });
    const BURST = 300;
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${front.port}\r\nAuthorization: Bearer ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
    const sockets: Watched[] = [];
    try {
      // Like undici with many requests in flight: one new socket per request, and a busy front accepts them all
      // before it reads the first request (here: every socket is accepted before any writes).
      sockets.push(...(await Promise.all(Array.from({ length: BURST }, () => open(front.port)))));
      await until(() => front.connections().unauthenticated + front.connections().evicted === BURST, 10_000, 'every socket accepted');
      const answers = sockets.map((s) => {
        let answer = '';
        s.socket.on('data', (d: Buffer) => (answer += d.toString()));
        s.socket.write(request);
        return s.closed.then(() => answer);
      });
      const got = await Promise.all(answers);
      expect(got.filter((a) => a.startsWith('HTTP/1.1 200')).length).toBe(BURST);
      expect(front.connections().evicted).toBe(0);
    } finally {
      for (const s of sockets) s.socket.destroy();
      await front.close();
    }
  });
});
