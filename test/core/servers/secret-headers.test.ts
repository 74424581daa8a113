// Secret header values: credential-like names (X-Api-Key, *-Token, …) and headers marked secret are kept in the
// credential store like secret env values, never in the settings file, exports, servers.get or logs; the transport
// still sends the real value to the server.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isSensitiveHeaderName } from '../../../shared/config.js';
import type { ImportResult, ServerDetail } from '../../../shared/contract.js';
import { headerSecretAccount } from '../../../electron/core/servers/secrets.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';
import { makeAuthHost, type AuthHarness } from '../auth/helpers.js';

const CANARY = 'sb_CANARY_header_9f3';
let dir: string;
let h: HostHarness;
beforeEach(() => {
  dir = tempDir();
  h = makeHost(dir);
});
afterEach(() => cleanup(dir));
const settingsText = () => readFileSync(join(dir, 'config.json'), 'utf8');

describe('credential-like header names', () => {
  it.each(['X-Api-Key', 'api-key', 'X-Auth-Token', 'X-Client-Secret', 'X-Session', 'Private-Token', 'X-Password'])('%s is secret', (n) =>
    expect(isSensitiveHeaderName(n)).toBe(true),
  );
  it.each(['X-Team', 'Accept-Language', 'X-Region', 'X-Api-Version'])('%s is not', (n) => expect(isSensitiveHeaderName(n)).toBe(false));
});

describe('secret headers', () => {
  const add = (headers: Record<string, unknown>) =>
    call<ServerDetail>(h.dispatch, 'servers.add', {
      config: { id: 'api', name: 'API', transport: { type: 'http', url: 'https://api.example.com/mcp', headers }, startup: 'manual' },
    });

  it('stores a credential-like header in the credential store even when typed as plain text, and never shows it', async () => {
    const detail = await add({ 'X-Api-Key': CANARY, 'X-Team': 'blue', 'X-Region': { secret: true, value: 'eu-secret' } });
    expect(detail.config.transport).toMatchObject({
      headers: { 'X-Api-Key': { secret: true, isSet: true }, 'X-Team': 'blue', 'X-Region': { secret: true, isSet: true } },
    });
    expect(await h.credentials.get(headerSecretAccount('api', 'X-Api-Key'))).toBe(CANARY);
    expect(settingsText()).not.toContain(CANARY);
    expect(settingsText()).not.toContain('eu-secret');
    expect(JSON.stringify(await call(h.dispatch, 'servers.get', { id: 'api' }))).not.toContain(CANARY);
    for (const format of ['claude', 'vscode', 'cursor']) {
      const out = await call<{ text: string }>(h.dispatch, 'servers.export', { format });
      expect(out.text).not.toContain(CANARY);
      expect(out.text).not.toContain('eu-secret');
      if (format === 'vscode') expect(out.text).toContain('${input:api-x-api-key}');
    }
  });

  it('keeps the stored value when edited without one, deletes it when the header goes or the server is removed', async () => {
    await add({ 'X-Api-Key': CANARY });
    await call(h.dispatch, 'servers.update', {
      id: 'api',
      config: {
        id: 'api',
        name: 'API',
        transport: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Api-Key': { secret: true } } },
      },
    });
    expect(await h.credentials.get(headerSecretAccount('api', 'X-Api-Key'))).toBe(CANARY);
    await call(h.dispatch, 'servers.update', {
      id: 'api',
      config: { id: 'api', name: 'API', transport: { type: 'http', url: 'https://api.example.com/mcp', headers: {} } },
    });
    expect(await h.credentials.get(headerSecretAccount('api', 'X-Api-Key'))).toBeNull();
    await add({ 'X-Other-Token': CANARY }).catch(() => undefined);
    const fail = await h.dispatch('servers.add', {
      config: {
        id: 'new',
        name: 'New',
        transport: { type: 'http', url: 'https://x.example/mcp', headers: { 'X-Api-Key': { secret: true } } },
      },
    });
    expect(fail.ok).toBe(false);
    expect(!fail.ok && fail.error.message).toMatch(/a value is required for a new secret/);
  });

  it('marks imported credential-like headers and VS Code prompted headers secret', async () => {
    const text = JSON.stringify({
      inputs: [{ type: 'promptString', id: 'k', description: 'Key', password: true }],
      servers: {
        plain: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Api-Key': CANARY } },
        prompted: { type: 'http', url: 'https://api.example.com/mcp', headers: { 'X-Custom': '${input:k}' } },
      },
    });
    const result = await call<ImportResult>(h.dispatch, 'servers.import', {
      text,
      format: 'vscode',
      secrets: { prompted: { 'X-Custom': 'prompted-value' } },
    });
    expect(result.added.sort()).toEqual(['plain', 'prompted']);
    expect(settingsText()).not.toContain(CANARY);
    expect(settingsText()).not.toContain('prompted-value');
    expect(await h.credentials.get(headerSecretAccount('plain', 'X-Api-Key'))).toBe(CANARY);
    expect(await h.credentials.get(headerSecretAccount('prompted', 'X-Custom'))).toBe('prompted-value');
  });
});

describe('on the wire', () => {
  let a: AuthHarness | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await a?.cleanup();
    server?.closeAllConnections();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
  });

  it('sends the stored secret value to the server', async () => {
    const seen: IncomingHttpHeaders[] = [];
    server = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    a = makeAuthHost();
    await a.host.add({ id: 'w', name: 'w', transport: { type: 'http', url, headers: { 'X-Api-Key': CANARY } }, startup: 'manual' });
    await a.sessions.connect('w').catch(() => undefined);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]?.['x-api-key']).toBe(CANARY);
    expect(a.logs.join('\n')).not.toContain(CANARY);
    expect(JSON.stringify(a.sessions.logs('w'))).not.toContain(CANARY);
  });
});
