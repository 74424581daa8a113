// Streamable HTTP and legacy SSE through our guarded fetch, against real fixture servers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.js';
import type { ServerConfig } from '../../../shared/config.js';
import { createTransport } from '../../../electron/core/transports/create-transport.js';
import { limitSseEvents } from '../../../electron/core/transports/http-guards.js';
import type { OpenedTransport } from '../../../electron/core/transports/transport-factory.js';
import { collectLog, firstText, legacyClient, remoteConfig, startHttpFixture } from './helpers.js';

type Fixture = Awaited<ReturnType<typeof startHttpFixture>>;
const fixtures: Record<string, Fixture> = {};
const opened: OpenedTransport[] = [];

beforeAll(async () => {
  const [session, stateless, redirect, big, sse] = await Promise.all([
    startHttpFixture('http-server.ts', '--mode', 'session'),
    startHttpFixture('http-server.ts', '--mode', 'stateless'),
    startHttpFixture('redirect-http.ts'),
    startHttpFixture('transport-big-http.ts'),
    startHttpFixture('sse-legacy.ts'),
  ]);
  Object.assign(fixtures, { session, stateless, redirect, big, sse });
}, 60_000);

afterAll(async () => {
  await Promise.all(Object.values(fixtures).map((f) => f.stop()));
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((o) => o.release()));
});

function open(config: ServerConfig): OpenedTransport {
  const { log } = collectLog();
  const o = createTransport({ config, env: {}, log });
  opened.push(o);
  return o;
}

function at(fixture: Fixture, path: string): string {
  return new URL(path, fixture.url).href;
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
}

describe('Streamable HTTP transport', () => {
  it('connects to a sessionful 2025-11-25 server and calls a tool', async () => {
    const o = open(remoteConfig('sess', 'http', fixtures.session!.url));
    const client = legacyClient();
    await client.connect(o.transport);
    expect(o.transport.sessionId).toBeTruthy();
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    await client.close();
  });

  it('negotiates 2026-07-28 with a stateless server in auto mode', async () => {
    const o = open(remoteConfig('stateless', 'http', fixtures.stateless!.url));
    const { Client } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 't', version: '0' }, { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 10_000 } } });
    await client.connect(o.transport);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'modern' } }))).toBe('modern');
    await client.close();
  });

  it('refuses a redirect with redirect_refused, the URL and the status', async () => {
    const o = open(remoteConfig('redir', 'http', fixtures.redirect!.url));
    const error = await rejection(legacyClient().connect(o.transport));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('redirect_refused');
    expect((error as AppError).evidence).toMatchObject({ url: fixtures.redirect!.url, httpStatus: 307 });
    expect(o.diagnostics.evidence()).toMatchObject({ httpStatus: 307 });
  });

  it('refuses a JSON body over the limit while it streams (no Content-Length)', async () => {
    const o = open(remoteConfig('bigjson', 'http', at(fixtures.big!, '/json'), { limits: { messageBytes: 1024 * 1024 } }));
    const client = legacyClient();
    await client.connect(o.transport);
    const started = Date.now();
    const error = await rejection(client.callTool({ name: 'big', arguments: { bytes: 20 * 1024 * 1024 } }));
    console.log(`oversized JSON body refused after ${Date.now() - started} ms`);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('limit_exceeded');
    expect((error as AppError).message).toContain('1 MiB');
    // The session is still usable.
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'ok' } }))).toBe('ok');
    await client.close();
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const o = open(remoteConfig('bigcl', 'http', at(fixtures.big!, '/json-cl'), { limits: { messageBytes: 1024 * 1024 } }));
    const client = legacyClient();
    await client.connect(o.transport);
    const error = await rejection(client.callTool({ name: 'big', arguments: { bytes: 2 * 1024 * 1024 } }));
    expect((error as AppError).code).toBe('limit_exceeded');
    expect((error as AppError).evidence?.httpStatus).toBe(200);
    await client.close();
  });

  it('drops an SSE event over the limit, reports limit_exceeded, and still delivers the next event', async () => {
    const o = open(remoteConfig('bigsse', 'http', at(fixtures.big!, '/sse'), { limits: { messageBytes: 1024 * 1024 } }));
    const client = legacyClient();
    const errors: Error[] = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(o.transport);
    const result = await client.callTool({ name: 'big', arguments: { bytes: 20 * 1024 * 1024 } });
    expect(firstText(result)).toBe('after the big event');
    const limit = errors.find((e) => e instanceof AppError && e.code === 'limit_exceeded') as AppError | undefined;
    expect(limit?.message).toContain('1 MiB');
    await client.close();
  });

  it('refuses an unexpected content type with http_error', async () => {
    const o = open(remoteConfig('html', 'http', at(fixtures.big!, '/html')));
    const client = legacyClient();
    await client.connect(o.transport);
    const error = await rejection(client.callTool({ name: 'big', arguments: {} }));
    expect((error as AppError).code).toBe('http_error');
    expect((error as AppError).evidence?.httpStatus).toBe(200);
    await client.close();
  });

  it('sends custom headers to the server', async () => {
    const o = open(remoteConfig('hdr', 'http', fixtures.big!.url, { headers: { 'X-Api-Key': 'k-123' } }));
    const client = legacyClient();
    await client.connect(o.transport);
    const headers = JSON.parse(firstText(await client.callTool({ name: 'headers', arguments: {} }))) as Record<string, string>;
    expect(headers['x-api-key']).toBe('k-123');
    await client.close();
  });

  it('refuses bad headers from a hand-edited config before any request', async () => {
    const bad: Record<string, string>[] = [
      { 'X-Evil': 'a\r\nInjected: 1' },
      { Authorization: 'Bearer stolen' },
      { 'Mcp-Session-Id': 'fixed' },
    ];
    for (const headers of bad) {
      const base = remoteConfig('badhdr', 'http', fixtures.big!.url);
      const config = { ...base, transport: { ...base.transport, headers } } as ServerConfig;
      const o = open(config);
      const error = await rejection(legacyClient().connect(o.transport));
      expect((error as AppError).code).toBe('config_invalid');
    }
  });

  it('refuses plain http to a non-loopback host from a hand-edited config', async () => {
    const base = remoteConfig('insecure', 'http', fixtures.big!.url);
    const config = { ...base, transport: { ...base.transport, url: 'http://example.com/mcp' } } as ServerConfig;
    const o = open(config);
    const error = await rejection(legacyClient().connect(o.transport));
    expect((error as AppError).code).toBe('url_refused');
  });
});

