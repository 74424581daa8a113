// The poll loop's pace against a hostile events server (issue 22): a server that answers every poll with `hasMore`,
// `nextPollMs: 0` and the cursor it was sent used to be asked again at once (14,000 requests in 10 s). Now polls
// after a "more" wait a floor, a stuck cursor backs off (doubling from the poll floor) and is said once in the feed's
// activity, and the loop recovers when the cursor moves. Counted over a bounded number of polls: each gap between two
// polls the fixture saw is at least the wait the loop owed it.
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
  untilAsync,
  untilEvents,
  untilState,
  type EventsHarness,
} from './helpers.js';

const TUNING = { pollFloorMs: 50, pollCeilingMs: 10_000, pollMoreFloorMs: 150 };
let dir: string;
let h: EventsHarness;

beforeAll(async () => {
  dir = tempDir('sb-events-pace-');
  h = makeEventsHost(dir, { tuning: TUNING });
  await addApproved(h.host, eventsStdio('ev', { lifecycle: 'discover' }, { EVENTS_FIXTURE_NEXT_POLL_MS: '60000' }));
  expect(await h.host.sessions.connect('ev')).toMatchObject({ state: 'connected' });
}, 60_000);

afterAll(async () => {
  await h.host.shutdown();
  cleanup(dir);
  await expectFixturesGone();
});

/** Starts a poll subscription and waits until its first poll ("from now") has settled a position. */
async function settledPoll(name: string): Promise<string> {
  const sub = await h.host.mcpEvents.subscribe({ id: 'ev', name, arguments: {}, mode: 'poll' });
  await untilState(h.host, sub.id, 'polling');
  await until(() => (subscription(h.host, sub.id).status.lastCursorAt ?? 0) > 0, 10_000, 'a first position');
  return sub.id;
}

/** Pause and resume keep the position and start the next poll now (the loop was waiting the server's 60 s). */
async function wake(id: string): Promise<void> {
  await h.host.mcpEvents.pause(id);
  await h.host.mcpEvents.resume(id);
}

describe('poll pacing', () => {
  it('a backlog drained through hasMore waits the floor between polls', async () => {
    const id = await settledPoll('tick.poll');
    const before = (await stats(h.host, 'ev')).polls;
    await tool(h.host, 'ev', 'emit', { name: 'tick.poll', count: 250 });
    await wake(id);
    expect(await untilEvents(h.host, id, 250)).toHaveLength(250);
    const s = await stats(h.host, 'ev');
    const drained = s.pollAt.slice(before);
    // 100 + 100 + 50: three polls, the second and third each at least the floor after the one before.
    expect(drained).toHaveLength(3);
    for (let i = 1; i < drained.length; i++) expect(drained[i]! - drained[i - 1]!).toBeGreaterThanOrEqual(TUNING.pollMoreFloorMs);
    await h.host.mcpEvents.remove(id);
  }, 60_000);

  it('a stuck cursor backs off, is said once in the activity, and the loop recovers when it moves', async () => {
    const id = await settledPoll('tick.all');
    await tool(h.host, 'ev', 'emit', { name: 'tick.all', count: 5, idPrefix: 'stuck' });
    await tool(h.host, 'ev', 'stick', { on: true });
    const before = (await stats(h.host, 'ev')).polls;
    await wake(id);
    const POLLS = 7;
    await untilAsync(async () => (await stats(h.host, 'ev')).polls - before >= POLLS, 30_000, `${POLLS} polls`);
    await tool(h.host, 'ev', 'stick', { on: false });
    const s = await stats(h.host, 'ev');
    const at = s.pollAt.slice(before, before + POLLS);
    // Every poll sent the same cursor and got it back: the k-th wait is the floor doubled k times.
    expect(new Set(s.pollCursors.slice(before, before + POLLS)).size).toBe(1);
    for (let k = 1; k < at.length; k++) expect(at[k]! - at[k - 1]!).toBeGreaterThanOrEqual(TUNING.pollFloorMs * 2 ** (k - 1));
    const slowed = feedAll(h.host, { kinds: ['activity'], serverIds: ['ev'] }).filter(
      (e) => e.activity === 'poll-slowed' && e.subscriptionId === id,
    );
    expect(slowed).toHaveLength(1);
    expect(slowed[0]!.message).toMatch(/does not move the position; polling slows down/);
    expect(eventIds(h.host, id).filter((e) => e.startsWith('stuck'))).toHaveLength(5);

    // The server behaves again: the next event arrives and the loop waits the server's interval once more.
    await tool(h.host, 'ev', 'emit', { name: 'tick.all', count: 1, idPrefix: 'moving' });
    await until(() => eventIds(h.host, id).some((e) => e.startsWith('moving')), 30_000, 'the event after the cursor moved');
    await until(() => subscription(h.host, id).status.pollEveryMs === TUNING.pollCeilingMs, 30_000, "the server's own interval");
    await h.host.mcpEvents.remove(id);
  }, 90_000);
});
