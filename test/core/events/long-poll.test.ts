// The events client against a server in the newest sketch's shape (events-longpoll.ts): polls are held until an
// occurrence or `timeoutMs`, and after every answer the loop waits the server's `nextPollMs` (never under the floor)
// before the next poll: checked from the server's side, each poll arriving no sooner than that after the previous
// answer, and never two polls outstanding. A breaking schema change in place ends the subscription with -32014
// `schema_changed`: Switchboard lists the types again and resubscribes, with exactly one feed entry saying so; an
// additive change only re-lists; a removed type ends the subscription with a reason.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../../electron/core/host.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';
import { fixture, stdioServer } from '../sessions/helpers.js';
import {
  addApproved,
  eventIds,
  expectFixturesGone,
  feedAll,
  makeEventsHost,
  seenPids,
  subscription,
  tool,
  until,
  untilAsync,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

const LONGPOLL = fixture('events-longpoll.ts');
const TUNING = { pollFloorMs: 200, pollHoldMs: 1500, retryBaseMs: 200 };

interface LongPollStats {
  polls: number;
  pollAt: number[];
  answeredAt: (number | null)[];
  answeredNextPollMs: (number | null)[];
  answeredEvents: number[];
  pollTimeouts: (number | null)[];
  pollCursors: (string | null)[];
  pollErrors: number[];
  streamsOpened: number;
  streamCursors: (string | null)[];
  terminated: number;
  listCalls: number;
  epoch: number;
  pid: number;
}

let dir: string;
let h: EventsHarness | undefined;

async function lpStats(host: Host): Promise<LongPollStats> {
  const s = await tool<LongPollStats>(host, 'lp', 'stats');
  seenPids.add(s.pid);
  return s;
}

async function start(): Promise<Host> {
  h = makeEventsHost(dir, { tuning: TUNING });
  await addApproved(
    h.host,
    stdioServer('lp', LONGPOLL, { lifecycle: 'discover', timeouts: { probeSecs: 30, connectSecs: 60 } }, { EVENTS_LP_MAX_HOLD_MS: '1500' }),
  );
  expect(await h.host.sessions.connect('lp')).toMatchObject({ state: 'connected' });
  await lpStats(h.host);
  return h.host;
}

const resubscribed = (host: Host, id: string) =>
  feedAll(host, { kinds: ['activity'], serverIds: ['lp'] }).filter((e) => e.activity === 'resubscribed' && e.subscriptionId === id);

beforeEach(() => {
  dir = tempDir('sb-events-longpoll-');
});

afterEach(async () => {
  await h?.host.shutdown();
  h = undefined;
  cleanup(dir);
  await expectFixturesGone();
});

describe('long poll', () => {
  it('a held poll delivers as soon as an event exists, and each next poll waits nextPollMs (at least the floor) after the answer', async () => {
    const host = await start();
    await tool(host, 'lp', 'pace', { nextPollMs: 500 });
    const sub = await host.mcpEvents.subscribe({ id: 'lp', name: 'lp.tick', arguments: {}, mode: 'poll' });
    await untilState(host, sub.id, 'polling');
    // A poll with a position is being held by the server.
    await untilAsync(
      async () => {
        const s = await lpStats(host);
        return s.polls >= 2 && s.answeredAt.at(-1) === null;
      },
      20_000,
      'a held poll',
    );
    const held = (await lpStats(host)).polls - 1;
    await tool(host, 'lp', 'emit', { count: 2 });
    expect(await untilEvents(host, sub.id, 2)).toEqual(['lp-1', 'lp-2']);
    // The held poll answered with both; no other poll was asked for them.
    const afterEmit = await lpStats(host);
    expect(afterEmit.answeredEvents[held]).toBe(2);
    expect(afterEmit.answeredEvents.filter((n) => n > 0)).toEqual([2]);
    await untilAsync(async () => (await lpStats(host)).polls >= held + 4, 30_000, 'three more polls');

    // A server asking for less than the floor is held to the floor.
    await tool(host, 'lp', 'pace', { nextPollMs: 0 });
    const paced = (await lpStats(host)).polls;
    await tool(host, 'lp', 'emit', { count: 3 });
    await untilEvents(host, sub.id, 5);
    await untilAsync(async () => (await lpStats(host)).polls >= paced + 4, 30_000, 'polls at the floor');
    await host.mcpEvents.remove(sub.id);

    const s = await lpStats(host);
    expect(s.answeredAt.slice(0, -1).every((a) => a !== null)).toBe(true);
    for (let i = 1; i < s.polls; i++) {
      const previous = s.answeredAt[i - 1] as number;
      // Never two polls outstanding: each arrived after the one before was answered…
      expect(s.pollAt[i]!).toBeGreaterThanOrEqual(previous);
      // …and no sooner than the wait that answer asked for, the floor at least (1 ms for clock rounding).
      const owed = Math.max(TUNING.pollFloorMs, s.answeredNextPollMs[i - 1] ?? 0);
      expect(s.pollAt[i]! - previous).toBeGreaterThanOrEqual(owed - 1);
    }
    // Both paces were seen, and every poll after the first asked the server to hold it.
    expect(new Set(s.answeredNextPollMs.filter((n) => n !== null))).toEqual(new Set([500, 0]));
    expect(new Set(s.pollTimeouts)).toEqual(new Set([TUNING.pollHoldMs]));
    expect(eventIds(host, sub.id)).toEqual(['lp-1', 'lp-2', 'lp-3', 'lp-4', 'lp-5']);
  }, 90_000);
});

describe.each(['push', 'poll'] as const)('schema changes, %s', (mode) => {
  it('a breaking change ends the subscription with schema_changed: listed again, resubscribed, said once', async () => {
    const host = await start();
    await tool(host, 'lp', 'pace', { nextPollMs: 200 });
    const sub = await host.mcpEvents.subscribe({ id: 'lp', name: 'lp.tick', arguments: {}, mode });
    await untilState(host, sub.id, mode === 'push' ? 'streaming' : 'polling');
    await until(() => (subscription(host, sub.id).status.lastCursorAt ?? 0) > 0, 20_000, 'a first position');
    await tool(host, 'lp', 'emit', { count: 2 });
    await untilEvents(host, sub.id, 2);
    const listsBefore = (await lpStats(host)).listCalls;

    await tool(host, 'lp', 'change_schema', { breaking: true });
    await until(() => resubscribed(host, sub.id).length > 0, 20_000, 'the resubscription');
    await untilState(host, sub.id, mode === 'push' ? 'streaming' : 'polling');
    await tool(host, 'lp', 'emit', { count: 1 });
    expect(await untilEvents(host, sub.id, 3)).toEqual(['lp-1', 'lp-2', 'lp-3']);

    const notes = resubscribed(host, sub.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.message).toBe(
      'The server changed this event type’s schema; Switchboard listed its event types again and resubscribed',
    );
    // The position of the old schema was refused once; the resubscription started from now, and said so as a gap.
    const gaps = feedAll(host, { kinds: ['gap'], subscriptionIds: [sub.id] });
    expect(gaps.map((g) => g.message)).toEqual([
      'The server refused the last position after changing the event type; resubscribed from now',
    ]);
    expect(feedAll(host, { kinds: ['error'], subscriptionIds: [sub.id] })).toEqual([]);
    const s = await lpStats(host);
    expect(s.listCalls).toBeGreaterThan(listsBefore);
    if (mode === 'push') {
      expect(s.terminated).toBe(1);
      expect(s.streamCursors).toEqual([null, '1:2', null]);
    } else {
      expect(s.pollErrors).toEqual([-32014, -32014]);
    }
    expect(subscription(host, sub.id).status.state).not.toBe('ended');
  }, 90_000);

  it('an additive change only re-lists; a removed type ends the subscription with a reason', async () => {
    const host = await start();
    await tool(host, 'lp', 'pace', { nextPollMs: 200 });
    const sub = await host.mcpEvents.subscribe({ id: 'lp', name: 'lp.tick', arguments: {}, mode });
    await untilState(host, sub.id, mode === 'push' ? 'streaming' : 'polling');
    const listsBefore = (await lpStats(host)).listCalls;

    await tool(host, 'lp', 'change_schema', { breaking: false });
    // list_changed for a descriptor change: the types are listed again and the new optional field shows.
    await untilAsync(
      async () => JSON.stringify((await host.mcpEvents.types('lp')).types[0]?.payloadSchema ?? null).includes('"note"'),
      20_000,
      'the re-listed descriptor',
    );
    expect((await lpStats(host)).listCalls).toBeGreaterThan(listsBefore);
    await tool(host, 'lp', 'emit', { count: 1 });
    await untilEvents(host, sub.id, 1);
    expect(resubscribed(host, sub.id)).toEqual([]);
    expect((await lpStats(host)).terminated).toBe(0);

    await tool(host, 'lp', 'remove_type');
    const ended = await untilState(host, sub.id, 'ended');
    expect(ended.status.reason).toBe('The server removed this event type and no longer offers it');
    expect(resubscribed(host, sub.id)).toEqual([]);
  }, 90_000);
});
