// The gateway's live-session count: a client that exits without ending its session (its notification stream
// closes) leaves the count at once, a 2026-07-28 listen stream leaves it when closed, and a session with no stream
// leaves it once idle past SESSION_LIVE_MS. Real clients over HTTP against a real host with its gateway on.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_LIVE_MS } from '../../../electron/core/gateway/client-endpoint.js';
import { GatewayWorld, until } from './harness.js';

let w: GatewayWorld;
let token = '';
let id = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('fx', 'calls-stdio.ts');
  await w.enable();
  ({ token, id } = await w.client('agent', { mode: 'all', writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

const live = (): number => w.host.gateway.status().sessions;
const clientLive = async (): Promise<number> => (await w.host.gateway.clients()).find((c) => c.id === id)!.sessions;

describe('live gateway sessions', () => {
  it('a 2025-11-25 client that exits without ending its session leaves the count when its stream closes', async () => {
    const client = await w.v1Http(token);
    await client.listTools();
    await until(() => live() === 1, 10_000, 'one live session');
    expect(await clientLive()).toBe(1);
    // close() aborts the notification stream without a DELETE, as an app that quits does.
    await client.close();
    await until(() => live() === 0, 10_000, 'the session to leave the count');
    expect(await clientLive()).toBe(0);
  });

  it('a 2026-07-28 listen stream counts while open and leaves the count when closed', async () => {
    const client = await w.http(token, 'modern', {}, undefined, () => undefined);
    await client.listTools();
    await until(() => live() === 1, 10_000, 'the listen stream to count');
    await client.close();
    await until(() => live() === 0, 10_000, 'the listen stream to leave the count');
  });

  it('a session with no open stream leaves the count once idle past the limit', async () => {
    // A bare 2025-11-25 session: initialize over POST, no notification stream.
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const init = await fetch(w.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bare', version: '1' } },
      }),
    });
    await init.text();
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toBeTruthy();
    expect(live()).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + SESSION_LIVE_MS + 1000 });
    try {
      expect(live()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    // Not idle by the real clock: it counts again, so the idle limit is what took it out.
    expect(live()).toBe(1);
    await (await fetch(w.url, { method: 'DELETE', headers: { ...headers, 'Mcp-Session-Id': session } })).text();
    await until(() => live() === 0, 10_000, 'the ended session to leave the count');
  });
});
