// The feed store and the order of writes: de-duplication, paging and filters, the bounded window, survival across
// a reopen, a corrupt file moved aside, and positions written only after the feed entries before them are on disk.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventsPersistence } from '../../../electron/core/events/events-persistence.js';
import { FeedStore } from '../../../electron/core/events/feed-store.js';
import { checkOccurrence, isRefused, type CheckedOccurrence } from '../../../electron/core/events/payload.js';
import { SubscriptionStore, type StoredSubscription } from '../../../electron/core/events/subscription-store.js';
import { cleanup, tempDir } from '../../shared/support/harness.js';

let dir: string;
beforeEach(() => {
  dir = tempDir('sb-feed-');
});
afterEach(() => cleanup(dir));

function occ(eventId: string, data: unknown = { eventId }, timestamp?: string): CheckedOccurrence {
  const o = checkOccurrence({ eventId, name: 'tick', data, ...(timestamp ? { timestamp } : {}) }, 'tick', 1000);
  if (isRefused(o)) throw new Error(o.reason);
  return o;
}

describe('FeedStore', () => {
  it('stores an occurrence once per (server, subscription, eventId)', () => {
    const feed = new FeedStore({ dir });
    feed.load();
    expect(feed.appendEvent('a', 's1', occ('e1'))).toBeDefined();
    expect(feed.appendEvent('a', 's1', occ('e1'))).toBeUndefined();
    expect(feed.appendEvent('a', 's2', occ('e1'))).toBeDefined();
    expect(feed.appendEvent('b', 's1', occ('e1'))).toBeDefined();
    expect(feed.page({}, undefined, 10).entries.map((e) => `${e.serverId}/${e.subscriptionId}/${e.eventId}`)).toEqual([
      'b/s1/e1',
      'a/s2/e1',
      'a/s1/e1',
    ]);
  });

  it('pages newest first across occurrences and activity, with filters by server, type, subscription, kind, time and text', () => {
    const feed = new FeedStore({ dir });
    feed.load();
    feed.appendNote({ kind: 'activity', serverId: 'a', activity: 'connected', message: 'Connected' });
    for (let i = 1; i <= 5; i++)
      feed.appendEvent('a', 's1', occ(`e${i}`, { n: i, word: i === 3 ? 'Needle' : 'hay' }, `2026-01-0${i}T00:00:00Z`));
    feed.appendNote({ kind: 'gap', serverId: 'a', subscriptionId: 's1', name: 'tick', message: 'skipped' });
    feed.appendEvent('b', 's9', occ('x1'));
    const first = feed.page({}, undefined, 3);
    expect(first.entries.map((e) => e.kind)).toEqual(['event', 'gap', 'event']);
    expect(first.nextCursor).toBe(String(first.entries[2]?.seq));
    const rest = feed.page({}, first.nextCursor, 100);
    expect(rest.entries.map((e) => e.eventId ?? e.activity)).toEqual(['e4', 'e3', 'e2', 'e1', 'connected']);
    expect(rest.nextCursor).toBeUndefined();
    // The first page counts every match (the view says "3 of 8"); later pages do not count again.
    expect(first.total).toBe(8);
    expect(rest.total).toBeUndefined();
    expect(feed.page({ serverIds: ['a'], kinds: ['event'] }, undefined, 2).total).toBe(5);
    expect(feed.page({ text: 'needle' }, undefined, 10).total).toBe(1);
    expect(feed.page({ serverIds: ['b'] }, undefined, 10).entries).toHaveLength(1);
    expect(feed.page({ kinds: ['activity'] }, undefined, 10).entries.map((e) => e.message)).toEqual(['Connected']);
    expect(feed.page({ kinds: ['event', 'gap'], subscriptionIds: ['s1'] }, undefined, 10).entries).toHaveLength(6);
    expect(feed.page({ names: ['tick'], serverIds: ['a'], kinds: ['event'] }, undefined, 10).entries).toHaveLength(5);
    expect(feed.page({ text: 'needle' }, undefined, 10).entries.map((e) => e.eventId)).toEqual(['e3']);
    const t2 = Date.parse('2026-01-02T00:00:00Z');
    const t4 = Date.parse('2026-01-04T00:00:00Z');
    expect(feed.page({ since: t2, until: t4, kinds: ['event'] }, undefined, 10).entries.map((e) => e.eventId)).toEqual(['e4', 'e3', 'e2']);
    expect(feed.page({}, undefined, 10).entries[0]?.data).toBe('{\n  "eventId": "x1"\n}');
  });

  it('keeps the newest entries within the count and byte budgets, on disk across a reopen', async () => {
    const feed = new FeedStore({ dir, limit: 1200 });
    feed.load();
    for (let i = 1; i <= 3000; i++) feed.appendEvent('a', 's', occ(`e${i}`));
    expect(feed.count).toBe(1200);
    await feed.flush();
    const files = readdirSync(dir).filter((f) => f.startsWith('events-'));
    // 500 entries per file: the files of entries that fell out of the window are gone.
    expect(files.length).toBeLessThanOrEqual(4);
    const reopened = new FeedStore({ dir, limit: 1200 });
    expect(reopened.load()).toEqual([]);
    const all = reopened.page({}, undefined, 500);
    expect(all.entries[0]?.eventId).toBe('e3000');
    expect(reopened.count).toBe(1200);
    expect(reopened.lastSeq).toBe(3000);
    // De-duplication survives the reopen.
    expect(reopened.appendEvent('a', 's', occ('e2999'))).toBeUndefined();
    expect(reopened.appendEvent('a', 's', occ('e3001'))?.seq).toBe(3001);

    const bytes = new FeedStore({ dir: join(dir, 'b'), maxBytes: 100_000 });
    bytes.load();
    for (let i = 1; i <= 50; i++) bytes.appendEvent('a', 's', occ(`big${i}`, { s: 'x'.repeat(10_000) }));
    expect(bytes.count).toBeLessThanOrEqual(10);
    expect(bytes.page({}, undefined, 1).entries[0]?.eventId).toBe('big50');
  });

  it('moves a corrupt feed file aside and keeps the rest', async () => {
    const feed = new FeedStore({ dir });
    feed.load();
    for (let i = 1; i <= 600; i++) feed.appendEvent('a', 's', occ(`e${i}`));
    await feed.flush();
    const first = readdirSync(dir)
      .filter((f) => f.startsWith('events-'))
      .sort()[0] as string;
    writeFileSync(join(dir, first), '{"version":1,"entries":[{"seq":"oops"}');
    const reopened = new FeedStore({ dir });
    const notices = reopened.load();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/was unreadable \(the file is not valid JSON\) and was moved aside to .*\.corrupt-/);
    expect(reopened.count).toBe(100);
    expect(readdirSync(dir).some((f) => f.includes('.corrupt-'))).toBe(true);
  });
});

