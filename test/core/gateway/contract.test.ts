// The gateway's contract methods through the real dispatcher: turning it on and off, clients and their tokens
// (returned once, kept only as a digest, rotated, removed), typed errors for bad input, what survives a restart,
// and a corrupt settings file moved aside and reported.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tokenAccount, tokenDigest } from '../../../electron/core/gateway/client-tokens.js';
import { endpointPath } from '../../../electron/core/gateway/endpoint-file.js';
import { GATEWAY_FILE } from '../../../electron/core/gateway/gateway-store.js';
import type { GatewayClientView, GatewayStatus } from '../../../shared/domains/gateway.js';
import { call, cleanup, makeHost, tempDir, type HostHarness } from '../../shared/support/harness.js';

let dir: string;
let h: HostHarness;
beforeEach(() => {
  dir = tempDir('sb-gw-contract-');
  h = makeHost(dir);
});
afterEach(async () => {
  await h.host.shutdown();
  cleanup(dir);
});

const authorized = async (url: string, token: string): Promise<number> =>
  (
    await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    })
  ).status;

describe('gateway contract', () => {
  it('is off by default; on, it listens on 127.0.0.1 and writes the endpoint file; off removes it', async () => {
    const off = await call<GatewayStatus>(h.dispatch, 'gateway.status', {});
    expect(off).toMatchObject({ enabled: false, running: false, clients: 0, sessions: 0, pending: [] });
    const on = await call<GatewayStatus>(h.dispatch, 'gateway.enable', {});
    expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(on.url).toBe(`http://127.0.0.1:${on.port}/mcp`);
    expect(existsSync(endpointPath(dir))).toBe(true);
    expect(statSync(endpointPath(dir)).mode & 0o777).toBe(0o600);
    const disabled = await call<GatewayStatus>(h.dispatch, 'gateway.disable', {});
    expect(disabled).toMatchObject({ enabled: false, running: false, port: on.port });
    expect(existsSync(endpointPath(dir))).toBe(false);
    await expect(fetch(on.url!)).rejects.toThrow();
  });

  it('adds a client (token once, digest in the credential store), rotates and removes it', async () => {
    const { url } = await call<GatewayStatus>(h.dispatch, 'gateway.enable', {});
    const added = await call<GatewayClientView & { token: string }>(h.dispatch, 'gateway.addClient', {
      name: 'Cursor',
      profile: { mode: 'progressive' },
    });
    expect(added).toMatchObject({
      name: 'Cursor',
      profile: { mode: 'progressive', writes: 'ask', names: 'local' },
      sessions: 0,
      runningCalls: 0,
    });
    expect(added.token).toMatch(/^sbg_[0-9a-f]{16}_/);
    expect(await h.credentials.get(tokenAccount(added.id))).toBe(tokenDigest(added.token));
    const listed = await call<GatewayClientView[]>(h.dispatch, 'gateway.clients', {});
    expect(JSON.stringify(listed)).not.toContain(added.token);
    expect(await authorized(url!, added.token)).toBe(200);

    const rotated = await call<{ token: string }>(h.dispatch, 'gateway.rotateToken', { id: added.id });
    expect(await authorized(url!, added.token)).toBe(401);
    expect(await authorized(url!, rotated.token)).toBe(200);

    await call(h.dispatch, 'gateway.updateClient', { id: added.id, name: 'Cursor IDE', profile: { mode: 'all', writes: 'deny' } });
    expect((await call<GatewayClientView[]>(h.dispatch, 'gateway.clients', {}))[0]).toMatchObject({
      name: 'Cursor IDE',
      profile: { writes: 'deny' },
    });

    await call(h.dispatch, 'gateway.removeClient', { id: added.id });
    expect(await authorized(url!, rotated.token)).toBe(401);
    expect(await h.credentials.get(tokenAccount(added.id))).toBeNull();
    for (const f of readdirSync(dir))
      if (statSync(join(dir, f)).isFile()) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(rotated.token);
  });

  it('refuses bad input with typed errors', async () => {
    const bad = async (method: string, args: unknown) => {
      const r = await h.dispatch(method, args);
      return r.ok ? undefined : r.error.code;
    };
    expect(await bad('gateway.addClient', { name: '', profile: { mode: 'all' } })).toBe('invalid_request');
    expect(await bad('gateway.addClient', { name: 'x\u202Ey', profile: { mode: 'all' } })).toBe('invalid_request');
    expect(await bad('gateway.addClient', { name: 'ok', profile: { mode: 'everything' } })).toBe('invalid_request');
    expect(await bad('gateway.addClient', { name: 'ok', profile: { mode: 'all', servers: ['Bad Id'] } })).toBe('invalid_request');
    expect(await bad('gateway.addClient', { name: 'ok', profile: { mode: 'all', servers: ['ghost'] } })).toBe('config_invalid');
    expect(await bad('gateway.addClient', { name: 'ok', profile: { mode: 'all', extra: 1 } })).toBe('invalid_request');
    await call(h.dispatch, 'gateway.addClient', { name: 'Same', profile: { mode: 'all' } });
    expect(await bad('gateway.addClient', { name: 'same', profile: { mode: 'all' } })).toBe('id_conflict');
    expect(await bad('gateway.removeClient', { id: '0123456789abcdef' })).toBe('not_found');
    expect(await bad('gateway.removeClient', { id: '../x' })).toBe('invalid_request');
    expect(await bad('gateway.decide', { requestId: 'nope', allow: true })).toBe('not_found');
    expect(await bad('gateway.enable', { port: 70000 })).toBe('invalid_request');
  });

  it('a taken port is a clear error; on and the clients survive a restart, on the same port', async () => {
    const first = await call<GatewayStatus>(h.dispatch, 'gateway.enable', {});
    const added = await call<{ token: string }>(h.dispatch, 'gateway.addClient', { name: 'Desk', profile: { mode: 'all' } });
    const other = makeHost(tempDir('sb-gw-other-'));
    try {
      const taken = await other.dispatch('gateway.enable', { port: first.port });
      expect(taken).toMatchObject({ ok: false, error: { code: 'port_in_use' } });
      expect(!taken.ok && taken.error.message).toMatch(new RegExp(`Port ${first.port}`));
    } finally {
      await other.host.shutdown();
      cleanup(other.dir);
    }
    await h.host.shutdown();
    expect(existsSync(endpointPath(dir))).toBe(false);
    h = makeHost(dir, { credentials: h.credentials });
    await h.host.start();
    const again = await call<GatewayStatus>(h.dispatch, 'gateway.status', {});
    expect(again).toMatchObject({ enabled: true, running: true, port: first.port, clients: 1 });
    expect(await authorized(again.url!, added.token)).toBe(200);
  });

  it('a corrupt settings file is moved aside and reported; the gateway starts off', async () => {
    await h.host.shutdown();
    writeFileSync(join(dir, GATEWAY_FILE), '{"version":1,"enabled":tru');
    h = makeHost(dir);
    expect(h.host.info().notices.find((n) => n.id === 'gateway-settings-corrupt')?.message).toMatch(/moved aside/);
    expect(readdirSync(dir).some((f) => f.startsWith('gateway.corrupt-'))).toBe(true);
    expect(h.host.gateway.status()).toMatchObject({ enabled: false, clients: 0 });
  });
});
