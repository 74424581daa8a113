// Traces end to end: a real core with real stdio fixture servers sends its spans to an OTLP/HTTP receiver on
// loopback; each call is one trace holding its round trips, and no secret or argument value is ever sent.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultSettings, type ServerConfigInput } from '../../../shared/config.js';
import type { CallOutcome } from '../../../shared/domains/calls.js';
import { createDispatcher, type Dispatch } from '../../../electron/core/dispatcher.js';
import { createHandlers } from '../../../electron/core/handlers.js';
import { ATTR } from '../../../electron/core/telemetry/attributes.js';
import type { Host } from '../../../electron/core/host.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { call, cleanup, confSettingsStore, tempDir, testCore } from '../../shared/support/harness.js';
import { addApproved, fixture, REPO_ROOT } from '../sessions/helpers.js';
import { eventsStdio, tool, untilEvents, untilState } from '../events/helpers.js';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.js';

const SECRET = 'sk-live-7f3a9c1e-never-in-traces';
const ARGUMENT = 'argument-value-b81d-not-in-traces';

function server(
  id: string,
  script: string,
  env: ServerConfigInput['transport'] extends infer T ? (T extends { env?: infer E } ? E : never) : never = {},
): ServerConfigInput {
  return {
    id,
    name: id,
    transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', fixture(script)], env, cwd: REPO_ROOT },
    startup: 'manual',
  };
}

