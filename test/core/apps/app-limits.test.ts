// What an app's requests may reach and how many it may make, against real fixture servers over stdio: a launch's
// calls in flight and per window are capped (the excess refused with a typed error, never sent), app-made calls
// keep within their own share of the history so the person's calls stay, and an app never reaches another server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../../shared/domains/calls.js';
import { APP_CALLS_IN_FLIGHT, APP_CALLS_PER_WINDOW, APP_READ_LIMITS } from '../../../electron/core/apps/call-limits.js';
import { APP_HISTORY_LIMIT, HISTORY_LIMIT } from '../../../electron/core/calls/history-store.js';
import { HISTORY_FILE } from '../../../electron/core/calls/host-calls.js';
import { fixture, addApproved } from '../sessions/helpers.js';
import { APPS_FIXTURE, appError, appsHarness, countedStdio, type AppsHarness } from './helpers.js';

const PEER = fixture('apps-peer.ts');

/** Opens the app of a fresh person's call of `tool` and returns the launch id. */
async function launchOf(t: AppsHarness, tool: string): Promise<string> {
  const outcome = await t.call('tools.call', { name: tool, arguments: {} });
  expect(outcome.status).toBe('ok');
  return (await t.call('apps.open', { callId: outcome.callId })).launchId;
}

/** What the peer server says it answered. */
async function peerHits(t: AppsHarness): Promise<{ calls: number; reads: number }> {
  const outcome = await t.call('tools.call', { name: 'mcp__peer__hits', arguments: {} });
  return JSON.parse(outcome.presentation.text) as { calls: number; reads: number };
}

describe('an app’s call budget', () => {
  let t: AppsHarness;
  beforeAll(async () => {
    t = await appsHarness((log) => countedStdio('peer', PEER, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }));
  }, 60_000);
  afterAll(async () => t?.close());

  it(`runs at most ${APP_CALLS_IN_FLIGHT} of a launch’s calls at once and refuses the next, naming the limit`, async () => {
    const launchId = await launchOf(t, 'mcp__peer__peer_app');
    const before = await peerHits(t);
    const calls = Array.from({ length: APP_CALLS_IN_FLIGHT + 1 }, () =>
      t.call('apps.callTool', { launchId, name: 'wait', arguments: { ms: 400 } }).then(
        (r) => ({ ok: true as const, text: JSON.stringify(r.result) }),
        (err: unknown) => ({ ok: false as const, err }),
      ),
    );
    const settled = await Promise.all(calls);
    expect(settled.filter((s) => s.ok)).toHaveLength(APP_CALLS_IN_FLIGHT);
    const refused = settled.filter((s) => !s.ok);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      err: { code: 'limit_exceeded', serverId: 'peer', message: expect.stringMatching(/at most 4 at a time/) },
    });
    // The refused call never reached the server; once the others ended the launch may call again.
    expect((await peerHits(t)).calls - before.calls).toBe(APP_CALLS_IN_FLIGHT);
    const again = await t.call('apps.callTool', { launchId, name: 'wait', arguments: { ms: 0 } });
    expect(again.result['content']).toEqual([{ type: 'text', text: 'waited 0 ms' }]);
  });

  it(`refuses a launch’s call past ${APP_CALLS_PER_WINDOW} per 10 s, and other launches keep their own budget`, async () => {
    const flooding = await launchOf(t, 'mcp__peer__peer_app');
    const other = await launchOf(t, 'mcp__peer__peer_app');
    const before = await peerHits(t);
    for (let i = 0; i < APP_CALLS_PER_WINDOW; i++) await t.call('apps.callTool', { launchId: flooding, name: 'secret', arguments: {} });
    const err = await appError(() => t.call('apps.callTool', { launchId: flooding, name: 'secret', arguments: {} }));
    expect(err.code).toBe('limit_exceeded');
    expect(err.message).toMatch(/20 tool calls in the last 10 s \(at most 20 per 10 s\)/);
    // A name the app may not call spends the budget too, and is refused the same way.
    expect((await appError(() => t.call('apps.callTool', { launchId: flooding, name: 'nope' }))).code).toBe('limit_exceeded');
    expect((await peerHits(t)).calls - before.calls).toBe(APP_CALLS_PER_WINDOW);
    const { result } = await t.call('apps.callTool', { launchId: other, name: 'secret', arguments: {} });
    expect(result['content']).toEqual([{ type: 'text', text: 'peer secret' }]);
  });

  // Issue 22, item 3: bounded where they enter, before the budget, the server or the history sees them.
  it('refuses 700-deep arguments before they are sent, and the history stays sendable', async () => {
    const launchId = await launchOf(t, 'mcp__peer__peer_app');
    const before = await peerHits(t);
    let deep: Record<string, unknown> = { ms: 0 };
    for (let i = 0; i < 700; i++) deep = { d: deep };
    await expect(t.call('apps.callTool', { launchId, name: 'wait', arguments: { ms: 0, deep } })).rejects.toMatchObject({
      code: 'limit_exceeded',
      message: expect.stringMatching(/nested deeper than 64 levels/),
    });
    expect((await peerHits(t)).calls).toBe(before.calls);
    const history = await t.call('calls.history', { limit: 1000 });
    expect(history.entries.length).toBeGreaterThan(0);
  });
});

