// Hostile servers: duplicate event ids, a cursor that goes backwards, a 1 MiB payload, markup and ANSI in payloads,
// 100,000 events as fast as the server can send them, both generations of the draft's error codes, and a server
// that terminates a stream as forbidden.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import {
  addApproved,
  eventIds,
  eventsStdio,
  expectFixturesGone,
  feedAll,
  makeEventsHost,
  stats,
  subscription,
  tool,
  until,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

let dir: string;
let h: EventsHarness;

beforeAll(async () => {
  dir = tempDir('sb-events-hostile-');
  h = makeEventsHost(dir, { tuning: { retryBaseMs: 100, retryMaxMs: 400 } });
  await addApproved(h.host, eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '1000' }));
  await addApproved(h.host, eventsStdio('old', { lifecycle: 'initialize' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '1000' }));
  expect(await h.host.sessions.connect('ev')).toMatchObject({ state: 'connected' });
  expect(await h.host.sessions.connect('old')).toMatchObject({ state: 'connected' });
  await stats(h.host, 'ev');
  await stats(h.host, 'old');
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
  await expectFixturesGone();
});

describe('hostile payloads and ids', () => {
  it('duplicate event ids are stored once (push), and a cursor that goes backwards repeats nothing (poll)', async () => {
    const { host } = h;
    const push = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, push.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 5, duplicateIds: true, idPrefix: 'same' });
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 1, idPrefix: 'marker' });
    await until(() => eventIds(host, push.id).some((e) => e.startsWith('marker-')), 10_000, 'the marker event');
    expect(eventIds(host, push.id).filter((e) => e === 'same-0')).toHaveLength(1);

    const poll = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.poll', arguments: {}, mode: 'poll' });
    await untilState(host, poll.id, 'polling');
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 10, idPrefix: 'p' });
    await untilEvents(host, poll.id, 10);
    // The server hands out a cursor 10 positions back: the next polls re-send ten events we already have.
    const before = (await stats(host, 'ev')).polls;
    await tool(host, 'ev', 'rewind', { by: 10 });
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 1, idPrefix: 'q' });
    await until(() => eventIds(host, poll.id).some((e) => e.startsWith('q-')), 15_000, 'the event after the rewind');
    await tool(host, 'ev', 'emit', { name: 'tick.poll', count: 1, idPrefix: 'r' });
    await until(() => eventIds(host, poll.id).some((e) => e.startsWith('r-')), 15_000, 'a later event');
    expect((await stats(host, 'ev')).polls - before).toBeGreaterThanOrEqual(2);
    const all = eventIds(host, poll.id);
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    await host.mcpEvents.remove(push.id);
    await host.mcpEvents.remove(poll.id);
  }, 60_000);

  it('a 1 MiB payload is skipped with an error entry; the next event arrives', async () => {
    const { host } = h;
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.all', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.all', count: 1, bytes: 1024 * 1024, idPrefix: 'huge' });
    await tool(host, 'ev', 'emit', { name: 'tick.all', count: 1, idPrefix: 'small' });
    await until(() => eventIds(host, sub.id).some((e) => e.startsWith('small-')), 15_000, 'the event after the big one');
    expect(eventIds(host, sub.id).some((e) => e.startsWith('huge-'))).toBe(false);
    const errors = feedAll(host, { subscriptionIds: [sub.id], kinds: ['error'] });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/huge-\d+ of tick\.all was skipped: its data is 1\.0 MiB, over the 256 KiB limit/);
    await host.mcpEvents.remove(sub.id);
  });

  it('markup, ANSI escapes, bidi and zero-width characters in a payload reach the feed inert and visible', async () => {
    const { host } = h;
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'alert', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'alert', markup: true, idPrefix: 'mk' });
    await untilEvents(host, sub.id, 1);
    const [entry] = feedAll(host, { subscriptionIds: [sub.id], kinds: ['event'] });
    const data = entry?.data ?? '';
    // Valid JSON that parses back to what the server sent…
    expect(JSON.parse(data)).toMatchObject({ bidi: 'abc\u202Eexe.txt', zero: 'a\u200Bb', ansi: expect.stringContaining('\u001b[31m') });
    // …but the text itself holds no raw control, escape, bidi or zero-width character: they show as \u escapes.
    expect(data).not.toMatch(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/);
    expect(data).toContain('\\u202e');
    expect(data).toContain('\\u001b[31m');
    expect(data).toContain('<script>window.__pwned=1</script>');
    await host.mcpEvents.remove(sub.id);
  });

  it('100,000 events as fast as the server can send them: the feed keeps the newest 10,000, none twice, and the stream keeps up', async () => {
    const { host } = h;
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    const flood = await tool<{ first: number; last: number }>(host, 'ev', 'flood', { name: 'tick.push', count: 100_000 });
    await until(() => subscription(host, sub.id).status.received >= 100_000, 120_000, 'all 100,000 events');
    await host.mcpEvents.flush();
    expect(subscription(host, sub.id).status.received).toBe(100_000);
    const ids = eventIds(host, sub.id);
    // The window: exactly the newest occurrences, in order, within the feed's 10,000.
    expect(host.mcpEvents.feedCount).toBe(10_000);
    expect(ids.length).toBeLessThanOrEqual(10_000);
    expect(ids.at(-1)).toBe(`flood-${flood.last}`);
    expect(new Set(ids).size).toBe(ids.length);
    const tail = ids.slice(-100).map((e) => Number(e.slice('flood-'.length)));
    expect(tail).toEqual(Array.from({ length: 100 }, (_, i) => flood.last - 99 + i));
    await host.mcpEvents.remove(sub.id);
  }, 180_000);
});

