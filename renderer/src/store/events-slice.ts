// Events state: each server's event types, the subscriptions with their live status, and the feed as the person
// sees it (newest first, pages loaded on demand, live arrivals put on top without moving what they are reading,
// counted as "new" until they go back to the top).
import type { EventDeliveryMode, EventTypesResult, FeedEntry, FeedFilter, SubscriptionView } from '../../../shared/domains/events';
import type { EventMap } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { feedMatcher } from '../../../shared/domains/events-filter';
import { appendOlder, prependNewer } from '../components/events/feed-logic';
import { eventsService } from '../services/events';
import type { SliceCreator, Store } from './types';

/** Feed entries per page. */
export const FEED_PAGE = 200;
/** Entries of the first page after a filter change: a screenful and some, so the first paint is quick. */
export const FIRST_PAGE = 60;
/** Newest entries fetched to fill a burst the live push only counted; past this the list restarts from the top. */
const HEAD_FILL_LIMIT = 1000;

/** One server's event types as the renderer knows them. */
export interface EventTypesState {
  loading: boolean;
  result?: EventTypesResult;
  error?: string;
}

/** The feed as shown. */
export interface FeedState {
  /** Loaded entries, newest first. */
  entries: FeedEntry[];
  /** Cursor of the next older page, when there is one. */
  cursor: string | undefined;
  /** A page is loading. */
  loading: boolean;
  /** Why the last load failed. */
  error: string | null;
  /** What the feed shows. */
  filter: FeedFilter;
  /** Entries that arrived above the person's scroll position. */
  unseen: number;
  /** Whether the person is at the top of the list (new entries then need no pill). */
  atTop: boolean;
  /** Bumped when the list is replaced (the view then goes back to the top). */
  version: number;
  /** How many stored entries match the filter in all (loaded or not), when the core has said. */
  total: number | undefined;
}

/** The events slice. */
export interface EventsSlice {
  eventTypes: Record<string, EventTypesState>;
  subscriptions: SubscriptionView[];
  subscriptionsLoaded: boolean;
  feed: FeedState;
  /** Loads the subscriptions. */
  loadSubscriptions: () => Promise<void>;
  /** A subscription changed or was removed (events.subscriptionStatus). */
  applySubscriptionStatus: (payload: EventMap['events.subscriptionStatus']) => void;
  /** Entries reached the feed (events.occurred). */
  applyEventsOccurred: (payload: EventMap['events.occurred']) => void;
  /** Loads a server's event types (again when `force`). */
  loadEventTypes: (id: string, force?: boolean) => Promise<void>;
  /** Creates a subscription; rejects with the core's error for the form to show. */
  subscribeEvent: (args: {
    id: string;
    name: string;
    arguments: Record<string, unknown>;
    mode: EventDeliveryMode;
    webhookUrl?: string;
    relayServerId?: string;
  }) => Promise<SubscriptionView>;
  pauseSubscription: (id: string) => Promise<void>;
  resumeSubscription: (id: string) => Promise<void>;
  removeSubscription: (id: string) => Promise<void>;
  /** Why the last subscription action failed. */
  subscriptionError: string | null;
  /** Shows the feed with a new filter (first page). */
  setFeedFilter: (filter: FeedFilter) => Promise<void>;
  /** Loads the next older page. */
  loadOlderFeed: () => Promise<void>;
  /** The person scrolled to (or away from) the top. */
  setFeedAtTop: (atTop: boolean) => void;
}

const message = (err: unknown): string =>
  err instanceof AppError ? err.message : err instanceof Error ? err.message : 'Something went wrong';

export const eventsInitialState = {
  eventTypes: {},
  subscriptions: [],
  subscriptionsLoaded: false,
  subscriptionError: null,
  feed: {
    entries: [],
    cursor: undefined,
    loading: false,
    error: null,
    filter: {},
    unseen: 0,
    atTop: true,
    version: 0,
    total: undefined,
  } as FeedState,
} satisfies Partial<EventsSlice>;

