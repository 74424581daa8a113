// The poll loop against the stdio events fixture (both eras) and the HTTP fixture: a backlog drained through
// `hasMore`, `nextPollMs: 0` clamped to the 1 s floor, a position that survives a host restart without losing or
// repeating an event, and a gap marker for `truncated`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import {
  addApproved,
  eventIds,
  expectFixturesGone,
  eventsStdio,
  feedAll,
  makeEventsHost,
  stats,
  tool,
  until,
  untilEvents,
  untilAsync,
  untilState,
  type EventsHarness,
} from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;

beforeEach(() => {
  dir = tempDir('sb-events-poll-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

describe.each([
  { lifecycle: 'initialize', version: '2025-11-25' },
  { lifecycle: 'discover', version: '2026-07-28' },
] as const)('poll over stdio, $version', ({ lifecycle, version }) => {
  it('drains a backlog through hasMore, 100 at a time, without losing or repeating an event', async () => {
    h = makeEventsHost(dir);
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle }, { EVENTS_FIXTURE_NEXT_POLL_MS: '60000' }));
    expect(await host.sessions.connect('ev')).toMatchObject({ state: 'connected', protocolVersion: version });
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'poll' });
    // The first poll (cursor null: "from now") settles the position; the loop then waits the server's 60 s.
    await untilState(host, sub.id, 'polling');
    await until(() => (host.mcpEvents.subscriptions()[0]?.status.lastCursorAt ?? 0) > 0, 10_000, 'a first position');
    const before = await stats(host, 'ev');
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 250 });
    // Wake the loop: pause and resume (keeps the position) so the next poll starts now.
    await host.mcpEvents.pause(sub.id);
    await host.mcpEvents.resume(sub.id);
    const ids = await untilEvents(host, sub.id, 250);
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    const after = await stats(host, 'ev');
    // 100 + 100 + 50: three polls drained it, back to back (hasMore), none waited the 60 s.
    expect(after.polls - before.polls).toBe(3);
    // Every poll asks a long-poll server to hold it (timeoutMs); this fixture answers at once, as the earlier shape.
    expect(after.pollTimeouts.slice(before.polls)).toEqual([25_000, 25_000, 25_000]);
    expect(subscription(host, sub.id).status).toMatchObject({ state: 'polling', pollEveryMs: 60_000, received: 250 });
  });
});

function subscription(host: EventsHarness['host'], id: string) {
  const s = host.mcpEvents.subscriptions().find((x) => x.id === id);
  if (!s) throw new Error('no subscription');
  return s;
}

describe('poll timing and gaps (stdio, 2026-07-28)', () => {
  it('clamps nextPollMs: 0 to the 1 s floor (the polls are counted)', async () => {
    h = makeEventsHost(dir);
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '0' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'poll' });
    await untilState(host, sub.id, 'polling');
    expect(subscription(host, sub.id).status.pollEveryMs).toBe(1000);
    const start = await stats(host, 'ev');
    await untilAsync(async () => (await stats(host, 'ev')).polls - start.polls >= 3, 20_000, 'three more polls');
    const end = await stats(host, 'ev');
    // The fixture stamps each poll as it arrives; each was sent at least the floor after the answer to the one before,
    // so a slow machine only widens the gaps. Unclamped, a 0 ms interval would poll again at once.
    const at = end.pollAt.slice(Math.max(0, start.polls - 1));
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps.length).toBeGreaterThanOrEqual(3);
    // A timer may fire a millisecond before its time.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000 - 2);
  });

  it('truncated: true leaves a gap marker in the feed and the loop continues from the fresh cursor', async () => {
    h = makeEventsHost(dir);
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '1000' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'poll' });
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 2 });
    await untilEvents(host, sub.id, 2);
    // The server forgets its history (and one event we never saw): the next poll reports the gap.
    await tool(host, 'ev', 'truncate', { name: 'tick.poll' });
    await until(() => feedAll(host, { subscriptionIds: [sub.id], kinds: ['gap'] }).length > 0, 15_000, 'a gap marker');
    const gap = feedAll(host, { subscriptionIds: [sub.id], kinds: ['gap'] })[0];
    expect(gap).toMatchObject({ kind: 'gap', serverId: 'ev', subscriptionId: sub.id, name: 'tick.poll' });
    expect(gap?.message).toMatch(/skipped events/);
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 1, idPrefix: 'after' });
    await until(() => eventIds(host, sub.id).some((e) => e.startsWith('after-')), 15_000, 'an event after the gap');
    // One gap, the lost event never shown, everything else once.
    expect(feedAll(host, { subscriptionIds: [sub.id], kinds: ['gap'] })).toHaveLength(1);
    expect(eventIds(host, sub.id)).toEqual(['evt-1', 'evt-2', 'after-4']);
  });
});

describe('restart', () => {
  it('the position survives a host restart: every event once, none lost (stdio fixture with a state file)', async () => {
    const state = `${dir}/fixture-state.json`;
    const server = eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '1000', EVENTS_FIXTURE_STATE: state });
    h = makeEventsHost(dir);
    await addApproved(h.host, server);
    expect(await h.host.sessions.connect('ev')).toMatchObject({ state: 'connected' });
    const sub = await h.host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'poll' });
    await untilState(h.host, sub.id, 'polling');
    await until(() => (h?.host.mcpEvents.subscriptions()[0]?.status.lastCursorAt ?? 0) > 0, 10_000, 'a first position');
    await tool(h.host, 'ev', 'emit', { name: 'tick.poll', count: 30 });
    await untilEvents(h.host, sub.id, 30);
    await h.host.shutdown();

    // While the host is down, the server's history grows (a second process with the same state file).
    const writerDir = tempDir('sb-events-writer-');
    const writer = makeEventsHost(writerDir);
    await addApproved(writer.host, eventsStdio('w', { lifecycle: 'discover' }, { EVENTS_FIXTURE_STATE: state }));
    await writer.host.sessions.connect('w');
    await tool(writer.host, 'w', 'emit', { name: 'tick.poll', count: 20 });
    await writer.host.shutdown();
    cleanup(writerDir);

    h = makeEventsHost(dir);
    const { host } = h;
    await host.start();
    expect(host.mcpEvents.subscriptions()).toHaveLength(1);
    // Restored subscriptions wait for their server; this one is manual, so connect it.
    expect(await host.sessions.connect('ev')).toMatchObject({ state: 'connected' });
    const ids = await untilEvents(host, sub.id, 50);
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 5 });
    const all = await untilEvents(host, sub.id, 55);
    expect(all).toHaveLength(55);
    expect(new Set(all).size).toBe(55);
    expect(all).toEqual(Array.from({ length: 55 }, (_, i) => `evt-${i + 1}`));
    expect(ids.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `evt-${i + 1}`));
    expect(subscription(host, sub.id).status.received).toBe(55);
  }, 60_000);
});
