// An app's resource listings and a changed app-only tool, through the contract against the apps fixture over
// stdio: listings reach only the launch's own server and end with it; a changed app-only tool refuses the app's
// calls until the person approves it by its local name, as for any tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS_FIXTURE, appError, appsHarness, countedStdio, type AppsHarness } from './helpers.js';

let t: AppsHarness;
let launchId: string;

beforeAll(async () => {
  t = await appsHarness((log) => countedStdio('fx', APPS_FIXTURE, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }, []));
  await t.call('catalog.refresh', { id: 'fx' });
  const outcome = await t.call('tools.call', { name: 'mcp__fx__hello', arguments: { name: 'Ada' } });
  launchId = (await t.call('apps.open', { callId: outcome.callId })).launchId;
}, 60_000);

afterAll(async () => t?.close());

describe('an app lists resources', () => {
  it('gets its own server’s resources and templates in the protocol’s shape', async () => {
    const list = await t.call('apps.listResources', { launchId });
    expect(list.resources.map((r) => r.uri)).toContain('res://apps/note');
    expect(list.resources.find((r) => r.uri === 'res://apps/note')).toMatchObject({ name: 'Note', mimeType: 'text/plain' });
    const templates = await t.call('apps.listResourceTemplates', { launchId });
    expect(templates.resourceTemplates).toEqual([{ uriTemplate: 'res://apps/notes/{name}', name: 'Note by name', mimeType: 'text/plain' }]);
  });

  it('is refused once its launch is closed, and for a launch that never was', async () => {
    const other = await t.call('apps.open', { callId: (await t.call('tools.call', { name: 'mcp__fx__hello', arguments: {} })).callId });
    await t.call('apps.close', { launchId: other.launchId });
    expect((await appError(() => t.call('apps.listResources', { launchId: other.launchId }))).code).toBe('not_found');
    expect((await appError(() => t.call('apps.listResourceTemplates', { launchId: 'no-such-launch' }))).code).toBe('not_found');
  });
});

describe('a changed app-only tool', () => {
  it('refuses the app’s calls until the person approves its new definition', async () => {
    const appOnly = async () => (await t.call('apps.server', { serverId: 'fx' })).appOnlyTools[0];
    const first = await appOnly();
    expect(first).toMatchObject({ tool: 'mcp__fx__app_echo', pin: 'approved' });
    expect(first?.fingerprint).toMatch(/\S/);
    expect((await t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 'before' } })).result).toMatchObject({
      structuredContent: { echoed: 'before' },
    });
    await t.call('tools.call', { name: 'mcp__fx__change_app_echo', arguments: {} });
    await t.call('catalog.refresh', { id: 'fx' });
    const detail = await t.call('catalog.tool', { name: 'mcp__fx__app_echo' });
    expect(detail).toMatchObject({ appOnly: true, pin: 'changed' });
    // The server page's row sees the change (its pin and fingerprint are what it refetches the detail on).
    expect(await appOnly()).toMatchObject({ pin: 'changed', fingerprint: detail.fingerprint });
    expect(detail.fingerprint).not.toBe(first?.fingerprint);
    expect(detail.diff).toEqual([
      expect.objectContaining({ field: 'description', after: 'Echoes text, changed; only the app may call it.' }),
    ]);
    expect((await appError(() => t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 'x' } }))).code).toBe(
      'tool_changed',
    );

    const approved = await t.call('catalog.approveTool', { name: 'mcp__fx__app_echo', fingerprint: detail.fingerprint });
    expect(approved).toMatchObject({ name: 'mcp__fx__app_echo', appOnly: true, pin: 'approved' });
    expect(await appOnly()).toMatchObject({ pin: 'approved', fingerprint: detail.fingerprint });
    expect((await t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 'after' } })).result).toMatchObject({
      structuredContent: { echoed: 'after' },
    });
    // Still app-only: approving did not put it in the model-facing catalog.
    const search = await t.call('catalog.search', { query: '', serverIds: ['fx'], limit: 1000 });
    expect(search.tools.map((s) => s.name)).not.toContain('mcp__fx__app_echo');
  });
});
