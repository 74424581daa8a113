// The protocol view's traffic through real sessions: request/response pairs with method, sizes and timing, and
// secrets that never reach an entry — a secret env value echoed by server-everything's get-env tool, and a
// bearer token echoed by an HTTP server.
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { addHttpServer, makeAuthHost, type AuthHarness } from '../auth/helpers.js';
import { addApproved, fixture, makeSessionHost, startHttpFixture, type SessionHarness } from '../sessions/helpers.js';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const ENV_CANARY = 'CANARY_env_3f9d1c7a55';
const BEARER_CANARY = 'CANARY_bearer_8b21e0f4d6';
const HEADER_CANARY = 'CANARY_header_51c0a9e2';

describe('traffic of a stdio session', () => {
  let dir: string;
  let h: SessionHarness;
  beforeAll(async () => {
    dir = tempDir('sb-traffic-');
    h = makeSessionHost(dir);
    await addApproved(h.host, {
      id: 'ev',
      name: 'Everything',
      transport: {
        type: 'stdio',
        command: process.execPath,
        args: [everything, 'stdio'],
        env: { SB_TOKEN: { secret: true, value: ENV_CANARY } },
      },
      startup: 'manual',
      lifecycle: 'initialize',
    });
  }, 60_000);
  afterAll(async () => {
    await h.host.shutdown();
    cleanup(dir);
  });

  it('records each call as a request/response pair with method, id, sizes and duration', async () => {
    await h.host.catalog.refresh('ev');
    const outcome = await h.host.calls.call({ name: 'mcp__ev__echo', arguments: { message: 'ping-traffic' } });
    expect(outcome.status).toBe('ok');
    const log = h.host.clientFeatures.traffic;
    const entries = log.entries({ serverId: 'ev' }).entries;
    expect(entries[0]).toMatchObject({ direction: 'out', kind: 'request', method: 'initialize', id: expect.any(String) });
    const request = entries.find((e) => e.direction === 'out' && e.method === 'tools/call' && e.payload.includes('ping-traffic'))!;
    expect(request.kind).toBe('request');
    expect(request.bytes).toBeGreaterThan(40);
    const response = entries.find((e) => e.direction === 'in' && e.id === request.id && e.seq > request.seq)!;
    expect(response).toMatchObject({ kind: 'response', method: 'tools/call' });
    expect(response.durationMs).toBeGreaterThanOrEqual(0);
    expect(response.payload).toContain('Echo: ping-traffic');
    expect(JSON.parse(response.payload)).toMatchObject({ jsonrpc: '2.0', result: { content: [{ type: 'text' }] } });
    // Filters: direction, method and text.
    expect(
      log
        .entries({ serverId: 'ev', direction: 'in', method: 'TOOLS/CALL' })
        .entries.every((e) => e.direction === 'in' && e.method === 'tools/call'),
    ).toBe(true);
    expect(log.entries({ text: 'ping-traffic' }).entries.length).toBeGreaterThanOrEqual(2);
    // Notifications have no id and no duration.
    const initialized = entries.find((e) => e.method === 'notifications/initialized')!;
    expect(initialized).toMatchObject({ kind: 'notification', direction: 'out' });
    expect(initialized.id).toBeUndefined();
  }, 30_000);

  it('never shows a secret env value the server echoes back, nor sends it in events', async () => {
    const outcome = await h.host.calls.call({ name: 'mcp__ev__get_env', arguments: {} });
    expect(outcome.status).toBe('ok');
    // The tool really did echo it: the full envelope (kept in the core) has it.
    expect(JSON.stringify(h.host.calls.result(outcome.callId).result)).toContain(ENV_CANARY);
    const { entries } = h.host.clientFeatures.traffic.entries({ serverId: 'ev', method: 'tools/call' });
    const echoed = entries.find((e) => e.direction === 'in' && e.payload.includes('SB_TOKEN'));
    expect(echoed?.payload).toContain('[redacted]');
    h.host.clientFeatures.traffic.flush();
    const pushed = h.events
      .filter((e) => e.event === 'protocol.traffic')
      .flatMap((e) => (e.payload as EventMap['protocol.traffic']).entries);
    expect(pushed.some((e) => e.payload.includes('SB_TOKEN'))).toBe(true);
    expect(JSON.stringify(h.host.clientFeatures.traffic.entries())).not.toContain(ENV_CANARY);
    expect(JSON.stringify(pushed)).not.toContain(ENV_CANARY);
  }, 30_000);

  it('clears one server’s traffic and announces it', async () => {
    h.host.clientFeatures.traffic.clear('ev');
    expect(h.host.clientFeatures.traffic.entries({ serverId: 'ev' }).total).toBe(0);
    expect(h.events.some((e) => e.event === 'protocol.cleared' && (e.payload as { serverId?: string }).serverId === 'ev')).toBe(true);
  });
});

describe('traffic of an HTTP session with a bearer token', () => {
  let h: AuthHarness | undefined;
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await h?.cleanup();
    await stop?.();
  });

  it('never shows the bearer token, even when the server echoes it', async () => {
    const server = await startHttpFixture(fixture('echo-auth-http.ts'));
    stop = server.stop;
    h = makeAuthHost();
    await addHttpServer(h.host, 'web', server.url);
    await h.auth.setBearer('web', BEARER_CANARY);
    expect((await h.sessions.connect('web')).state).toBe('connected');
    await h.host.catalog.refresh('web');
    const outcome = await h.host.calls.call({ name: 'mcp__web__whoami', arguments: {} });
    expect(JSON.stringify(h.host.calls.result(outcome.callId).result)).toContain(BEARER_CANARY);
    const { entries } = h.host.clientFeatures.traffic.entries({ serverId: 'web' });
    const answer = entries.find((e) => e.direction === 'in' && e.method === 'tools/call');
    expect(answer?.payload).toContain('You sent: Bearer [redacted]');
    expect(JSON.stringify(entries)).not.toContain(BEARER_CANARY);
    h.host.clientFeatures.traffic.flush();
    const pushed = h.events.filter((e) => e.event === 'protocol.traffic');
    expect(JSON.stringify(pushed)).toContain('whoami');
    expect(JSON.stringify(pushed)).not.toContain(BEARER_CANARY);
  }, 60_000);

  it('never shows a secret header value, even when the server echoes it', async () => {
    const server = await startHttpFixture(fixture('echo-auth-http.ts'));
    stop = server.stop;
    h = makeAuthHost();
    await h.host.add({
      id: 'keyed',
      name: 'keyed',
      transport: {
        type: 'http',
        url: server.url,
        headers: { 'X-Api-Key': { secret: true, value: HEADER_CANARY } },
        allowInsecureHttp: false,
      },
      startup: 'manual',
    });
    expect((await h.sessions.connect('keyed')).state).toBe('connected');
    await h.host.catalog.refresh('keyed');
    const outcome = await h.host.calls.call({ name: 'mcp__keyed__whoami', arguments: {} });
    expect(JSON.stringify(h.host.calls.result(outcome.callId).result)).toContain(HEADER_CANARY);
    const { entries } = h.host.clientFeatures.traffic.entries({ serverId: 'keyed' });
    const answer = entries.find((e) => e.direction === 'in' && e.method === 'tools/call');
    expect(answer?.payload).toContain('key [redacted]');
    expect(JSON.stringify(entries)).not.toContain(HEADER_CANARY);
  }, 60_000);
});
