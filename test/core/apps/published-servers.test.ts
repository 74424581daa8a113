// The published MCP App examples over stdio through the real Host: their tools carry apps, their ui:// resources
// pass the checks, and the calls their apps make (system monitor's app-only poller) route through the app-only table.
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appError, appsHarness, countedStdio, published, type AppsHarness } from './helpers.js';

/** The published server's stdio entry (dist/index.js next to its main module). */
const entry = (pkg: string): string => join(dirname(published(pkg)), 'index.js');

const SERVERS = [
  { id: 'react', pkg: '@modelcontextprotocol/server-basic-react', tool: 'get-time' },
  { id: 'vanilla', pkg: '@modelcontextprotocol/server-basic-vanillajs', tool: 'get-time' },
  { id: 'monitor', pkg: '@modelcontextprotocol/server-system-monitor', tool: 'get-system-info' },
] as const;

for (const s of SERVERS) {
  describe(s.pkg, () => {
    let t: AppsHarness;
    beforeAll(async () => {
      t = await appsHarness((log) => countedStdio(s.id, entry(s.pkg), log, { lifecycle: 'initialize' }, ['--stdio']));
      await t.call('catalog.refresh', { id: s.id });
    }, 60_000);
    afterAll(async () => t?.close());

    it('its tool has an app, and the app loads after a call', async () => {
      const name = `mcp__${s.id}__${s.tool.replace(/-/g, '_')}`;
      expect(await t.call('catalog.tool', { name })).toMatchObject({ hasApp: true, ui: { visibility: ['model', 'app'] } });
      const outcome = await t.call('tools.call', { name, arguments: {} });
      expect(outcome.status).toBe('ok');
      const launch = await t.call('apps.open', { callId: outcome.callId });
      expect(launch.htmlBytes).toBeGreaterThan(100_000);
      expect(t.html(launch)).toMatch(/^<!doctype html>/i);
      expect(launch.cspPolicy).toContain("connect-src 'none'");
      expect(launch.call.result?.['content']).toBeDefined();
      expect(launch.toolInfo.name).toBe(s.tool);
    });
  });
}

describe('system monitor’s app-only poller', () => {
  let t: AppsHarness;
  beforeAll(async () => {
    t = await appsHarness((log) =>
      countedStdio('monitor', entry('@modelcontextprotocol/server-system-monitor'), log, { lifecycle: 'initialize' }, ['--stdio']),
    );
    await t.call('catalog.refresh', { id: 'monitor' });
  }, 60_000);
  afterAll(async () => t?.close());

  it('is kept out of the catalog, refused to the person, and answers its app', async () => {
    const search = await t.call('catalog.search', { query: 'poll', serverIds: ['monitor'] });
    expect(search.tools).toEqual([]);
    expect((await appError(() => t.call('tools.call', { name: 'mcp__monitor__poll_system_stats', arguments: {} }))).code).toBe(
      'invalid_request',
    );
    expect((await t.call('apps.server', { serverId: 'monitor' })).appOnlyTools.map((a) => a.originalName)).toEqual(['poll-system-stats']);

    const outcome = await t.call('tools.call', { name: 'mcp__monitor__get_system_info', arguments: {} });
    const { launchId } = await t.call('apps.open', { callId: outcome.callId });
    const { result, callId } = await t.call('apps.callTool', { launchId, name: 'poll-system-stats', arguments: {} });
    expect(result['structuredContent']).toMatchObject({ memory: { usedPercent: expect.any(Number) }, cpu: { cores: expect.any(Array) } });
    const history = await t.call('calls.history', {});
    expect(history.entries.find((e) => e.callId === callId)?.origin).toEqual({
      kind: 'app',
      serverId: 'monitor',
      tool: 'mcp__monitor__get_system_info',
    });
  });
});