describe('OpenTelemetry traces', () => {
  let receiver: OtlpReceiver;
  let dir: string;
  let h: { host: Host } | undefined;
  let dispatch: Dispatch;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    dir = tempDir('sb-otlp-');
    // The core as bootstrap builds it: its own session manager over the whole transport pipeline.
    const host = testCore({
      settingsStore: confSettingsStore(dir),
      credentials: new MemoryCredentialStore(),
      otlpEndpoint: receiver.endpoint,
      otlpDelayMs: 50,
    });
    h = { host };
    dispatch = createDispatcher(createHandlers(h.host));
  });
  afterEach(async () => {
    await h?.host.shutdown();
    await receiver.close();
    cleanup(dir);
  });

  /** Shuts the core down (which sends what is buffered) and returns every span received. */
  async function finish(): Promise<ReceivedSpan[]> {
    await h!.host.shutdown();
    h = undefined;
    return receiver.spans;
  }

  const children = (spans: ReceivedSpan[], parent: ReceivedSpan): ReceivedSpan[] =>
    spans.filter((s) => s.parentSpanId === parent.spanId && s.traceId === parent.traceId);

  it('sends one trace per tool call with its round trip, a connect with its handshake and a resource read, and no secret', async () => {
    await addApproved(h!.host, server('echo', 'echo-stdio.ts', { API_TOKEN: { secret: true, value: SECRET } }));
    await call(dispatch, 'servers.connect', { id: 'echo' });
    await call(dispatch, 'catalog.refresh', { id: 'echo' });
    const first = await call<CallOutcome>(dispatch, 'tools.call', { name: 'mcp__echo__echo', arguments: { text: ARGUMENT } });
    const second = await call<CallOutcome>(dispatch, 'tools.call', { name: 'mcp__echo__add', arguments: { a: 2, b: 3 } });
    expect([first.status, second.status]).toEqual(['ok', 'ok']);
    await call(dispatch, 'resources.read', { id: 'echo', uri: 'fixture://readme' });
    const spans = await finish();

    expect(spans.every((s) => s.service === 'switchboard')).toBe(true);
    const calls = spans.filter((s) => s.name.startsWith('call '));
    expect(calls.map((s) => s.name).sort()).toEqual(['call add', 'call echo']);
    // One trace per call: distinct traces, each rooted at its call, the call's tools/call round trip inside it.
    expect(new Set(calls.map((s) => s.traceId)).size).toBe(2);
    for (const c of calls) {
      expect(c.parentSpanId).toBeUndefined();
      expect(c.attributes[ATTR.serverId]).toBe('echo');
      expect(c.attributes[ATTR.status]).toBe('ok');
      expect(c.attributes[ATTR.resultBytes]).toBeGreaterThan(0);
      const trips = children(spans, c);
      expect(trips.map((s) => s.name)).toEqual([`tools/call ${String(c.attributes[ATTR.tool])}`]);
      expect(trips[0]!.attributes[ATTR.method]).toBe('tools/call');
      expect(trips[0]!.attributes[ATTR.protocolVersion]).toBe('2026-07-28');
      expect(trips[0]!.attributes[ATTR.responseBytes]).toBeGreaterThan(0);
      expect(spans.filter((s) => s.traceId === c.traceId)).toHaveLength(2);
    }
    const echoCall = calls.find((s) => s.name === 'call echo')!;
    expect(echoCall.attributes[ATTR.callId]).toBe(first.callId);

    // The connect is its own trace, with the handshake as its child.
    const connect = spans.find((s) => s.name === 'connect echo');
    expect(connect?.attributes[ATTR.transport]).toBe('stdio');
    const handshake = children(spans, connect!);
    expect(handshake.map((s) => s.attributes[ATTR.method])).toEqual([expect.stringMatching(/^(initialize|server\/discover)$/)]);

    const read = spans.find((s) => s.name === 'read resource');
    expect(read?.attributes[ATTR.resourceUri]).toBe('fixture://readme');
    expect(children(spans, read!).map((s) => s.name)).toEqual(['resources/read fixture://readme']);

    const everything = receiver.bodies.join('\n');
    expect(everything).toContain('mcp__echo__echo');
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(ARGUMENT);
  }, 60_000);

  it("puts a task-augmented call's polls in the call's trace", async () => {
    await addApproved(h!.host, { ...server('tk', 'calls-tasks-raw.ts', { TASK_POLL_MS: '100' }), tasks: true, lifecycle: 'initialize' });
    await call(dispatch, 'servers.connect', { id: 'tk' });
    await call(dispatch, 'catalog.refresh', { id: 'tk' });
    const outcome = await call<CallOutcome>(dispatch, 'tools.call', { name: 'mcp__tk__long', arguments: { ms: 500 } });
    expect(outcome.status).toBe('ok');
    const spans = await finish();
    const callSpan = spans.find((s) => s.name === 'call long')!;
    const inTrace = spans.filter((s) => s.traceId === callSpan.traceId);
    const polls = inTrace.filter((s) => s.attributes[ATTR.method] === 'tasks/get');
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(inTrace.filter((s) => s.attributes[ATTR.method] === 'tools/call')).toHaveLength(1);
    // Every span of the call's trace descends from the call.
    const ids = new Set(inTrace.map((s) => s.spanId));
    for (const s of inTrace) if (s !== callSpan) expect(ids.has(s.parentSpanId!)).toBe(true);
  }, 60_000);

  it('fails a span whose tool call fails, with its code and no message', async () => {
    await addApproved(h!.host, server('echo', 'echo-stdio.ts'));
    await call(dispatch, 'servers.connect', { id: 'echo' });
    await call(dispatch, 'catalog.refresh', { id: 'echo' });
    const outcome = await call<CallOutcome>(dispatch, 'tools.call', { name: 'mcp__echo__add', arguments: { a: 'not a number', b: 1 } });
    expect(outcome.status).toBe('error');
    const spans = await finish();
    const failed = spans.find((s) => s.name === 'call add')!;
    expect(failed.statusCode).toBe(2);
    expect(failed.attributes['error.type']).toBe(outcome.error?.code);
    expect(receiver.bodies.join('\n')).not.toContain('not a number');
  }, 60_000);

  it('makes each gateway request a server span holding the call it carried, without the client token', async () => {
    await addApproved(h!.host, server('echo', 'echo-stdio.ts'));
    await call(dispatch, 'servers.connect', { id: 'echo' });
    await call(dispatch, 'catalog.refresh', { id: 'echo' });
    const status = await h!.host.gateway.enable(0);
    const added = await h!.host.gateway.addClient('tracer', { mode: 'all', writes: 'allow' });
    const client = new Client({ name: 'otlp-test', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(status.url!), { requestInit: { headers: { Authorization: `Bearer ${added.token}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      const echo = tools.find((t) => t.name.endsWith('echo'))!;
      const result = await client.callTool({ name: echo.name, arguments: { text: ARGUMENT } });
      expect(result.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    const spans = await finish();
    const requests = spans.filter((s) => s.name === 'gateway tools/call');
    expect(requests).toHaveLength(1);
    const request = requests[0]!;
    expect(request.kind).toBe(2); // SERVER
    expect(request.parentSpanId).toBeUndefined();
    expect(request.attributes[ATTR.gatewayClient]).toBe(added.id);
    expect(request.attributes[ATTR.httpStatus]).toBe(200);
    const inner = children(spans, request);
    expect(inner.map((s) => s.name)).toEqual(['call echo']);
    expect(inner[0]!.attributes[ATTR.origin]).toBe('gateway');
    expect(children(spans, inner[0]!).map((s) => s.name)).toEqual(['tools/call echo']);
    expect(spans.some((s) => s.name === 'gateway tools/list')).toBe(true);
    const everything = receiver.bodies.join('\n');
    expect(everything).not.toContain(added.token);
    expect(everything).not.toContain(ARGUMENT);
  }, 60_000);

  it('ends a gateway request span when its SSE response has ended, not when its headers went out', async () => {
    await addApproved(h!.host, server('echo', 'echo-stdio.ts'));
    await call(dispatch, 'servers.connect', { id: 'echo' });
    await call(dispatch, 'catalog.refresh', { id: 'echo' });
    const status = await h!.host.gateway.enable(0);
    const added = await h!.host.gateway.addClient('streamer', { mode: 'all', writes: 'allow' });
    const client = new Client({ name: 'otlp-sse', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(status.url!), { requestInit: { headers: { Authorization: `Bearer ${added.token}` } } }),
    );
    let progress = 0;
    try {
      const { tools } = await client.listTools();
      const slow = tools.find((t) => t.name.endsWith('slow'))!;
      // Progress asked for: the gateway answers with an SSE stream whose headers go out with the first notification.
      const result = await client.callTool({ name: slow.name, arguments: { ms: 300, steps: 3 } }, { onprogress: () => void progress++ });
      expect(result.isError).not.toBe(true);
    } finally {
      await client.close();
    }
    expect(progress).toBeGreaterThanOrEqual(1);
    const spans = await finish();
    const request = spans.find((s) => s.name === 'gateway tools/call')!;
    const inner = children(spans, request);
    expect(inner.map((s) => s.name)).toEqual(['call slow']);
    // The call finished while the stream was open; the request's span lasts until the stream's last byte.
    expect(request.endNano).toBeGreaterThanOrEqual(inner[0]!.endNano);
    expect(request.attributes[ATTR.responseBytes]).toBeGreaterThan(0);
    expect(request.statusCode).not.toBe(2);
  }, 60_000);

  it('makes each delivery of events a span with its counts', async () => {
    const host = h!.host;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 3 });
    expect(await untilEvents(host, sub.id, 3)).toHaveLength(3);
    const spans = await finish();
    const deliveries = spans.filter((s) => s.name === 'deliver events');
    expect(deliveries.length).toBeGreaterThanOrEqual(1);
    for (const d of deliveries) {
      expect(d.attributes[ATTR.serverId]).toBe('ev');
      expect(d.attributes[ATTR.eventName]).toBe('tick.push');
      expect(d.attributes[ATTR.eventDelivery]).toBe('push');
    }
    const stored = deliveries.reduce((n, d) => n + Number(d.attributes['switchboard.event.stored'] ?? 0), 0);
    expect(stored).toBe(3);
  }, 60_000);

  it('takes the endpoint from the settings file when no override is given', async () => {
    await h!.host.shutdown();
    const other = tempDir('sb-otlp-settings-');
    try {
      const store = confSettingsStore(other);
      store.save({ ...defaultSettings(), telemetry: { otlpEndpoint: receiver.endpoint } });
      h = { host: testCore({ settingsStore: confSettingsStore(other), credentials: new MemoryCredentialStore(), otlpDelayMs: 50 }) };
      await addApproved(h.host, server('echo', 'echo-stdio.ts'));
      await h.host.sessions.connect('echo');
      const spans = await finish();
      expect(spans.filter((s) => s.name === 'connect echo')).toHaveLength(1);
    } finally {
      cleanup(other);
    }
  }, 60_000);
});
