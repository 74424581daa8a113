// MCP Apps through the contract against the apps fixture over stdio: discovery in the catalog, the app-only route
// table, opening an app (checked resource, policy, grants), the app's own requests, and the clear errors in place.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMap } from '../../../shared/contract.js';
import { GRANTS_FILE, GrantsStore } from '../../../electron/core/apps/grants-store.js';
import { DOMAIN_NOTE } from '../../../electron/core/apps/apps-service.js';
import { APPS_FIXTURE, appError, appsHarness, countedStdio, TEST_SANDBOX, TEST_WARM, type AppsHarness } from './helpers.js';

let t: AppsHarness;

beforeAll(async () => {
  t = await appsHarness((log) => countedStdio('fx', APPS_FIXTURE, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }, []));
}, 60_000);

afterAll(async () => t?.close());

/** Calls a tool as the person would and returns the call id. */
async function personCall(name: string, args: Record<string, unknown> = {}): Promise<string> {
  const outcome = await t.call('tools.call', { name, arguments: args });
  expect(outcome.status).toBe('ok');
  return outcome.callId;
}

describe('discovery', () => {
  it('records each tool’s app in the catalog and keeps app-only tools out of the model-facing lists', async () => {
    await t.call('catalog.refresh', { id: 'fx' });
    const hello = await t.call('catalog.tool', { name: 'mcp__fx__hello' });
    expect(hello).toMatchObject({
      hasApp: true,
      appOnly: false,
      ui: { resourceUri: 'ui://apps/hello.html', visibility: ['model', 'app'] },
    });

    const search = await t.call('catalog.search', { query: '', serverIds: ['fx'], limit: 1000 });
    const names = search.tools.map((s) => s.name);
    expect(names).toContain('mcp__fx__hello');
    expect(names).toContain('mcp__fx__model_only');
    expect(names).not.toContain('mcp__fx__app_echo');
    const groups = await t.call('catalog.groups', { includeMembers: true });
    expect(groups[0]?.members).not.toContain('mcp__fx__app_echo');
    const selection = await t.call('catalog.select', { tools: ['mcp__fx__app_echo', 'mcp__fx__hello'] });
    expect(selection.tools.map((d) => d.name)).toEqual(['mcp__fx__hello']);

    // The person's detail view still explains the app-only tool.
    expect(await t.call('catalog.tool', { name: 'mcp__fx__app_echo' })).toMatchObject({ appOnly: true, ui: { visibility: ['app'] } });
    expect(groups[0]?.toolCount).toBe(search.total + 1);
  });

  it('refuses a person’s or a gateway’s call of an app-only tool, naming why', async () => {
    const err = await appError(() => t.call('tools.call', { name: 'mcp__fx__app_echo', arguments: { text: 'x' } }));
    expect(err.code).toBe('invalid_request');
    expect(err.message).toMatch(/app only/);
  });

  it('tells servers it renders MCP Apps (io.modelcontextprotocol/ui)', async () => {
    const outcome = await t.call('tools.call', { name: 'mcp__fx__ui_capability', arguments: {} });
    expect(JSON.parse(outcome.presentation.text)).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
  });

  it('lists a server’s apps and app-only tools for its page', async () => {
    const apps = await t.call('apps.server', { serverId: 'fx' });
    expect(apps.apps.map((a) => a.tool)).toContain('mcp__fx__hello');
    expect(apps.apps.find((a) => a.tool === 'mcp__fx__hello')?.resourceUri).toBe('ui://apps/hello.html');
    expect(apps.appOnlyTools.map((a) => a.tool)).toEqual(['mcp__fx__app_echo']);
    expect(apps.grants).toEqual({ permissions: [], popups: false });
  });
});