export const createEventsSlice: SliceCreator<EventsSlice> = (set, get) => {
  // The newest feed request wins; an older answer is dropped.
  let feedRequest = 0;
  // One head fill at a time: a burst during a fill is picked up by the next push.
  let headFilling = false;
  const setFeed = (patch: Partial<FeedState>): void => set({ feed: { ...get().feed, ...patch } });

  const upsert = (sub: SubscriptionView): void => {
    const list = get().subscriptions;
    const i = list.findIndex((s) => s.id === sub.id);
    set({ subscriptions: i < 0 ? [...list, sub] : list.map((s) => (s.id === sub.id ? sub : s)) });
  };

  /** A burst the push only counted: fetch the newest entries down to what is shown, or restart the list. */
  const fillHead = async (): Promise<void> => {
    if (headFilling) return;
    headFilling = true;
    try {
      const { filter } = get().feed;
      const request = feedRequest;
      const top = get().feed.entries[0]?.seq ?? 0;
      const fetched: FeedEntry[] = [];
      let cursor: string | undefined;
      let total: number | undefined;
      for (;;) {
        const page = await eventsService.feed(filter, FEED_PAGE, cursor);
        total ??= page.total;
        fetched.push(...page.entries);
        const reached = page.entries.some((e) => e.seq <= top) || page.nextCursor === undefined;
        if (reached) break;
        if (fetched.length >= HEAD_FILL_LIMIT) {
          if (request !== feedRequest) return;
          // Too much arrived to splice in: show the newest from the top again.
          setFeed({ entries: fetched, cursor: page.nextCursor, unseen: 0, version: get().feed.version + 1, total });
          return;
        }
        cursor = page.nextCursor;
      }
      if (request !== feedRequest) return;
      const feed = get().feed;
      const before = feed.entries.length;
      const entries = prependNewer(feed.entries, fetched);
      setFeed({ entries, unseen: feed.atTop ? 0 : feed.unseen + (entries.length - before), total: total ?? feed.total });
    } catch {
      // The next push or a reload tries again.
    } finally {
      headFilling = false;
    }
  };

  return {
    ...eventsInitialState,
    applySubscriptionStatus: ({ subscriptionId, subscription }) => {
      if (subscription) upsert(subscription);
      else set({ subscriptions: get().subscriptions.filter((s) => s.id !== subscriptionId) });
    },
    applyEventsOccurred: ({ entries, more }) => {
      for (const e of entries) {
        if (e.kind === 'activity' && e.activity === 'event-types-changed') {
          void get().loadEventTypes(e.serverId, true);
          if (get().groups.length > 0) get().applyCatalogChanged(get().catalogRevision);
        }
      }
      // Until the feed is first shown there is nothing to keep current: its first page will have these.
      if (feedRequest === 0) return;
      const feed = get().feed;
      if (more > 0) {
        void fillHead();
        return;
      }
      const matching = entries.filter(feedMatcher(feed.filter));
      if (matching.length === 0) return;
      const before = feed.entries.length;
      const next = prependNewer(feed.entries, matching);
      const added = next.length - before;
      setFeed({
        entries: next,
        unseen: feed.atTop ? 0 : feed.unseen + added,
        total: feed.total === undefined ? undefined : feed.total + added,
      });
    },
    loadSubscriptions: async () => {
      const subscriptions = await eventsService.subscriptions();
      set({ subscriptions, subscriptionsLoaded: true });
    },
    loadEventTypes: async (id, force) => {
      const current = get().eventTypes[id];
      if (current?.loading || (current?.result && !force)) return;
      set({ eventTypes: { ...get().eventTypes, [id]: { ...current, loading: true } } });
      try {
        const result = await eventsService.types(id);
        set({ eventTypes: { ...get().eventTypes, [id]: { loading: false, result } } });
      } catch (err) {
        set({ eventTypes: { ...get().eventTypes, [id]: { loading: false, error: message(err) } } });
      }
    },
    subscribeEvent: async (args) => {
      const sub = await eventsService.subscribe(args);
      upsert(sub);
      return sub;
    },
    subscriptionError: null,
    pauseSubscription: async (id) => {
      try {
        upsert(await eventsService.pause(id));
        set({ subscriptionError: null });
      } catch (err) {
        set({ subscriptionError: message(err) });
      }
    },
    resumeSubscription: async (id) => {
      try {
        upsert(await eventsService.resume(id));
        set({ subscriptionError: null });
      } catch (err) {
        set({ subscriptionError: message(err) });
      }
    },
    removeSubscription: async (id) => {
      try {
        await eventsService.remove(id);
        set({ subscriptions: get().subscriptions.filter((s) => s.id !== id), subscriptionError: null });
      } catch (err) {
        set({ subscriptionError: message(err) });
      }
    },
    setFeedFilter: async (filter) => {
      const request = ++feedRequest;
      setFeed({ filter, loading: true, error: null, unseen: 0 });
      try {
        const page = await eventsService.feed(filter, FIRST_PAGE);
        if (request !== feedRequest) return;
        setFeed({
          entries: page.entries,
          cursor: page.nextCursor,
          loading: false,
          unseen: 0,
          version: get().feed.version + 1,
          total: page.total,
        });
      } catch (err) {
        if (request === feedRequest) setFeed({ loading: false, error: message(err) });
      }
    },
    loadOlderFeed: async () => {
      const feed = get().feed;
      if (feed.loading || feed.cursor === undefined) return;
      const request = feedRequest;
      setFeed({ loading: true });
      try {
        const page = await eventsService.feed(feed.filter, FEED_PAGE, feed.cursor);
        if (request !== feedRequest) return;
        setFeed({ entries: appendOlder(get().feed.entries, page.entries), cursor: page.nextCursor, loading: false });
      } catch (err) {
        if (request === feedRequest) setFeed({ loading: false, error: message(err) });
      }
    },
    setFeedAtTop: (atTop) => {
      const feed = get().feed;
      if (feed.atTop === atTop && (!atTop || feed.unseen === 0)) return;
      setFeed({ atTop, ...(atTop ? { unseen: 0 } : {}) });
    },
  };
};

/** Subscriptions of one server. */
export const selectServerSubscriptions =
  (id: string) =>
  (s: Store): SubscriptionView[] =>
    s.subscriptions.filter((x) => x.serverId === id);