describe('legacy SSE transport', () => {
  it('connects to a 2024-11-05 SSE server and calls a tool', async () => {
    const o = open(remoteConfig('sse', 'sse', fixtures.sse!.url));
    const client = legacyClient();
    await client.connect(o.transport);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'sse' } }))).toBe('sse');
    await client.close();
  });

  it('refuses a redirect on the event stream with redirect_refused', async () => {
    const o = open(remoteConfig('sse-redir', 'sse', at(fixtures.big!, '/redirect')));
    const error = await rejection(legacyClient().connect(o.transport));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('redirect_refused');
    expect((error as AppError).evidence).toMatchObject({ url: at(fixtures.big!, '/redirect'), httpStatus: 307 });
  });

  it('reports a failed event stream with its HTTP status in the evidence', async () => {
    const o = open(remoteConfig('sse-405', 'sse', fixtures.big!.url));
    await expect(legacyClient().connect(o.transport)).rejects.toThrow();
    expect(o.diagnostics.evidence()).toMatchObject({ httpStatus: 405 });
  });
});

describe('SSE event limiter', () => {
  async function run(input: string[], limit: number): Promise<{ out: string; dropped: number }> {
    let dropped = 0;
    const enc = new TextEncoder();
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        for (const s of input) c.enqueue(enc.encode(s));
        c.close();
      },
    });
    const out = await new Response(limitSseEvents(source, { limit, onDeep: () => undefined, onDiscarded: () => dropped++ })).text();
    return { out, dropped };
  }

  it('passes events under the limit unchanged, whatever the chunking and line endings', async () => {
    const text = 'data: a\n\n: ping\n\ndata: b\r\n\r\nid: 1\rdata: c\r\r';
    const whole = await run([text], 64);
    expect(whole).toEqual({ out: text, dropped: 0 });
    const bytewise = await run(text.split(''), 64);
    expect(bytewise).toEqual({ out: text, dropped: 0 });
  });

  it('turns an over-limit event into an ignored event and keeps the next one', async () => {
    const big = 'data: ' + 'x'.repeat(100) + '\n\n';
    const { out, dropped } = await run(['data: small\n\n', big.slice(0, 30), big.slice(30), 'data: next\n\n'], 64);
    expect(dropped).toBe(1);
    expect(out).toBe('data: small\n\nevent: switchboard-discarded\n\ndata: next\n\n');
  });

  it('counts comment lines toward the event', async () => {
    const { dropped } = await run([': ' + 'c'.repeat(40) + '\n', ': ' + 'c'.repeat(40) + '\n', 'data: x\n\n'], 64);
    expect(dropped).toBe(1);
  });
});