describe('opening an app', () => {
  it('reads the checked resource through the session and gives the call’s input and result', async () => {
    const callId = await personCall('mcp__fx__hello', { name: 'Ada' });
    const launch = await t.call('apps.open', { callId });
    expect(launch).not.toHaveProperty('html'); // the sandbox serves it; the renderer never holds it
    expect(t.html(launch)).toContain('<h1>Hello app</h1>');
    expect(launch.htmlBytes).toBe(Buffer.byteLength(t.html(launch)));
    expect(launch.resourceUri).toBe('ui://apps/hello.html');
    expect(launch.prefersBorder).toBe(true);
    expect(launch.sandboxUrl).toBe(`${TEST_SANDBOX}?launch=${launch.launchId}`);
    expect(launch.cspPolicy).toContain("connect-src 'none'");
    expect(launch.permissions).toEqual({ requested: [], granted: [] });
    expect(launch.call).toMatchObject({
      callId,
      status: 'ok',
      arguments: { name: 'Ada' },
      result: { structuredContent: { greeting: 'Hello, Ada!' } },
    });
    expect(launch.toolInfo).toMatchObject({ name: 'hello', title: 'Hello app' });
    expect(t.h.host.apps.sandboxInput(launch.launchId)).toEqual({
      cspPolicy: launch.cspPolicy,
      permissions: [],
      popups: false,
      html: expect.stringContaining('<h1>Hello app</h1>'),
    });
    expect((await t.call('app.info', {})).appsWarmUrl).toBe(TEST_WARM);
    await t.call('apps.close', { launchId: launch.launchId });
    expect(t.h.host.apps.sandboxInput(launch.launchId)).toBeUndefined();
  });

  it('decodes an app served as a base64 blob', async () => {
    const launch = await t.call('apps.open', { callId: await personCall('mcp__fx__blob_app') });
    expect(t.html(launch)).toContain('<h1>Blob app</h1>');
  });

  it('builds the policy from the declared, checked domains', async () => {
    const launch = await t.call('apps.open', { callId: await personCall('mcp__fx__declared_script') });
    expect(launch.csp.resourceDomains).toEqual(['http://127.0.0.1:9']);
    expect(launch.cspPolicy).toMatch(/script-src 'self' 'unsafe-inline' http:\/\/127\.0\.0\.1:9/);
  });

  it.each([
    ['mcp__fx__bad_mime', 'app_invalid', /served with "text\/html", not text\/html;profile=mcp-app/],
    ['mcp__fx__too_big', 'limit_exceeded', /is 5\.0 MiB, over the 4 MiB app budget/],
    ['mcp__fx__not_served', 'not_found', /does not serve ui:\/\/apps\/missing\.html/],
  ])('%s: a clear typed error instead of an app', async (tool, code, message) => {
    const callId = await personCall(tool);
    const err = await appError(() => t.call('apps.open', { callId }));
    expect(err.code).toBe(code);
    expect(err.message).toMatch(message);
    expect(err.serverId).toBe('fx');
  });

  it('refuses a call whose tool has no app, and an unknown call', async () => {
    const err = await appError(async () => t.call('apps.open', { callId: await personCall('mcp__fx__ui_capability') }));
    expect(err).toMatchObject({ code: 'app_invalid', message: 'mcp__fx__ui_capability has no app' });
    expect((await appError(() => t.call('apps.open', { callId: 'nope' }))).code).toBe('not_found');
  });
});

