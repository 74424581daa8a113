// The Events view (#/events): one live timeline of every subscription's occurrences across all servers, newest
// first, with the host's own activity as a second kind of entry; filters that are also the deep link; the
// subscriptions with their status beside it; an entry opens in a drawer.
import './events.css';
import { Alert, Anchor, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FeedEntry } from '../../../../shared/domains/events';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { selectServerList } from '../../store/servers-slice';
import { selectRoute } from '../../store/ui-slice';
import { EntryDetail } from './EntryDetail';
import { FeedFilters, type FilterChoices } from './FeedFilters';
import { FeedTimeline } from './FeedTimeline';
import { feedCountText, visible } from './feed-logic';
import { EMPTY_QUERY, feedFilterOf, paramsFromQuery, queryFromParams, type FeedQuery } from './feed-query';
import { SubscriptionCard } from './SubscriptionCard';

/** The top-level Events view. */
export function EventsView() {
  const route = useStore(selectRoute);
  const navigate = useStore((s) => s.navigate);
  const loadSubscriptions = useStore((s) => s.loadSubscriptions);
  const setFeedFilter = useStore((s) => s.setFeedFilter);
  const subscriptions = useStore((s) => s.subscriptions);
  const subscriptionError = useStore((s) => s.subscriptionError);
  const serverList = useStore(useShallow(selectServerList));
  const servers = useMemo(() => serverList.map((x) => ({ value: x.id, label: `${x.name} (${x.id})` })), [serverList]);
  const shownCount = useStore((s) => s.feed.entries.length);
  const total = useStore((s) => s.feed.total);
  const [open, setOpen] = useState<FeedEntry | null>(null);
  const [startError, setStartError] = useState<string | null>(null);

  const paramsKey = JSON.stringify(route.query);
  const query = useMemo(() => queryFromParams(JSON.parse(paramsKey) as Record<string, string>), [paramsKey]);

  useEffect(() => {
    void loadSubscriptions().catch((err: unknown) =>
      setStartError(err instanceof Error ? err.message : 'Could not load the subscriptions'),
    );
  }, [loadSubscriptions]);
  // The location is the filter's source of truth: a deep link, back/forward or a control change all land here.
  useEffect(() => {
    void setFeedFilter(feedFilterOf(query, Date.now()));
  }, [query, setFeedFilter]);

  const onChange = useCallback(
    (next: FeedQuery) => navigate({ view: 'events', segments: [], query: paramsFromQuery(next) }, { replace: true }),
    [navigate],
  );

  const choices: FilterChoices = useMemo(() => {
    const known = new Set(servers.map((s) => s.value));
    const extra = [...new Set(subscriptions.map((s) => s.serverId))]
      .filter((id) => !known.has(id))
      .map((id) => ({ value: id, label: `${id} (removed)` }));
    return {
      servers: [...servers, ...extra],
      types: [...new Set([...subscriptions.map((s) => s.name), ...(query.type ? [query.type] : [])])].sort(),
      subscriptions: subscriptions.map((s) => ({ value: s.id, label: `${visible(s.name)} · ${s.serverId} · ${s.mode}` })),
    };
  }, [servers, subscriptions, query.type]);

  const openSubscription = open?.subscriptionId ? subscriptions.find((s) => s.id === open.subscriptionId) : undefined;
  const shown = subscriptions.filter((s) => query.servers.length === 0 || query.servers.includes(s.serverId));

  return (
    <div className="sb-events-layout">
      <section className="sb-events-main" aria-labelledby="events-title">
        <Group justify="space-between" align="baseline" wrap="wrap" gap="xs">
          <Title order={1} id="events-title" size="h2">
            Events
          </Title>
          <Text size="sm" className="sb-muted" aria-live="polite">
            {feedCountText(shownCount, total)} · arriving live
          </Text>
        </Group>
        <FeedFilters query={query} choices={choices} onChange={onChange} />
        <FeedTimeline selected={open?.seq ?? null} onOpen={setOpen} />
      </section>
      <aside className="sb-events-side" aria-labelledby="subscriptions-title">
        <Stack gap="sm">
          <Title order={2} size="h4" id="subscriptions-title">
            Subscriptions
          </Title>
          {startError && (
            <Alert color="red" role="alert">
              {startError}
            </Alert>
          )}
          {subscriptionError && (
            <Alert color="red" role="alert">
              {subscriptionError}
            </Alert>
          )}
          {shown.length === 0 ? (
            <Text size="sm" className="sb-muted">
              {subscriptions.length === 0
                ? 'No subscriptions yet. Open a server and its '
                : 'No subscriptions on the chosen servers. Open a server’s '}
              <Anchor href="#/servers" size="sm" underline="always">
                Events tab
              </Anchor>{' '}
              to subscribe to an event type.
            </Text>
          ) : (
            shown.map((sub) => <SubscriptionCard key={sub.id} sub={sub} onShowInFeed={() => onChange({ ...EMPTY_QUERY, sub: sub.id })} />)
          )}
        </Stack>
      </aside>
      <EntryDetail entry={open} {...(openSubscription ? { subscription: openSubscription } : {})} onClose={() => setOpen(null)} />
    </div>
  );
}
