// A server whose secret was lost in a restart (no keychain: secrets in memory) cannot start, so it never lists in
// the new run; the person's catalog still shows its tools as last approved, each marked unavailable with the lost
// secret and the fix, while gateway clients are never offered them. Real cores on one data folder, a real stdio
// fixture server, memory credentials, real SDK clients over HTTP.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogHandlers } from '../../../electron/core/catalog/catalog-handlers.js';
import type { Host } from '../../../electron/core/host.js';
import type { ServerConfigInput } from '../../../shared/config.js';
import { MemoryCredentialStore } from '../../../electron/platform/memory-credential-store.js';
import { cleanup, settingsStoreIn, tempDir, testCore } from '../../shared/support/harness.js';
import { fixture, stdioServer, textOf } from '../gateway/harness.js';

const SECRET = 'CANARY_SECRET_4b9e';
let dir: string;
let hosts: Host[];
let clients: Client[];

function startCore(): Host {
  const host = testCore({ settingsStore: settingsStoreIn(dir), credentials: new MemoryCredentialStore() });
  hosts.push(host);
  return host;
}

function weather(secret: { secret: true; value?: string }): ServerConfigInput {
  const input = stdioServer('weather', fixture('calls-stdio.ts'), { name: 'Weather' });
  if (input.transport.type !== 'stdio') throw new Error('stdio expected');
  return { ...input, transport: { ...input.transport, env: { WEATHER_API_KEY: secret } } };
}

async function open(url: string, token: string): Promise<Client> {
  const c = new Client({ name: 'lost-secret-tools-test', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  clients.push(c);
  return c;
}

/** A first run: adds the server with its secret, approves, connects and lists; returns its tools' names and `read`'s schema. */
async function firstRun(): Promise<{ names: string[]; readSchema: Record<string, unknown> }> {
  const first = startCore();
  await first.start();
  const detail = await first.add(weather({ secret: true, value: SECRET }));
  await first.approve('weather', detail.approval!.fingerprint);
  await first.sessions.connect('weather');
  await first.catalog.refresh('weather');
  const names = first.catalog
    .search({ query: '', serverIds: ['weather'], limit: 1000 })
    .tools.filter((t) => !t.appOnly)
    .map((t) => t.name)
    .sort();
  const readSchema = first.catalog.tool('mcp__weather__read').inputSchema;
  await first.shutdown();
  return { names, readSchema };
}

beforeEach(() => {
  dir = tempDir('sb-lost-tools-');
  hosts = [];
  clients = [];
});

afterEach(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  for (const host of hosts) await host.shutdown();
  cleanup(dir);
});

describe('last-known tools of a server whose secret was lost', () => {
  it('are listed to the person as unavailable with the secret and the fix, never offered to gateway clients', async () => {
    const before = await firstRun();
    expect(before.names).toContain('mcp__weather__read');

    const second = startCore();
    await second.start();
    // Nothing was listed in this run: only the person's view (includeUnavailable) shows the last-known tools.
    expect(second.catalog.search({ query: '', serverIds: ['weather'] }).tools).toEqual([]);
    const listed = second.catalog.search({ query: '', serverIds: ['weather'], includeUnavailable: true, limit: 1000 });
    expect(listed.tools.map((t) => t.name).sort()).toEqual(expect.arrayContaining(before.names));
    for (const t of listed.tools) {
      expect(t.serverId).toBe('weather');
      expect(t.unavailable).toMatchObject({ reason: 'secret_missing', missingSecrets: ['WEATHER_API_KEY'] });
      expect(t.unavailable?.message).toBe(
        "The secret WEATHER_API_KEY was lost when Switchboard restarted — enter it again on Weather's page, then approve its launch. " +
          'Until then this tool cannot be called.',
      );
    }
    // Its card: only the person's directory (and so the catalog's Server filter) has it, marked unavailable.
    expect(second.catalog.groups(false).map((g) => g.serverId)).not.toContain('weather');
    const cards = await catalogHandlers(second)['catalog.groups']({ includeUnavailable: true });
    const card = cards.find((g) => g.serverId === 'weather');
    expect(card).toMatchObject({ id: 'mcp:weather', memberCount: 0, toolCount: listed.total });
    expect(card?.unavailable).toMatchObject({ reason: 'secret_missing', missingSecrets: ['WEATHER_API_KEY'] });
    // Found by search like any tool, inside words too.
    const read = second.catalog.search({ query: 'timed', includeUnavailable: true }).tools.map((t) => t.name);
    expect(read).toContain('mcp__weather__read');

    // Opening one: its last-known schema, marked unavailable; the gateway's lookup (no option) does not find it.
    const detail = await catalogHandlers(second)['catalog.tool']({ name: 'mcp__weather__read' });
    expect(detail.unavailable?.reason).toBe('secret_missing');
    expect(detail.inputSchema).toEqual(before.readSchema);
    expect(() => second.catalog.tool('mcp__weather__read')).toThrow(/No tool named/);
    // Not callable: the call is refused naming the secret, nothing is started.
    await expect(second.calls.call({ name: 'mcp__weather__read', arguments: { ms: 1, label: 'x' } })).rejects.toMatchObject({
      code: 'secret_missing',
    });
    expect(second.sessions.status('weather').state).not.toBe('connected');

    // Gateway clients: neither tools/list nor the discovery search offers them.
    const url = (await second.gateway.enable(0)).url!;
    const all = await open(url, (await second.gateway.addClient('apps', { mode: 'all', writes: 'allow' })).token);
    const tools = (await all.listTools()).tools.map((t) => t.name);
    expect(tools.filter((n) => n.startsWith('mcp__weather__'))).toEqual([]);
    const own = await open(
      url,
      (await second.gateway.addClient('own', { mode: 'all', servers: ['weather'], names: 'original', writes: 'allow' })).token,
    );
    expect((await own.listTools()).tools).toEqual([]);
    const explorer = await open(url, (await second.gateway.addClient('explorer', { mode: 'progressive', writes: 'allow' })).token);
    const found = textOf(await explorer.callTool({ name: 'tools_search', arguments: { query: 'timed' } }));
    expect(found).not.toContain('mcp__weather__read');
    expect(JSON.stringify(listed)).not.toContain(SECRET);
  });

  it('leave the person’s list once the secret is entered again, and the views are told', async () => {
    await firstRun();
    const second = startCore();
    await second.start();
    expect(second.catalog.search({ query: '', includeUnavailable: true }).tools.length).toBeGreaterThan(0);
    const revisions: number[] = [];
    second.events.subscribe(
      (event, payload) => {
        if (event === 'catalog.changed') revisions.push((payload as { revision: number }).revision);
      },
      { internal: true },
    );
    await second.update('weather', weather({ secret: true, value: SECRET }));
    // The launch now waits for approval (nothing lost any more): no longer listed as lost.
    expect(second.catalog.search({ query: '', includeUnavailable: true }).tools).toEqual([]);
    expect(second.catalog.groups(false, { includeUnavailable: true }).map((g) => g.serverId)).not.toContain('weather');
    expect(revisions.length).toBeGreaterThan(0);
  });
});
