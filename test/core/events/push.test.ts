// The push loop against the events fixtures over stdio (2025-11-25 and 2026-07-28) and Streamable HTTP (2025-11-25
// sessions, 2026-07-28 stateless): events in order, a stream the server ends is reopened from the last position,
// pausing cancels the stream (notifications/cancelled, or closing the POST on 2026-07-28 HTTP), a silent stream is
// reopened, a stream error is shown and the stream continues, and a crashed stdio child is re-subscribed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerConfigInput } from '../../../shared/config.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import {
  addApproved,
  EVENTS_HTTP,
  eventIds,
  eventsStdio,
  expectFixturesGone,
  feedAll,
  makeEventsHost,
  startHttpFixture,
  stats,
  subscription,
  tool,
  until,
  untilAsync,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

let dir: string;
let h: EventsHarness | undefined;
let stopHttp: (() => Promise<void>) | undefined;

beforeEach(() => {
  dir = tempDir('sb-events-push-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  await stopHttp?.();
  stopHttp = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

const ids = (from: number, to: number, prefix = 'evt'): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}-${from + i}`);

type Transport = { label: string; version: string; server: () => Promise<ServerConfigInput> };

const TRANSPORTS: Transport[] = [
  { label: 'stdio', version: '2025-11-25', server: async () => eventsStdio('ev', { lifecycle: 'initialize' }) },
  { label: 'stdio', version: '2026-07-28', server: async () => eventsStdio('ev', { lifecycle: 'discover' }) },
  {
    label: 'HTTP session',
    version: '2025-11-25',
    server: async () => {
      const f = await startHttpFixture(EVENTS_HTTP, ['--mode', 'session']);
      stopHttp = f.stop;
      return { id: 'ev', name: 'ev', transport: { type: 'http', url: f.url }, lifecycle: 'initialize', startup: 'manual' };
    },
  },
  {
    label: 'HTTP stateless',
    version: '2026-07-28',
    server: async () => {
      const f = await startHttpFixture(EVENTS_HTTP, ['--mode', 'stateless']);
      stopHttp = f.stop;
      return { id: 'ev', name: 'ev', transport: { type: 'http', url: f.url }, lifecycle: 'discover', startup: 'manual' };
    },
  },
];

describe.each(TRANSPORTS)('push over $label, $version', ({ version, server }) => {
  it('delivers in order, reopens a stream the server ended from the last position, and pausing cancels the stream', async () => {
    h = makeEventsHost(dir);
    const { host } = h;
    await addApproved(host, await server());
    expect(await host.sessions.connect('ev')).toMatchObject({ state: 'connected', protocolVersion: version });
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');

    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 20 });
    expect(await untilEvents(host, sub.id, 20)).toEqual(ids(1, 20));

    // The server ends the stream: it is reopened from the position after evt-20.
    const before = await stats(host, 'ev');
    expect(before.streamsOpen).toBe(1);
    await tool(host, 'ev', 'close_streams');
    await until(() => subscription(host, sub.id).status.state === 'streaming', 10_000, 'streaming again');
    await untilAsync(async () => (await stats(host, 'ev')).streamsOpened > before.streamsOpened, 10_000, 'a new stream');
    const reopened = await stats(host, 'ev');
    expect(reopened.streamCursors.at(-1)).toBe('20');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 5 });
    expect(await untilEvents(host, sub.id, 25)).toEqual(ids(1, 25));

    // Pause: the server sees the stream cancelled and holds no stream for us.
    const open = await stats(host, 'ev');
    await host.mcpEvents.pause(sub.id);
    expect(subscription(host, sub.id).status.state).toBe('paused');
    await untilAsync(async () => (await stats(host, 'ev')).streamsOpen === 0, 10_000, 'the server to see the stream cancelled');
    expect((await stats(host, 'ev')).streamsCancelled).toBeGreaterThan(open.streamsCancelled);
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 2 });
    // Resume: the stream reopens from the position and delivers what happened while paused.
    await host.mcpEvents.resume(sub.id);
    expect(await untilEvents(host, sub.id, 27)).toEqual(ids(1, 27));
    expect(subscription(host, sub.id).status.received).toBe(27);
  }, 60_000);
});

describe('push streams (stdio, 2026-07-28)', () => {
  it('a pause reaches the renderer after every entry the subscription delivered before it', async () => {
    // A long coalescing delay: without the flush before a status push, the entries would still be waiting.
    h = makeEventsHost(dir, { tuning: { pushDelayMs: 60_000 } });
    const { host, pushed } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 3 });
    expect(await untilEvents(host, sub.id, 3)).toEqual(ids(1, 3));
    await host.mcpEvents.pause(sub.id);
    const paused = pushed.findIndex(
      (p) => p.event === 'events.subscriptionStatus' && JSON.stringify(p.payload).includes('"state":"paused"'),
    );
    expect(paused).toBeGreaterThan(-1);
    const live = pushed
      .slice(0, paused)
      .filter((p) => p.event === 'events.occurred')
      .flatMap((p) => (p.payload as { entries: { eventId?: string }[] }).entries.map((e) => e.eventId))
      .filter((id): id is string => id !== undefined);
    expect(live.sort()).toEqual(ids(1, 3));
  }, 60_000);

  it('reopens a stream that stays silent (neither event nor heartbeat) for the silence timeout', async () => {
    h = makeEventsHost(dir, { tuning: { streamSilenceMs: 1500 } });
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'quiet', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await untilAsync(async () => (await stats(host, 'ev')).streamsOpened >= 3, 20_000, 'two reopens after silence');
    const s = await stats(host, 'ev');
    // Each silent stream was cancelled before the next one opened: never more than one open.
    expect(s.streamsCancelled).toBeGreaterThanOrEqual(2);
    expect(s.streamsOpen).toBeLessThanOrEqual(1);
    expect(s.streamCursors.slice(1).every((c) => c === s.streamCursors[1])).toBe(true);
  }, 60_000);

  it('a stream error shows in the feed and the stream goes on; events keep their order', async () => {
    h = makeEventsHost(dir);
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 3 });
    await tool(host, 'ev', 'stream_error');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 3 });
    expect(await untilEvents(host, sub.id, 6)).toEqual(ids(1, 6));
    const errors = feedAll(host, { subscriptionIds: [sub.id], kinds: ['error'] });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/delivery problem.*Upstream 503/);
    expect(subscription(host, sub.id).status.state).toBe('streaming');
    expect((await stats(host, 'ev')).streamsOpened).toBe(1);
  });

  it('re-subscribes after the stdio child crashes, from the last position (no event lost or repeated)', async () => {
    const state = `${dir}/fixture-state.json`;
    h = makeEventsHost(dir, { tuning: { retryBaseMs: 200 } });
    const { host } = h;
    await addApproved(host, eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_STATE: state }));
    await host.sessions.connect('ev');
    const sub = await host.mcpEvents.subscribe({ id: 'ev', name: 'tick.push', arguments: {}, mode: 'push' });
    await untilState(host, sub.id, 'streaming');
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 4 });
    await untilEvents(host, sub.id, 4);
    const first = await stats(host, 'ev');
    await tool(host, 'ev', 'crash').catch(() => undefined);
    // Nobody but the subscription uses the server now: it reconnects it and opens a new stream.
    await until(
      () => host.sessions.status('ev').state !== 'connected' || subscription(host, sub.id).status.state !== 'streaming',
      10_000,
      'the crash to be noticed',
    );
    await untilState(host, sub.id, 'streaming', 30_000);
    const second = await stats(host, 'ev');
    expect(second.pid).not.toBe(first.pid);
    expect(second.streamsOpened).toBe(1);
    expect(second.streamCursors).toEqual(['4']);
    await tool(host, 'ev', 'emit', { name: 'tick.push', count: 3 });
    expect(await untilEvents(host, sub.id, 7)).toEqual(ids(1, 7));
    expect(eventIds(host, sub.id)).toHaveLength(7);
  }, 60_000);
});
