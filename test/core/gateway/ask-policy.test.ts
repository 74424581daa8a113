// The write policy of a profile: read-only tools run; others are allowed, denied, or wait for the person's
// decision (the gateway.request event, answered with gateway.decide), bounded by the call's deadline. A denied
// call is a tool-level error, recorded in the history under the client's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let ask = '';
let deny = '';
const requests: EventMap['gateway.request'][] = [];

beforeAll(async () => {
  w = new GatewayWorld();
  // A short call deadline so an undecided call ends within the test.
  await w.addServer('fx', 'calls-stdio.ts', { timeouts: { callSecs: 4 } as never });
  await w.enable();
  ({ token: ask } = await w.client('asker', { mode: 'all', writes: 'ask' }));
  ({ token: deny } = await w.client('reader', { mode: 'all', writes: 'deny' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'gateway.request') requests.push(payload as EventMap['gateway.request']);
  });
}, 120_000);
afterAll(async () => w?.close());

const latest = (): EventMap['gateway.request'] | undefined => requests.at(-1);

describe('ask', () => {
  it('runs read-only tools without asking', async () => {
    const c = await w.http(ask, 'modern');
    const before = requests.length;
    const r = await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'ro' } });
    expect(r.isError).not.toBe(true);
    expect(requests.length).toBe(before);
  });

  it('waits for the person; Allow runs the call (through the contract)', async () => {
    const dispatch = createDispatcher(createHandlers(w.host));
    const c = await w.http(ask, 'legacy');
    const call = c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'allowed \u202Ewrite' } });
    await until(() => latest()?.request?.tool === 'mcp__fx__write', 20_000, 'the ask');
    const req = latest()!.request!;
    expect(req).toMatchObject({ clientName: 'asker', serverId: 'fx', serverName: 'fx', tool: 'mcp__fx__write' });
    // Arguments are shown as text, control and bidi characters removed.
    expect(req.arguments).toContain('"label": "allowed write"');
    expect(req.expiresAt).toBeGreaterThan(Date.now());
    const status = await dispatch('gateway.status', {});
    expect(status.ok && (status.value as { pending: { requestId: string }[] }).pending.map((p) => p.requestId)).toEqual([req.requestId]);
    expect(await dispatch('gateway.decide', { requestId: req.requestId, allow: true })).toEqual({ ok: true, value: null });
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ label: 'allowed write' });
    expect(latest()).toMatchObject({ closed: { requestId: req.requestId, reason: 'Allowed' }, pending: [] });
    // A second answer is refused: the request is gone.
    expect(await dispatch('gateway.decide', { requestId: req.requestId, allow: false })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('a denied call returns a tool-level error and is recorded in the history', async () => {
    const c = await w.http(ask, 'modern');
    const call = c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'denied-one' } });
    await until(() => latest()?.request?.arguments.includes('denied-one') === true, 20_000, 'the ask');
    w.host.gateway.decide(latest()!.request!.requestId, false);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/denied this call of mcp__fx__write/);
    const entry = w.host.calls.history.search({ query: 'denied-one' }).entries[0]!;
    expect(entry).toMatchObject({ status: 'error', error: { code: 'denied' }, origin: { kind: 'gateway', clientName: 'asker' } });
    expect(w.host.gateway.activity().some((a) => a.kind === 'denied' && a.clientName === 'asker')).toBe(true);
  });

  it('a call left undecided ends at its deadline', async () => {
    const c = await w.http(ask, 'modern');
    const started = Date.now();
    const call = c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'undecided' } });
    await until(() => latest()?.request?.arguments.includes('undecided') === true, 20_000, 'the ask');
    const requestId = latest()!.request!.requestId;
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/before its deadline/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(requests.some((r) => r.closed?.requestId === requestId && /deadline/.test(r.closed.reason))).toBe(true);
    expect(w.host.calls.history.search({ query: 'undecided' }).entries[0]).toMatchObject({ error: { code: 'timeout' } });
  });

  it('a client that gives up ends its wait', async () => {
    const c = await w.http(ask, 'legacy');
    const controller = new AbortController();
    const call = c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'gave-up' } }, { signal: controller.signal });
    await until(() => latest()?.request?.arguments.includes('gave-up') === true, 20_000, 'the ask');
    const requestId = latest()!.request!.requestId;
    controller.abort();
    await expect(call).rejects.toThrow();
    await until(() => requests.some((r) => r.closed?.requestId === requestId), 20_000, 'the wait to end');
    expect(w.host.gateway.asks.pending()).toEqual([]);
  });
});

describe('deny', () => {
  it('refuses tools not annotated read-only at once and runs read-only ones', async () => {
    const c = await w.http(deny, 'modern');
    const before = requests.length;
    const write = await c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'no' } });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/only use read-only tools/);
    const read = await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'yes' } });
    expect(read.isError).not.toBe(true);
    expect(requests.length).toBe(before);
  });
});
