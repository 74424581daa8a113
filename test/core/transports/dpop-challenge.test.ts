// A use_dpop_nonce challenge (RFC 9449 §8/§9) is the protocol asking for a nonce, not a failure: the guarded fetch
// logs it at info with what it is, and any other error status (even with a DPoP-Nonce header) stays a warning.
// The response body is still the caller's to read whole. Real HTTP server on 127.0.0.1.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedFetch } from '../../../electron/core/transports/http-guards.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/token') json(400, { error: 'use_dpop_nonce', error_description: 'nonce' }, { 'dpop-nonce': 'n-1' });
    else if (req.url === '/mcp')
      json(401, { error: 'unauthorized' }, { 'dpop-nonce': 'n-2', 'www-authenticate': 'DPoP error="use_dpop_nonce", algs="ES256"' });
    else if (req.url === '/refused') json(400, { error: 'invalid_grant' }, { 'dpop-nonce': 'n-3' });
    else json(401, { error: 'unauthorized' }, { 'www-authenticate': 'DPoP error="use_dpop_nonce"' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  expect(server.listening).toBe(false);
});

function guarded() {
  const lines: { level: string; text: string }[] = [];
  const guard = createGuardedFetch({
    serverId: 's',
    serverUrl: `${base}/mcp`,
    allowInsecureHttp: false,
    headers: {},
    messageBytes: 1024 * 1024,
    kind: 'http',
    log: (_source, level, text) => lines.push({ level, text }),
    report: () => undefined,
  });
  return { fetch: guard.fetch, lines };
}

describe('the guarded fetch and DPoP nonce challenges', () => {
  it('logs a token endpoint use_dpop_nonce (400) at info, body intact', async () => {
    const { fetch, lines } = guarded();
    const res = await fetch(`${base}/token`, { method: 'POST' });
    expect(((await res.json()) as { error: string }).error).toBe('use_dpop_nonce');
    expect(lines).toEqual([{ level: 'info', text: expect.stringMatching(/asked for a fresh DPoP nonce \(use_dpop_nonce, HTTP 400\)/) }]);
  });

  it('logs a resource server use_dpop_nonce (401) at info', async () => {
    const { fetch, lines } = guarded();
    const res = await fetch(`${base}/mcp`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await res.body?.cancel();
    expect(lines.map((l) => l.level)).toEqual(['info']);
    expect(lines[0]?.text).toMatch(/HTTP 401/);
  });

  it('keeps other refusals as warnings, with or without a nonce header', async () => {
    const { fetch, lines } = guarded();
    for (const path of ['/refused', '/no-nonce']) {
      const res = await fetch(`${base}${path}`, { method: 'POST' });
      await res.text();
    }
    expect(lines.map((l) => [l.level, l.text])).toEqual([
      ['warning', `HTTP 400 from POST ${base}/refused`],
      ['warning', `HTTP 401 from POST ${base}/no-nonce`],
    ]);
  });
});