describe('positions follow the feed to disk', () => {
  const sub: StoredSubscription = { id: 's', serverId: 'a', name: 'tick', arguments: {}, mode: 'poll', createdAt: 1, paused: false };

  it('a position is written only after the entries stored before it are on disk', async () => {
    const feed = new FeedStore({ dir: join(dir, 'feed') });
    feed.load();
    const store = new SubscriptionStore(dir, { writeDelayMs: 5 });
    store.load();
    store.put(sub);
    await store.flush();
    const persistence = new EventsPersistence(feed, store, { delayMs: 10_000, backlogLimit: 1000, onError: () => undefined });
    const entry = feed.appendEvent('a', 's', occ('e1'));
    store.setCursor('s', { cursor: 'c1', received: 1 }, entry?.seq ?? 0);
    // Nothing written yet: not the feed entry, not the position.
    expect(existsSync(join(dir, 'cursors.json'))).toBe(false);
    await persistence.flush();
    expect(JSON.parse(readFileSync(join(dir, 'cursors.json'), 'utf8'))).toEqual({
      version: 1,
      cursors: { s: { cursor: 'c1', received: 1 } },
    });
    expect(readFileSync(join(dir, 'feed', 'events-00000001.json'), 'utf8')).toContain('"eventId":"e1"');

    // The feed cannot be written: the position stays where it was on disk.
    const e2 = feed.appendEvent('a', 's', occ('e2'));
    store.setCursor('s', { cursor: 'c2', received: 2 }, e2?.seq ?? 0);
    rmSync(join(dir, 'feed'), { recursive: true });
    writeFileSync(join(dir, 'feed'), 'not a folder');
    await expect(persistence.flush()).rejects.toThrow();
    expect(JSON.parse(readFileSync(join(dir, 'cursors.json'), 'utf8')).cursors.s.cursor).toBe('c1');
    expect(store.pendingCursors).toBe(1);

    // Once the feed can be written again, both reach the disk.
    rmSync(join(dir, 'feed'));
    mkdirSync(join(dir, 'feed'));
    await persistence.flush();
    expect(JSON.parse(readFileSync(join(dir, 'cursors.json'), 'utf8')).cursors.s.cursor).toBe('c2');
    expect(readFileSync(join(dir, 'feed', 'events-00000001.json'), 'utf8')).toContain('"eventId":"e2"');
    persistence.dispose();
  });

  it('moves an unreadable subscriptions file aside and says so', () => {
    writeFileSync(join(dir, 'subscriptions.json'), '{"version":1,"subscriptions":[{"id":5}]}');
    const store = new SubscriptionStore(dir);
    const notices = store.load();
    expect(notices[0]).toMatch(/The event subscriptions file was unreadable .* moved aside/);
    expect(store.all()).toEqual([]);
  });
});
