// The one events feed filter: its rules, and the core's feed pages and the renderer's live list choosing the same
// entries with it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FeedFilter } from '../../../shared/domains/events.js';
import { feedMatcher, type FilterableFeedEntry } from '../../../shared/domains/events-filter.js';
import { FeedStore } from '../../../electron/core/events/feed-store.js';
import { checkOccurrence, isRefused } from '../../../electron/core/events/payload.js';
import { cleanup, tempDir } from '../support/harness.js';
import { applyPatch, type Patch } from '../../../shared/optional-fields.js';

const entry = (over: Patch<FilterableFeedEntry> = {}): FilterableFeedEntry =>
  applyPatch<FilterableFeedEntry>(
    { serverId: 'a', kind: 'event', time: 1000, subscriptionId: 's1', name: 'tick', eventId: 'e1', data: '{"word":"Hay"}' },
    over,
  );

describe('feedMatcher', () => {
  it('an empty filter passes everything', () => {
    expect(feedMatcher({})(entry())).toBe(true);
    expect(feedMatcher({ text: '   ' })(entry())).toBe(true);
  });

  it('each list narrows by membership; an entry without the field fails a name or subscription list', () => {
    expect(feedMatcher({ serverIds: ['a', 'b'] })(entry())).toBe(true);
    expect(feedMatcher({ serverIds: ['b'] })(entry())).toBe(false);
    expect(feedMatcher({ kinds: ['gap', 'activity'] })(entry())).toBe(false);
    expect(feedMatcher({ names: ['tick'] })(entry())).toBe(true);
    expect(feedMatcher({ names: ['tick'] })(entry({ name: undefined }))).toBe(false);
    expect(feedMatcher({ subscriptionIds: ['s1'] })(entry({ subscriptionId: undefined }))).toBe(false);
    expect(feedMatcher({ serverIds: [] })(entry())).toBe(false);
  });

  it('the time window includes both ends', () => {
    expect(feedMatcher({ since: 1000, until: 1000 })(entry())).toBe(true);
    expect(feedMatcher({ since: 1001 })(entry())).toBe(false);
    expect(feedMatcher({ until: 999 })(entry())).toBe(false);
  });

  it('text matches case-insensitively in name, event id, message, URI, server id, payload or activity kind', () => {
    const m = feedMatcher({ text: '  NEEDLE ' });
    expect(m(entry())).toBe(false);
    for (const field of ['name', 'eventId', 'message', 'uri', 'serverId', 'data', 'activity'] as const)
      expect(m(entry({ [field]: 'a needle here' })), field).toBe(true);
    expect(m(entry({ subscriptionId: 'needle' }))).toBe(false);
  });
});

describe('the core and the renderer choose the same entries', () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir('sb-feed-filter-');
  });
  afterEach(() => cleanup(dir));

  it('a feed page with a filter holds exactly the entries of the whole feed that the renderer would let through', () => {
    const feed = new FeedStore({ dir });
    feed.load();
    feed.appendNote({ kind: 'activity', serverId: 'a', activity: 'connected', message: 'Connected' });
    for (let i = 1; i <= 6; i++) {
      const o = checkOccurrence(
        {
          eventId: `e${i}`,
          name: i % 2 ? 'tick' : 'tock',
          data: { word: i === 3 ? 'Needle' : 'hay' },
          timestamp: `2026-01-0${i}T00:00:00Z`,
        },
        'tick',
        0,
      );
      if (isRefused(o)) throw new Error(o.reason);
      feed.appendEvent(i > 4 ? 'b' : 'a', i > 2 ? 's2' : 's1', o);
    }
    feed.appendNote({ kind: 'gap', serverId: 'b', subscriptionId: 's2', name: 'tock', message: 'skipped some' });
    const all = feed.page({}, undefined, 100).entries;
    const filters: FeedFilter[] = [
      {},
      { serverIds: ['b'] },
      { kinds: ['activity'] },
      { kinds: ['event', 'gap'], subscriptionIds: ['s2'] },
      { names: ['tock'] },
      { since: Date.parse('2026-01-02T00:00:00Z'), until: Date.parse('2026-01-04T00:00:00Z') },
      { text: 'needle' },
      { text: 'SKIPPED' },
      { text: 'connected', serverIds: ['a'] },
    ];
    for (const filter of filters) {
      const core = feed.page(filter, undefined, 100).entries.map((e) => e.seq);
      const renderer = all.filter(feedMatcher(filter)).map((e) => e.seq);
      expect(core, JSON.stringify(filter)).toEqual(renderer);
    }
    // The filters above do select: the comparison is not between empty lists.
    expect(all).toHaveLength(8);
    expect(all.filter(feedMatcher({ serverIds: ['b'] }))).toHaveLength(3);
    expect(all.filter(feedMatcher({ text: 'needle' })).map((e) => e.eventId)).toEqual(['e3']);
  });
});
