// A webhook relay server carries Switchboard's own webhook deliveries (its take/answer tools hand them out), so it is
// never served to gateway clients: a profile naming it is refused with relay_not_servable, and a profile that named
// it before it was known as a relay (or that sees every server) lists none of its tools, and calls into it are
// refused. A real host, the real relay fixture (SDK v2 over stdio), a real echo server, SDK clients over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld } from './harness.js';
import { addApproved, fixture, stdioServer } from '../sessions/helpers.js';

let w: GatewayWorld;
let oldToken = '';
let oldId = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('echo', 'echo-stdio.ts');
  // The relay is added but not listed yet: nothing says it is a relay, so a profile may still name it (an older profile).
  await addApproved(w.host, stdioServer('relay', fixture('webhook-relay.ts'), { name: 'My Relay' }));
  await w.enable();
  ({ token: oldToken, id: oldId } = await w.client('old', { mode: 'all', servers: ['echo', 'relay'], writes: 'allow' }));
  await w.host.sessions.connect('relay');
  await w.host.catalog.refresh('relay');
}, 120_000);
afterAll(async () => w?.close());

describe('a webhook relay server in the gateway', () => {
  it('is named in the gateway status, so the client dialog can offer it as not selectable', async () => {
    expect(w.host.gateway.status().relayServers).toEqual(['relay']);
  });

  it('is refused with a typed error when a profile names it (add or edit, by server or group)', async () => {
    await expect(w.host.gateway.addClient('new', { mode: 'all', servers: ['relay'], writes: 'allow' })).rejects.toMatchObject({
      code: 'relay_not_servable',
      serverId: 'relay',
      message: expect.stringContaining('"My Relay" is a webhook relay server'),
    });
    await expect(w.host.gateway.addClient('grp', { mode: 'progressive', groups: ['mcp:relay'], writes: 'allow' })).rejects.toMatchObject({
      code: 'relay_not_servable',
    });
    await expect(
      w.host.gateway.updateClient(oldId, { profile: { mode: 'all', servers: ['echo', 'relay'], writes: 'allow' } }),
    ).rejects.toMatchObject({
      code: 'relay_not_servable',
    });
    // A profile without it is fine.
    const ok = await w.host.gateway.addClient('echo-only', { mode: 'all', servers: ['echo'], writes: 'allow' });
    expect(ok.profile.servers).toEqual(['echo']);
  });

  it('lists none of its tools to a client whose older profile names it, nor to one that sees every server', async () => {
    expect(w.host.catalog.offers('relay', 'webhook_relay_take')).toBe(true);
    const old = await w.http(oldToken, 'modern');
    const names = (await old.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__echo__echo');
    expect(names.filter((n) => n.startsWith('mcp__relay__'))).toEqual([]);
    const taken = await old.callTool({ name: 'mcp__relay__webhook_relay_take', arguments: { waitMs: 0, max: 1 } });
    expect(taken.isError).toBe(true);

    const every = await w.http((await w.client('every', { mode: 'all', writes: 'allow' })).token, 'legacy');
    const all = (await every.listTools()).tools.map((t) => t.name);
    expect(all).toContain('mcp__echo__echo');
    expect(all.filter((n) => n.startsWith('mcp__relay__'))).toEqual([]);
  });
});