describe('requests from an app', () => {
  let launchId: string;
  beforeAll(async () => {
    launchId = (await t.call('apps.open', { callId: await personCall('mcp__fx__hello') })).launchId;
  });

  it('calls an app-only tool of its own server, recorded in history as from the app', async () => {
    const { callId, result } = await t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 'hi' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: hi' }], structuredContent: { echoed: 'hi' } });
    const entry = (await t.call('calls.history', { query: 'from app' })).entries.find((e) => e.callId === callId);
    expect(entry).toMatchObject({ tool: 'mcp__fx__app_echo', origin: { kind: 'app', serverId: 'fx', tool: 'mcp__fx__hello' } });
    const finished = t.h.events.filter((e) => e.event === 'call.finished').map((e) => e.payload as EventMap['call.finished']);
    expect(finished.some((o) => o.callId === callId && o.status === 'ok')).toBe(true);
  });

  it('refuses a model-only tool and an unknown one; nothing is recorded', async () => {
    const before = (await t.call('calls.history', {})).total;
    const model = await appError(() => t.call('apps.callTool', { launchId, name: 'model_only' }));
    expect(model).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/model only/) });
    const unknown = await appError(() => t.call('apps.callTool', { launchId, name: 'rm_rf' }));
    expect(unknown.code).toBe('not_found');
    expect((await t.call('calls.history', {})).total).toBe(before);
  });

  it('gives a tool error result (not an exception) when the tool fails', async () => {
    const { result } = await t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 42 } });
    expect(result['isError']).toBe(true);
  });

  it('reads resources of its own server', async () => {
    const read = await t.call('apps.readResource', { launchId, uri: 'res://apps/note' });
    expect(read.contents[0]).toMatchObject({ uri: 'res://apps/note', text: 'A note for the app' });
  });

  it('opens an http(s) link through the safe opener and refuses anything else', async () => {
    const opener = t.h.host.interaction.urlOpener as { opened?: string[] };
    expect(await t.call('apps.openLink', { launchId, url: 'https://example.com/docs?from=app' })).toEqual({
      url: 'https://example.com/docs?from=app',
    });
    expect(opener.opened).toContain('https://example.com/docs?from=app');
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url']) {
      expect((await appError(() => t.call('apps.openLink', { launchId, url }))).code).toBe('url_refused');
    }
    expect(opener.opened).toHaveLength(1);
  });

  it('checks a link with the core URL policy before the person is asked, opening nothing', async () => {
    const opener = t.h.host.interaction.urlOpener as { opened?: string[] };
    const before = opener.opened?.length ?? 0;
    expect(await t.call('apps.checkLink', { launchId, url: 'https://example.com/a b' })).toMatchObject({ ok: false });
    const idn = await t.call('apps.checkLink', { launchId, url: 'https://xn--bcher-kva.example/docs' });
    expect(idn).toMatchObject({
      ok: true,
      url: 'https://xn--bcher-kva.example/docs',
      display: 'https://bücher.example/docs',
      host: 'bücher.example',
    });
    expect(idn.ok && idn.warnings.join(' ')).toMatch(/internationalized/);
    for (const url of ['javascript:alert(1)', 'http://example.com/plain', 'https://user:pw@example.com/']) {
      const refused = await t.call('apps.checkLink', { launchId, url });
      expect(refused.ok).toBe(false);
      expect(!refused.ok && refused.reason).toMatch(/^The link /);
    }
    expect(opener.opened?.length ?? 0).toBe(before);
  });

  it('refuses requests of a closed launch', async () => {
    const { launchId: closed } = await t.call('apps.open', { callId: await personCall('mcp__fx__hello') });
    await t.call('apps.close', { launchId: closed });
    const err = await appError(() => t.call('apps.callTool', { launchId: closed, name: 'app_echo', arguments: { text: 'x' } }));
    expect(err).toMatchObject({ code: 'not_found', message: expect.stringMatching(/closed/) });
  });

  it('rejects malformed arguments before the core sees them', async () => {
    const env = await t.dispatch('apps.callTool', { launchId, name: '', arguments: [] });
    expect(env).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

describe('policy from the resource', () => {
  it('CSP, permissions and border come from the ui:// resource’s _meta.ui, never from the tool’s', async () => {
    const launch = await t.call('apps.open', { callId: await personCall('mcp__fx__tool_side_policy') });
    expect(launch.csp).toEqual({ connectDomains: [], resourceDomains: ['https://cdn.example.com'], frameDomains: [], baseUriDomains: [] });
    expect(launch.cspPolicy).toContain("connect-src 'none'");
    expect(launch.cspPolicy).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com");
    expect(launch.permissions.requested).toEqual([]);
    expect(launch.prefersBorder).toBeUndefined();
    expect(launch.domain).toBeUndefined();
  });

  it('a dedicated origin asked for is reported as not given (every app runs on the sandbox origin), and no border is honoured', async () => {
    const launch = await t.call('apps.open', { callId: await personCall('mcp__fx__files_app') });
    expect(launch.domain).toEqual({ requested: 'files-app.example.com', note: DOMAIN_NOTE });
    expect(launch.sandboxUrl.startsWith(TEST_SANDBOX)).toBe(true);
    expect(launch.prefersBorder).toBe(false);
  });
});

describe('grants', () => {
  it('denies requested permissions until the person grants them for the server, and keeps the grant', async () => {
    const callId = await personCall('mcp__fx__attack_camera');
    const denied = await t.call('apps.open', { callId });
    expect(denied.permissions).toEqual({ requested: ['camera'], granted: [] });

    const stored = await t.call('apps.setGrants', { serverId: 'fx', grants: { permissions: ['camera', 'microphone'], popups: true } });
    expect(stored).toEqual({ permissions: ['camera', 'microphone'], popups: true });
    const granted = await t.call('apps.open', { callId });
    // Only what the app asked for is granted, and only to this launch's sandbox.
    expect(granted.permissions).toEqual({ requested: ['camera'], granted: ['camera'] });
    expect(granted.popups).toBe(true);
    expect(t.h.host.apps.sandboxInput(granted.launchId)).toMatchObject({ permissions: ['camera'], popups: true });
    expect(t.h.events.some((e) => e.event === 'apps.grantsChanged')).toBe(true);

    await t.h.host.apps.dispose();
    const file = JSON.parse(readFileSync(join(t.h.host.info().dataDir, GRANTS_FILE), 'utf8')) as unknown;
    expect(file).toEqual({ version: 1, servers: { fx: { permissions: ['camera', 'microphone'], popups: true } } });
    expect(new GrantsStore(t.h.host.info().dataDir).get('fx')).toEqual({ permissions: ['camera', 'microphone'], popups: true });

    await t.call('apps.setGrants', { serverId: 'fx', grants: { permissions: [], popups: false } });
    expect((await t.call('apps.open', { callId })).permissions.granted).toEqual([]);
  });

  it('keeps the apps’ permission to ask for model replies, offered only to launches opened after it', async () => {
    const callId = await personCall('mcp__fx__hello');
    expect((await t.call('apps.open', { callId })).sampling).toBe(false);
    expect(await t.call('apps.setGrants', { serverId: 'fx', grants: { permissions: [], popups: false, sampling: true } })).toEqual({
      permissions: [],
      popups: false,
      sampling: true,
    });
    expect((await t.call('apps.open', { callId })).sampling).toBe(true);
    await t.h.host.apps.dispose();
    expect(new GrantsStore(t.h.host.info().dataDir).get('fx')).toEqual({ permissions: [], popups: false, sampling: true });
    await t.call('apps.setGrants', { serverId: 'fx', grants: { permissions: [], popups: false, sampling: false } });
    expect((await t.call('apps.server', { serverId: 'fx' })).grants).toEqual({ permissions: [], popups: false });
    expect((await t.call('apps.open', { callId })).sampling).toBe(false);
  });

  it('refuses grants for an unknown server or an unknown permission', async () => {
    expect((await appError(() => t.call('apps.setGrants', { serverId: 'ghost', grants: { permissions: [], popups: false } }))).code).toBe(
      'not_found',
    );
    const env = await t.dispatch('apps.setGrants', { serverId: 'fx', grants: { permissions: ['usb'], popups: false } });
    expect(env).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

describe('prefetch and cache', () => {
  const reads = async (): Promise<number> => {
    const outcome = await t.call('tools.call', { name: 'mcp__fx__ui_reads', arguments: {} });
    return (JSON.parse(outcome.presentation.text) as Record<string, number>)['ui://apps/hello.html'] ?? 0;
  };

  it('reads an app once while its call runs and reuses it; a new session reads it again', async () => {
    await t.call('servers.restart', { id: 'fx' });
    await t.call('catalog.refresh', { id: 'fx' });
    expect(await reads()).toBe(0);
    await t.call('apps.prefetch', { tool: 'mcp__fx__hello' });
    expect(await reads()).toBe(1);
    const callId = await personCall('mcp__fx__hello');
    await t.call('apps.open', { callId });
    await t.call('apps.open', { callId });
    expect(await reads()).toBe(1);
    // A restart is a new server process (its counter starts again) and a new session: the app is read again.
    await t.call('servers.restart', { id: 'fx' });
    await t.call('catalog.refresh', { id: 'fx' });
    expect(t.html(await t.call('apps.open', { callId }))).toContain('Hello app');
    expect(await reads()).toBe(1);
  });

  it('is quiet for a tool without an app or an unknown one', async () => {
    await expect(t.call('apps.prefetch', { tool: 'mcp__fx__ui_capability' })).resolves.toBeFalsy();
    await expect(t.call('apps.prefetch', { tool: 'mcp__nope__nothing' })).resolves.toBeFalsy();
  });
});
