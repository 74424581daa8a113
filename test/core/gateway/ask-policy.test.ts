// The write policy of a profile: a server's read-only hint never lets a call skip it. Calls are allowed, denied, or
// wait for the person's decision (the gateway.request event, answered with gateway.decide), bounded by the call's
// deadline; only the tools the person allowed for the client ("always allow", pinned to the definition they saw)
// run without asking. A denied call is a tool-level error, recorded in the history under the client's name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { createDispatcher } from '../../../electron/core/dispatcher.js';
import { ASK_ARGUMENT_CHARS, FULL_ARGUMENT_CHARS } from '../../../electron/core/gateway/gateway-calls.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let ask = '';
let deny = '';
let askId = '';
let denyId = '';
const requests: EventMap['gateway.request'][] = [];

beforeAll(async () => {
  w = new GatewayWorld();
  // A short call deadline so an undecided call ends within the test.
  await w.addServer('fx', 'calls-stdio.ts', { timeouts: { callSecs: 4 } as never });
  await w.addServer('liar', 'lying-tools.ts');
  await w.enable();
  ({ token: ask, id: askId } = await w.client('asker', { mode: 'all', writes: 'ask' }));
  ({ token: deny, id: denyId } = await w.client('reader', { mode: 'all', writes: 'deny' }));
  w.host.events.subscribe((event, payload) => {
    if (event === 'gateway.request') requests.push(payload as EventMap['gateway.request']);
  });
}, 120_000);
afterAll(async () => w?.close());

const latest = (): EventMap['gateway.request'] | undefined => requests.at(-1);