describe('an app’s budget for resource requests', () => {
  let t: AppsHarness;
  beforeAll(async () => {
    t = await appsHarness((log) => countedStdio('peer', PEER, log, { lifecycle: 'initialize', resources: true }));
  }, 60_000);
  afterAll(async () => t?.close());

  it(`refuses reads and listings past ${APP_READ_LIMITS.perWindow} per 10 s, apart from its tool calls, never sending them`, async () => {
    const launchId = await launchOf(t, 'mcp__peer__peer_app');
    const before = await peerHits(t);
    const reads = APP_READ_LIMITS.perWindow - 2;
    for (let i = 0; i < reads; i++) await t.call('apps.readResource', { launchId, uri: 'res://peer/secret' });
    await t.call('apps.listResources', { launchId });
    await t.call('apps.listResourceTemplates', { launchId });
    for (const over of [
      () => t.call('apps.readResource', { launchId, uri: 'res://peer/secret' }),
      () => t.call('apps.listResources', { launchId }),
    ]) {
      const err = await appError(over);
      expect(err.code).toBe('limit_exceeded');
      expect(err.message).toMatch(/resource requests in the last 10 s/);
    }
    expect((await peerHits(t)).reads - before.reads).toBe(reads);
    // Its tool calls have their own budget.
    const { result } = await t.call('apps.callTool', { launchId, name: 'secret', arguments: {} });
    expect(result['content']).toEqual([{ type: 'text', text: 'peer secret' }]);
  });
});

describe('app-made calls in the history', () => {
  let t: AppsHarness;
  /** A history entry as written before this session: the person's, or an app's. */
  const old = (n: number, app: boolean): HistoryEntry => ({
    callId: `${app ? 'app' : 'person'}-${n}`,
    serverId: 'peer',
    tool: app ? 'mcp__peer__secret' : 'mcp__peer__peer_app',
    originalName: app ? 'secret' : 'peer_app',
    arguments: {},
    startedAt: 1_700_000_000_000 + (app ? 10_000 : 0) + n,
    durationMs: 1,
    status: 'ok',
    presentation: { isError: false, text: 'old', truncated: false, media: [], notices: [], links: [], resources: [] },
    ...(app ? { origin: { kind: 'app' as const, serverId: 'peer', tool: 'mcp__peer__peer_app' } } : {}),
  });
  const persons = HISTORY_LIMIT - APP_HISTORY_LIMIT;

  beforeAll(async () => {
    t = await appsHarness((log) => countedStdio('peer', PEER, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }));
    // A full history from earlier sessions, newest first: the app's calls are newer than the person's.
    const entries = [
      ...Array.from({ length: APP_HISTORY_LIMIT }, (_, i) => old(APP_HISTORY_LIMIT - 1 - i, true)),
      ...Array.from({ length: persons }, (_, i) => old(persons - 1 - i, false)),
    ];
    writeFileSync(join(t.h.host.info().dataDir, HISTORY_FILE), JSON.stringify({ version: 1, entries }));
  }, 60_000);
  afterAll(async () => t?.close());

  it(`keeps app-made calls within ${APP_HISTORY_LIMIT} of the ${HISTORY_LIMIT}, evicting the oldest app call, never the person’s`, async () => {
    expect((await t.call('calls.history', { limit: 1 })).total).toBe(HISTORY_LIMIT);
    const launchId = await launchOf(t, 'mcp__peer__peer_app');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await t.call('apps.callTool', { launchId, name: 'secret', arguments: {} })).callId);

    const all = (await t.call('calls.history', { limit: 1000 })).entries;
    expect(all).toHaveLength(HISTORY_LIMIT);
    const fromApps = all.filter((e) => e.origin?.kind === 'app');
    // The person's call that opened the app took the place of an app call: the history was full.
    expect(fromApps).toHaveLength(APP_HISTORY_LIMIT - 1);
    // Every person's entry is still there: the earlier ones and the call that opened the app.
    expect(all.filter((e) => e.origin === undefined)).toHaveLength(persons + 1);
    expect(all.some((e) => e.callId === 'person-0')).toBe(true);
    // The app's new calls are kept; its oldest earlier ones made room.
    for (const id of made) expect(fromApps.some((e) => e.callId === id)).toBe(true);
    expect(all.some((e) => e.callId === 'app-0')).toBe(false);
    expect(all.some((e) => e.callId === 'app-5')).toBe(false);
    expect(all.some((e) => e.callId === 'app-6')).toBe(true);
  });
});

describe('an app and another server', () => {
  let t: AppsHarness;
  beforeAll(async () => {
    t = await appsHarness((log) => countedStdio('fx', APPS_FIXTURE, log, { lifecycle: 'initialize', timeouts: { requestSecs: 20 } }));
    // Both servers write to one spawn log, so closing the harness checks both are gone.
    await addApproved(t.h.host, countedStdio('peer', PEER, join(t.dir, 'spawns.log'), { lifecycle: 'initialize' }));
  }, 60_000);
  afterAll(async () => t?.close());

  it('cannot call a tool or read a resource of another server, by its names there or its local names', async () => {
    const launchId = await launchOf(t, 'mcp__fx__hello');
    const before = await peerHits(t);
    for (const name of ['secret', 'wait', 'peer_app', 'hits', 'mcp__peer__secret', 'mcp__peer__hits']) {
      const err = await appError(() => t.call('apps.callTool', { launchId, name, arguments: { ms: 0 } }));
      expect(err.code, name).toBe('not_found');
      expect(err.serverId ?? 'fx', name).toBe('fx');
    }
    for (const uri of ['res://peer/secret', 'ui://peer/app.html']) {
      const err = await appError(() => t.call('apps.readResource', { launchId, uri }));
      expect(err.serverId, uri).toBe('fx');
    }
    // Its own server still answers it, and nothing reached the other one.
    const own = await t.call('apps.callTool', { launchId, name: 'app_echo', arguments: { text: 'mine' } });
    expect(own.result['structuredContent']).toEqual({ echoed: 'mine' });
    expect(await peerHits(t)).toEqual(before);
    const history = (await t.call('calls.history', { limit: 100 })).entries;
    expect(history.filter((e) => e.serverId === 'peer' && e.origin?.kind === 'app')).toEqual([]);
  });
});
