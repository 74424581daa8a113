// Live changes reach gateway clients: an upstream tools/list_changed (after the catalog republished), a server
// disconnecting and connecting, and a subscribed resource changing; on 2025-11-25 sessions as notifications, on
// 2026-07-28 on the subscriptions/listen stream. Clients whose profile does not see the server are not told.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayWorld, textOf, until } from './harness.js';

let w: GatewayWorld;
let all = '';
let other = '';

beforeAll(async () => {
  w = new GatewayWorld();
  await w.addServer('cat', 'catalog-hostile.ts', {}, { CATALOG_TOOLS: '3' });
  await w.addServer('res', 'res-server.ts');
  await w.enable();
  ({ token: all } = await w.client('watcher', { mode: 'all', writes: 'allow' }));
  ({ token: other } = await w.client('elsewhere', { mode: 'all', servers: ['res'], writes: 'allow' }));
}, 120_000);
afterAll(async () => w?.close());

async function watch(token: string, era: 'modern' | 'legacy'): Promise<{ c: Client; changes: () => number }> {
  let n = 0;
  const c = await w.http(token, era, {}, undefined, () => n++);
  return { c, changes: () => n };
}

describe.each(['legacy', 'modern'] as const)('%s', (era) => {
  it('an upstream list_changed becomes tools/list_changed with the new list', async () => {
    const watcher = await watch(all, era);
    const bystander = await watch(other, era);
    const names = `${era}_a`;
    expect((await watcher.c.listTools()).tools.map((t) => t.name)).not.toContain(`mcp__cat__${names}`);
    const r = await watcher.c.callTool({ name: 'mcp__cat__catalog_control', arguments: { action: 'set', names: [names] } });
    expect(r.isError).not.toBe(true);
    await until(() => watcher.changes() > 0, 20_000, 'tools/list_changed');
    await until(async () => (await watcher.c.listTools()).tools.some((t) => t.name === `mcp__cat__${names}`), 20_000, 'the new list');
    // A client that does not see the server is not told (checked after the positive signal above).
    expect(bystander.changes()).toBe(0);
  });

  it('a server disconnecting and connecting again is announced', async () => {
    const watcher = await watch(all, era);
    await w.host.sessions.disconnect('res');
    await until(() => watcher.changes() > 0, 20_000, 'list_changed on disconnect');
    const seen = watcher.changes();
    await w.host.sessions.connect('res');
    await until(() => watcher.changes() > seen, 20_000, 'list_changed on connect');
  });
});

describe('pins', () => {
  it('a rug-pulled tool leaves the list and its call is refused with the same reason as in the UI', async () => {
    const c = await w.http(all, 'modern');
    await c.callTool({ name: 'mcp__cat__catalog_control', arguments: { action: 'set', names: ['tool_0001', 'tool_0002'] } });
    await until(async () => (await c.listTools()).tools.some((t) => t.name === 'mcp__cat__tool_0001'), 20_000, 'tool_0001 listed');
    await c.callTool({
      name: 'mcp__cat__catalog_control',
      arguments: { action: 'describe', name: 'tool_0001', description: 'Now it does something else' },
    });
    await until(
      () => w.host.catalog.search({ query: 'tool_0001', serverIds: ['cat'] }).tools.some((t) => t.pin === 'changed'),
      20_000,
      'the changed pin',
    );
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain('mcp__cat__tool_0002');
    expect(names).not.toContain('mcp__cat__tool_0001');
    const refused = await c.callTool({ name: 'mcp__cat__tool_0001', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      'The definition of mcp__cat__tool_0001 changed since it was approved; review and approve it before calling',
    );
  });
});

describe('resource subscriptions (2025-11-25 session)', () => {
  it('a subscribed resource change arrives under its wrapped URI; unsubscribing stops it', async () => {
    const updates: string[] = [];
    const c = await w.http(all, 'legacy', {}, (client) =>
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params.uri);
      }),
    );
    await c.subscribeResource({ uri: 'switchboard://res/res://counter' });
    expect(w.host.interaction.resources.subscriptions('res')).toContain('res://counter');
    await c.callTool({ name: 'mcp__res__bump', arguments: {} });
    await until(() => updates.includes('switchboard://res/res://counter'), 20_000, 'resources/updated');
    await c.unsubscribeResource({ uri: 'switchboard://res/res://counter' });
    expect(w.host.interaction.resources.subscriptions('res')).not.toContain('res://counter');
    await expect(c.subscribeResource({ uri: 'switchboard://cat/x://y' })).rejects.toThrow(/does not offer resource subscriptions/);
  });
});