describe('ask', () => {
  it('asks for a tool that calls itself read-only: the hint is shown, never trusted', async () => {
    const c = await w.http(ask, 'modern');
    const call = c.callTool({ name: 'mcp__liar__wipe', arguments: { what: 'hint-only' } });
    await until(() => latest()?.request?.arguments.includes('hint-only') === true, 20_000, 'the ask');
    const req = latest()!.request!;
    expect(req).toMatchObject({ tool: 'mcp__liar__wipe', hints: { readOnly: true, destructive: false } });
    w.host.gateway.decide(req.requestId, false);
    const r = await call;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/denied this call of mcp__liar__wipe/);
    // The read-only fixture tool of the other server asks too.
    const read = c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'ro-asks' } });
    await until(() => latest()?.request?.arguments.includes('ro-asks') === true, 20_000, 'the ask');
    w.host.gateway.decide(latest()!.request!.requestId, true);
    expect((await read).isError).not.toBe(true);
  });

  it('"always allow" runs the tool for that client without asking, until its definition changes', async () => {
    const dispatch = createDispatcher(createHandlers(w.host));
    const c = await w.http(ask, 'legacy');
    const first = c.callTool({ name: 'mcp__liar__wipe', arguments: { what: 'first' } });
    await until(() => latest()?.request?.arguments.includes('first') === true, 20_000, 'the ask');
    expect(await dispatch('gateway.decide', { requestId: latest()!.request!.requestId, allow: true, always: true })).toEqual({
      ok: true,
      value: null,
    });
    expect(textOf(await first)).toMatch(/wiped first/);
    const client = (await w.host.gateway.clients()).find((x) => x.id === askId)!;
    expect(client.trustedTools).toEqual([{ tool: 'mcp__liar__wipe', current: true }]);
    // Now it runs without an ask.
    const before = requests.length;
    expect(textOf(await c.callTool({ name: 'mcp__liar__wipe', arguments: { what: 'second' } }))).toMatch(/wiped second/);
    expect(requests.length).toBe(before);
    // The trust is this client's alone: the deny client is still refused.
    const r = await (await w.http(deny, 'modern')).callTool({ name: 'mcp__liar__wipe', arguments: { what: 'other-client' } });
    expect(r.isError).toBe(true);
    // The server redefines the tool: the person approves the new definition, and the tool asks again.
    const allowRedefine = c.callTool({ name: 'mcp__liar__redefine_wipe', arguments: {} });
    await until(() => latest()?.request?.tool === 'mcp__liar__redefine_wipe', 20_000, 'the ask for redefine');
    w.host.gateway.decide(latest()!.request!.requestId, true);
    await allowRedefine;
    await until(
      async () => {
        await w.host.catalog.refresh('liar');
        return w.host.catalog.tool('mcp__liar__wipe').pin === 'changed';
      },
      20_000,
      'the changed definition',
    );
    expect((await w.host.gateway.clients()).find((x) => x.id === askId)!.trustedTools).toEqual([
      { tool: 'mcp__liar__wipe', current: false },
    ]);
    w.host.catalog.approveTool('mcp__liar__wipe', w.host.catalog.tool('mcp__liar__wipe').fingerprint);
    const third = c.callTool({ name: 'mcp__liar__wipe', arguments: { what: 'third' } });
    await until(() => latest()?.request?.arguments.includes('third') === true, 20_000, 'the ask after the change');
    w.host.gateway.decide(latest()!.request!.requestId, false);
    expect((await third).isError).toBe(true);
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

  it('padded arguments: the cut is marked with what is hidden, the whole text can be opened, and Allow waits for it', async () => {
    const dispatch = createDispatcher(createHandlers(w.host));
    const c = await w.http(ask, 'modern');
    // A payload placed after enough padding that the dialog's first part is only padding.
    const label = `padded-probe ${'a'.repeat(ASK_ARGUMENT_CHARS * 3)} PAYLOAD-AFTER-PADDING é`;
    const args = { ms: 1, label };
    const call = c.callTool({ name: 'mcp__fx__write', arguments: args });
    await until(() => latest()?.request?.arguments.includes('padded-probe') === true, 20_000, 'the ask');
    const req = latest()!.request!;
    const whole = JSON.stringify(args, null, 2);
    expect(req.argumentsTruncated).toBe(true);
    expect(req.arguments).not.toContain('PAYLOAD-AFTER-PADDING');
    expect(req.arguments).toHaveLength(ASK_ARGUMENT_CHARS + 1);
    expect(req.argumentsChars).toBe(whole.length);
    expect(req.argumentsBytes).toBe(Buffer.byteLength(JSON.stringify(args), 'utf8'));
    expect(req.argumentsHiddenBytes).toBe(Buffer.byteLength(whole.slice(ASK_ARGUMENT_CHARS), 'utf8'));
    // Allowing before the whole arguments were opened is refused, and the call keeps waiting.
    expect(await dispatch('gateway.decide', { requestId: req.requestId, allow: true })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(w.host.gateway.asks.pending().map((p) => p.requestId)).toEqual([req.requestId]);
    const opened = await dispatch('gateway.requestArguments', { requestId: req.requestId });
    expect(opened).toEqual({ ok: true, value: { text: whole, chars: whole.length } });
    expect(await dispatch('gateway.decide', { requestId: req.requestId, allow: true })).toEqual({ ok: true, value: null });
    const result = await call;
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ label });
    // Once the call is answered its arguments are gone.
    expect(await dispatch('gateway.requestArguments', { requestId: req.requestId })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('arguments whose pretty text would pass the bound are opened whole as compact JSON', async () => {
    const dispatch = createDispatcher(createHandlers(w.host));
    const c = await w.http(ask, 'modern');
    // 1.3 million one-digit items: 2.6 MB as sent, over 8 Mi characters once indented.
    const args = { what: 'huge-probe', items: Array.from({ length: 1_300_000 }, (_, i) => i % 10) };
    expect(JSON.stringify(args, null, 2).length).toBeGreaterThan(FULL_ARGUMENT_CHARS);
    // A tool with the default deadline: building and reading this text must not race the fx server's short one.
    const call = c.callTool({ name: 'mcp__liar__wipe', arguments: args });
    await until(() => latest()?.request?.tool === 'mcp__liar__wipe' && latest()!.request!.argumentsBytes > 1_000_000, 20_000, 'the ask');
    const req = latest()!.request!;
    const compact = JSON.stringify(args);
    expect(req).toMatchObject({ argumentsTruncated: true, argumentsChars: compact.length, argumentsBytes: compact.length });
    const opened = await dispatch('gateway.requestArguments', { requestId: req.requestId });
    expect(opened.ok && (opened.value as { text: string }).text === compact).toBe(true);
    w.host.gateway.decide(req.requestId, false);
    expect((await call).isError).toBe(true);
  });
});

describe('deny', () => {
  it('refuses a tool that calls itself read-only, and runs only the tools the person allowed for the client', async () => {
    const c = await w.http(deny, 'modern');
    const before = requests.length;
    const write = await c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'no' } });
    expect(write.isError).toBe(true);
    expect(textOf(write)).toMatch(/only use the tools allowed for it/);
    const lying = await c.callTool({ name: 'mcp__liar__wipe', arguments: { what: 'deny-profile' } });
    expect(lying.isError).toBe(true);
    expect(textOf(lying)).toMatch(/read-only hint is not enough/);
    const read = await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'not-yet' } });
    expect(read.isError).toBe(true);
    expect(requests.length).toBe(before);
    // The person allows the read tool for this client (through the contract), and only it runs.
    const dispatch = createDispatcher(createHandlers(w.host));
    const view = await dispatch('gateway.trustTool', { id: denyId, tool: 'mcp__fx__read', trusted: true });
    expect(view).toMatchObject({ ok: true, value: { trustedTools: [{ tool: 'mcp__fx__read', current: true }] } });
    expect((await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'yes' } })).isError).not.toBe(true);
    expect((await c.callTool({ name: 'mcp__fx__write', arguments: { ms: 1, label: 'still-no' } })).isError).toBe(true);
    // Taken back: refused again.
    await dispatch('gateway.trustTool', { id: denyId, tool: 'mcp__fx__read', trusted: false });
    expect((await c.callTool({ name: 'mcp__fx__read', arguments: { ms: 1, label: 'taken-back' } })).isError).toBe(true);
    // A tool the client cannot see cannot be allowed for it.
    expect(await dispatch('gateway.trustTool', { id: denyId, tool: 'mcp__nowhere__x', trusted: true })).toMatchObject({ ok: false });
  });
});
