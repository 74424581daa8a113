// The shell's door on the gateway's port, with real sockets: connections reach the core's front behind it byte for
// byte, the gap is answered with 503 + Retry-After + a JSON-RPC error (403 for a foreign Host, as the front would),
// a restarted core's front is reached on the same port, a taken port is reported, and close ends it all.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayDoor, withGatewayDoor } from '../../electron/shell/gateway-door.js';

const servers: Server[] = [];
const doors: GatewayDoor[] = [];

afterEach(async () => {
  await Promise.all(doors.splice(0).map((d) => d.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A stand-in for a core's front: echoes what it was sent, under its name. */
async function front(name: string): Promise<number> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(`${name}:${req.headers.host ?? ''}:${body}`));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

function door(): GatewayDoor {
  const d = new GatewayDoor({ gapReason: () => "Switchboard's core is restarting" });
  doors.push(d);
  return d;
}

const post = (port: number, init: RequestInit = {}): Promise<Response> =>
  fetch(`http://127.0.0.1:${port}/mcp`, { method: 'POST', body: 'hello', ...init });

describe('GatewayDoor', () => {
  it('forwards to the front, answers the gap itself, and reaches the next front on the same port', async () => {
    const d = door();
    const opened = await d.open(0, await front('first'));
    if (!('port' in opened)) throw new Error(opened.message);
    const port = opened.port;
    expect(await (await post(port)).text()).toBe(`first:127.0.0.1:${port}:hello`);

    // The core dies: its front and every connection to it go, and the shell hears of it.
    const first = servers.pop()!;
    first.closeAllConnections();
    await new Promise((r) => first.close(r));
    d.coreGone();
    const gap = await post(port);
    expect(gap.status).toBe(503);
    expect(gap.headers.get('retry-after')).toBe('2');
    expect(gap.headers.get('content-type')).toBe('application/json');
    expect(await gap.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringContaining("Switchboard's core is restarting") },
      id: null,
    });
    // Another site's page learns nothing, as from the front itself.
    expect((await post(port, { headers: { Origin: 'https://evil.example' } })).status).toBe(403);

    // A restarted core asks for "any port" and gets the one clients already know.
    expect(await d.open(0, await front('second'))).toEqual({ port });
    expect(await (await post(port)).text()).toBe(`second:127.0.0.1:${port}:hello`);
  });

  it('answers the gap when the front behind it went without a word (the core just died)', async () => {
    const d = door();
    const upstream = await front('gone');
    const opened = await d.open(0, upstream);
    const gone = servers.pop()!;
    gone.closeAllConnections();
    await new Promise((r) => gone.close(r));
    const port = (opened as { port: number }).port;
    expect((await post(port)).status).toBe(503);
  });

  it('reports a taken port, and after close refuses connections', async () => {
    const taken = await front('other');
    const d = door();
    expect(await d.open(taken, await front('core'))).toMatchObject({ error: 'port_in_use' });
    const opened = (await d.open(0, await front('core'))) as { port: number };
    await d.close();
    expect(d.port).toBe(0);
    await expect(post(opened.port)).rejects.toThrow();
  });

  it('serves the core only its door requests, passing others on and refusing bad ports', async () => {
    const d = door();
    const serve = withGatewayDoor(d, (request) => Promise.resolve(`passed ${request.op}`));
    expect(await serve({ op: 'openExternal', url: 'https://example.com' })).toBe('passed openExternal');
    await expect(serve({ op: 'gatewayDoor.open', port: 70_000, upstream: 1 })).rejects.toThrow(/ports/);
    const opened = (await serve({ op: 'gatewayDoor.open', port: 0, upstream: await front('core') })) as { port: number };
    expect(d.port).toBe(opened.port);
    expect(await serve({ op: 'gatewayDoor.close' })).toBe(true);
    expect(d.port).toBe(0);
  });
});