describe('error codes of both draft generations', () => {
  const cases = [
    { code: -32011, state: 'ended', reason: /does not know this event type/ },
    { code: -32023, state: 'ended', reason: /does not know this event type/ },
    { code: -32012, state: 'ended', reason: /refused access/ },
    { code: -32024, state: 'ended', reason: /refused access/ },
    { code: -32014, state: 'ended', reason: /does not support/ },
    { code: -32026, state: 'ended', reason: /does not support/ },
    { code: -32602, state: 'ended', reason: /refused the subscription arguments/ },
    { code: -32013, state: 'retrying', reason: /reached a limit/ },
    { code: -32025, state: 'retrying', reason: /reached a limit/ },
    { code: -32603, state: 'retrying', reason: /reported an error/ },
  ] as const;

  it.each(cases)('$code on poll (2025-11-25) and push (2026-07-28): $state', async ({ code, state, reason }) => {
    const { host } = h;
    for (const [server, mode] of [
      ['old', 'poll'],
      ['ev', 'push'],
    ] as const) {
      const sub = await host.mcpEvents.subscribe({ id: server, name: 'fails', arguments: { code, reason: 'because' }, mode });
      const view = await untilState(host, sub.id, state);
      expect(view.status.reason).toMatch(reason);
      expect(view.status.reason).toContain('because');
      if (state === 'retrying') expect(view.status.retryAt).toBeGreaterThan(Date.now() - 1000);
      if (state === 'ended')
        expect(feedAll(host, { subscriptionIds: [sub.id], kinds: ['error'] })[0]?.message).toMatch(/^Subscription ended: /);
      await host.mcpEvents.remove(sub.id);
    }
  });

  it('a stream terminated as forbidden ends the subscription with the reason; resume starts it again', async () => {
    const { host } = h;
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'terminate_streams', { code: -32012, reason: 'Access revoked' });
    const ended = await untilState(host, sub.id, 'ended');
    expect(ended.status.reason).toBe('The server refused access to these events (Terminated; reason: Access revoked)');
    expect(ended.status.signIn).toBeUndefined();
    expect((await stats(host, 'ev')).streamsOpen).toBe(0);
    await host.mcpEvents.resume(sub.id);
    await untilState(host, sub.id, 'streaming');
    await host.mcpEvents.remove(sub.id);
  });
});
