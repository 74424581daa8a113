// A gateway client meets a server whose approved secret is gone (no keychain: secrets in memory) and is told which
// secret and what to do, never "waiting for its launch to be approved": after a restart, in the groups directory of
// a progressive client; and when a call's launch is refused because the secret is no longer in the store. Real cores
// on one data folder, a real stdio fixture server, real SDK clients over HTTP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import type { ServerConfigInput } from '../../../shared/config.js';
import { envSecretAccount } from '../../../electron/core/servers/secrets.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';
import { fixture, stdioServer, textOf } from './harness.js';

const SECRET = 'CANARY_SECRET_71c2';
let dir: string;
let hosts: Host[];
let clients: Client[];

function startCore(credentials = new MemoryCredentialStore()): { host: Host; credentials: MemoryCredentialStore } {
  const host = testCore({ settingsStore: settingsStoreIn(dir), credentials });
  hosts.push(host);
  return { host, credentials };
}

async function open(url: string, token: string): Promise<Client> {
  const c = new Client({ name: 'lost-secrets-test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(c);
  return c;
}

/** The weather server's definition: its secret (a value, or none to keep the stored one) and further env. */
function weather(secret: { secret: true; value?: string }, env: Record<string, string> = {}): ServerConfigInput {
  const input = stdioServer('weather', fixture('calls-stdio.ts'), { name: 'Weather' });
  if (input.transport.type !== 'stdio') throw new Error('stdio expected');
  return { ...input, transport: { ...input.transport, env: { ...env, WEATHER_API_KEY: secret } } };
}

/** Adds the weather server with its secret, approves its launch, connects it and publishes its tools. */
async function addWeather(host: Host): Promise<void> {
  const detail = await host.add(weather({ secret: true, value: SECRET }));
  await host.approve('weather', detail.approval!.fingerprint);
  await host.sessions.connect('weather');
  await host.catalog.refresh('weather');
}

const NAMED =
  "Weather cannot start: the secret WEATHER_API_KEY is no longer stored in Switchboard. Open Switchboard and enter it again on Weather's page, then try again.";

beforeEach(() => {
  dir = tempDir('sb-lost-secret-');
  hosts = [];
  clients = [];
});

afterEach(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const host of hosts) await host.shutdown();
  cleanup(dir);
});

describe('a server whose secret was lost', () => {
  it('is named with its fix in a progressive client’s groups after a restart without a keychain', async () => {
    const first = startCore().host;
    await first.start();
    await addWeather(first);
    await first.shutdown();

    const second = startCore().host;
    await second.start();
    const url = (await second.gateway.enable(0)).url!;
    const { token } = await second.gateway.addClient('explorer', { mode: 'progressive', writes: 'allow' });
    const c = await open(url, token);
    const groups = JSON.parse(textOf(await c.callTool({ name: 'tools_groups', arguments: {} }))) as {
      groups: { id: string; status?: string }[];
    };
    const status = groups.groups.find((g) => g.id === 'mcp:weather')?.status;
    expect(status).toBe(NAMED);
    expect(status).not.toMatch(/waiting for its launch/);
    expect(JSON.stringify(groups)).not.toContain(SECRET);
  });

  it('after a restart without a keychain, a call to one of its tools names the secret, never "Unknown tool"', async () => {
    const first = startCore().host;
    await first.start();
    await addWeather(first);
    expect(first.catalog.tool('mcp__weather__read').serverId).toBe('weather');
    await first.shutdown();

    const second = startCore().host;
    await second.start();
    // The server never listed in this run: its tools are not in the catalog.
    expect(() => second.catalog.tool('mcp__weather__read')).toThrow();
    // The person's call (tools.call): the typed error, naming the secret and the fix.
    const call = second.calls.call({ name: 'mcp__weather__read', arguments: { ms: 1, label: 'x' } });
    await expect(call).rejects.toMatchObject({
      code: 'secret_missing',
      serverId: 'weather',
      evidence: { missingSecrets: ['WEATHER_API_KEY'] },
    });
    await expect(call).rejects.toThrow(/secret missing: the secret WEATHER_API_KEY is no longer stored\. Enter it again/);
    // A name the server never had, with its prefix, is still its tool as far as anyone can tell: the same answer.
    await expect(second.calls.call({ name: 'mcp__weather__nope', arguments: {} })).rejects.toMatchObject({ code: 'secret_missing' });
    // Another server's unknown tool is still unknown.
    await expect(second.calls.call({ name: 'mcp__other__read', arguments: {} })).rejects.toMatchObject({ code: 'not_found' });

    // A gateway client (issued in this run: its earlier token was lost too).
    const url = (await second.gateway.enable(0)).url!;
    const { token } = await second.gateway.addClient('apps', { mode: 'all', writes: 'allow' });
    const c = await open(url, token);
    const result = await c.callTool({ name: 'mcp__weather__read', arguments: { ms: 1, label: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(NAMED);
    expect(textOf(result)).not.toMatch(/Unknown tool/);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // A client served under the server's own names calls `read`.
    const own = await second.gateway.addClient('own-names', { mode: 'all', servers: ['weather'], names: 'original', writes: 'allow' });
    const byOriginal = await (await open(url, own.token)).callTool({ name: 'read', arguments: { ms: 1, label: 'x' } });
    expect(byOriginal.isError).toBe(true);
    expect(textOf(byOriginal)).toBe(NAMED);
  });

  it('is named with its fix when a call’s launch is refused because the secret is gone from the store', async () => {
    const { host, credentials } = startCore();
    await host.start();
    await addWeather(host);
    const url = (await host.gateway.enable(0)).url!;
    const { token } = await host.gateway.addClient('apps', { mode: 'all', writes: 'allow' });
    const c = await open(url, token);
    // The store loses the value (as a keychain entry removed behind Switchboard's back); the next launch reads it.
    await credentials.delete(envSecretAccount('weather', 'WEATHER_API_KEY'));
    await host.sessions.disconnect('weather');
    const result = await c.callTool({ name: 'mcp__weather__read', arguments: { ms: 1, label: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(NAMED);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('still says to approve a launch that is merely not approved', async () => {
    const { host } = startCore();
    await host.start();
    await addWeather(host);
    // A changed command (no secret lost) waits for approval again: the generic message, not a lost secret.
    await host.update('weather', weather({ secret: true }, { EXTRA: '1' }));
    const url = (await host.gateway.enable(0)).url!;
    const { token } = await host.gateway.addClient('explorer', { mode: 'progressive', writes: 'allow' });
    const c = await open(url, token);
    const groups = JSON.parse(textOf(await c.callTool({ name: 'tools_groups', arguments: {} }))) as {
      groups: { id: string; status?: string }[];
    };
    expect(groups.groups.find((g) => g.id === 'mcp:weather')?.status).toBe(
      'Weather is waiting for its launch to be approved: open Switchboard and approve it.',
    );
  });
});
