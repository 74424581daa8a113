// With no Switchboard window the person can see, what needs them is refused at once instead of waiting for a
// deadline: a gateway ask, and a server's elicitation and sampling request during a gateway call. The headless
// shell tells the core through the bridge: a page that says it is visible makes asks wait for the person, and
// closing it refuses what waits. The deadlines here are long (minutes), so only an immediate refusal passes.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { EventMap } from '../../../shared/contract.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { startBridgeServer, type BridgeServer } from '../../../electron/headless/bridge-server.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let asker = '';
let allower = '';
let bridge: BridgeServer | undefined;
const token = 'presence-test-token';
const requests: EventMap['gateway.request'][] = [];

beforeAll(async () => {
  w = new GatewayWorld({ window: false });
  await w.addServer('fx', 'calls-stdio.ts', {
    elicitation: true,
    sampling: true,
    timeouts: { callSecs: 600, elicitationSecs: 600 } as never,
  });
  await w.enable();
  ({ token: asker } = await w.client('asker', { mode: 'all', writes: 'ask' }));
  ({ token: allower } = await w.client('allower', { mode: 'all', writes: 'allow' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'gateway.request') requests.push(payload as EventMap['gateway.request']);
  });
  bridge = await startBridgeServer({
    dispatch: createDispatcher(createHandlers(w.host)),
    events: w.host.events,
    presence: w.host.presence,
    staticDir: mkdtempSync(join(tmpdir(), 'sb-presence-static-')),
    token,
    port: 0,
  });
}, 120_000);
afterAll(async () => {
  await bridge?.close();
  await w?.close();
});

describe('no window attached', () => {
  it('refuses a gateway ask at once', async () => {
    const c = await w.http(asker, 'modern');
    const r = await c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'nobody' } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no Switchboard window is open/);
    expect(requests).toEqual([]);
  });

  it("declines a server's elicitation and refuses its sampling request during a gateway call", async () => {
    const c = await w.http(allower, 'modern');
    const elicited = await c.callTool({ name: 'mcp__fx__mrtr_elicit', arguments: {} });
    expect(textOf(elicited)).toMatch(/hello \(decline\)/);
    const sampled = await c.callTool({ name: 'mcp__fx__mrtr_sampling', arguments: {} });
    expect(sampled.isError).toBe(true);
    expect(textOf(sampled)).toMatch(/no Switchboard window is open/);
  });
});

describe('a page over the headless bridge', () => {
  it('makes asks wait while it is visible; closing it refuses the waiting call', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${bridge!.port}/bridge?token=${token}`, { headers: { Origin: bridge!.origin } });
    await new Promise<void>((resolve, reject) => (ws.once('open', () => resolve()), ws.once('error', reject)));
    // Connected but hidden (a background tab) is not someone who can answer.
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'bridge/visibility', params: { visible: false } }));
    await until(() => w.host.presence.attached, 10_000, 'the page to be attached');
    const c = await w.http(asker, 'legacy');
    const hidden = await c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'hidden-tab' } });
    expect(textOf(hidden)).toMatch(/no Switchboard window is open/);
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'bridge/visibility', params: { visible: true } }));
    await until(() => w.host.presence.visible, 10_000, 'the page to be visible');
    const waiting = c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'seen' } });
    await until(() => requests.some((r) => r.request?.arguments.includes('seen') === true), 20_000, 'the ask');
    ws.close();
    const r = await waiting;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/no Switchboard window is open/);
    expect(requests.at(-1)).toMatchObject({ closed: { reason: 'The last Switchboard window was closed' }, pending: [] });
  });
});
