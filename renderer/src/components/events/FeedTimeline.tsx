// The timeline: one virtualized list, newest first. New entries arriving while the person reads further down do
// not move what they are reading (the scroll offset follows the rows added above) and are counted in an "N new"
// pill that jumps to the top. Older pages load as the end comes into view.
import { Badge, Box, Button, Center, Group, Loader, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconActivity, IconAlertTriangle, IconArrowUp, IconBell, IconCut } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { FeedEntry, FeedEntryKind } from '../../../../shared/domains/events';
import { useStore } from '../../store';
import { countLabel } from '../../ui/count';
import { clock, preview, visible } from './feed-logic';
import { useNow } from './use-now';

/** Height of one row (px); rows are single-line so the list can be virtualized with a fixed size. */
export const ROW_HEIGHT = 58;

const KIND_ICON: Record<FeedEntryKind, typeof IconBell> = {
  event: IconBell,
  gap: IconCut,
  error: IconAlertTriangle,
  activity: IconActivity,
};
const KIND_COLOR: Record<FeedEntryKind, string> = {
  event: 'var(--mantine-color-brand-6)',
  gap: 'var(--mantine-color-orange-6)',
  error: 'var(--mantine-color-red-6)',
  activity: 'var(--mantine-color-dimmed)',
};
const KIND_WORD: Record<FeedEntryKind, string> = { event: 'Event', gap: 'Gap', error: 'Error', activity: 'Host activity' };

function Row({ entry, now, selected, onOpen }: { entry: FeedEntry; now: number; selected: boolean; onOpen: () => void }) {
  const Icon = KIND_ICON[entry.kind];
  const title = entry.kind === 'activity' ? (entry.activity ?? 'activity').replace(/-/g, ' ') : visible(entry.name ?? entry.kind);
  return (
    <UnstyledButton
      onClick={onOpen}
      className="sb-feed-row mantine-focus-auto"
      data-selected={selected || undefined}
      data-kind={entry.kind}
    >
      <VisuallyHidden>{KIND_WORD[entry.kind]}: </VisuallyHidden>
      <Group gap="sm" wrap="nowrap" h="100%" px="sm">
        <Icon size={18} color={KIND_COLOR[entry.kind]} aria-hidden style={{ flex: 'none' }} />
        <Box style={{ minWidth: 0, flex: 1 }}>
          <Group gap={8} wrap="nowrap">
            <Text size="xs" className="sb-muted" ff="monospace" style={{ flex: 'none' }}>
              {clock(entry.time, now)}
            </Text>
            <Badge size="xs" variant="light" color="gray" tt="none" style={{ flex: 'none', maxWidth: 140 }}>
              {entry.serverId || 'Switchboard'}
            </Badge>
            <Text size="sm" fw={600} truncate="end" style={{ minWidth: 0 }}>
              {title}
            </Text>
            {entry.eventId && (
              <Text size="xs" className="sb-muted" ff="monospace" truncate="end" style={{ minWidth: 0, maxWidth: 200 }}>
                {visible(entry.eventId)}
              </Text>
            )}
          </Group>
          <Text size="xs" className="sb-muted" {...(entry.kind === 'event' ? { ff: 'monospace' } : {})} truncate="end">
            {visible(preview(entry))}
          </Text>
        </Box>
      </Group>
    </UnstyledButton>
  );
}

/** The virtualized feed; `selected` is the open entry's seq. */
export function FeedTimeline({ selected, onOpen }: { selected: number | null; onOpen: (entry: FeedEntry) => void }) {
  // Rows only need the day to pick a time format: a minute's resolution is plenty.
  const now = useNow(60_000);
  const feed = useStore((s) => s.feed);
  const loadOlder = useStore((s) => s.loadOlderFeed);
  const setAtTop = useStore((s) => s.setFeedAtTop);
  const scroller = useRef<HTMLDivElement>(null);
  const topSeq = useRef<number | undefined>(undefined);
  const version = useRef(feed.version);
  const entries = feed.entries;
  const virtual = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    getItemKey: (i) => entries[i]?.seq ?? i,
  });

  // Rows added above keep the person's place: move the scroll offset by their height (unless they are at the top).
  useLayoutEffect(() => {
    const el = scroller.current;
    const previous = topSeq.current;
    topSeq.current = entries[0]?.seq;
    if (!el) return;
    if (version.current !== feed.version) {
      version.current = feed.version;
      el.scrollTop = 0;
      return;
    }
    if (previous === undefined || el.scrollTop <= 2) return;
    const added = entries.findIndex((e) => e.seq === previous);
    if (added > 0) el.scrollTop += added * ROW_HEIGHT;
  }, [entries, feed.version]);

  const items = virtual.getVirtualItems();
  const last = items.at(-1)?.index ?? 0;
  useEffect(() => {
    if (feed.cursor !== undefined && !feed.loading && entries.length > 0 && last >= entries.length - 20) void loadOlder();
  }, [last, entries.length, feed.cursor, feed.loading, loadOlder]);

  const jumpToTop = (): void => {
    scroller.current?.scrollTo({ top: 0 });
    setAtTop(true);
  };

  return (
    <Box pos="relative">
      {feed.unseen > 0 && (
        <Center pos="absolute" top={8} left={0} right={0} style={{ zIndex: 2, pointerEvents: 'none' }}>
          <Button
            size="xs"
            variant="filled"
            radius="xl"
            leftSection={<IconArrowUp size={14} aria-hidden />}
            onClick={jumpToTop}
            style={{ pointerEvents: 'auto' }}
            data-testid="new-entries-pill"
          >
            {countLabel(feed.unseen, 'new entry', 'new entries')}
          </Button>
        </Center>
      )}
      <div
        ref={scroller}
        className="sb-feed-scroll"
        role="feed"
        aria-label="Event feed, newest first"
        aria-busy={feed.loading}
        data-testid="feed"
        onScroll={(e) => setAtTop(e.currentTarget.scrollTop <= 2)}
        tabIndex={-1}
      >
        {entries.length === 0 ? (
          <Center h="100%" p="xl">
            {feed.loading ? (
              <Loader size="sm" aria-label="Loading the feed" />
            ) : (
              <Text className="sb-muted" ta="center" data-testid="feed-empty">
                {feed.error ?? 'Nothing here yet. Subscribe to an event type on a server’s Events tab, or change the filters.'}
              </Text>
            )}
          </Center>
        ) : (
          <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const entry = entries[item.index];
              if (!entry) return null;
              return (
                <article
                  key={item.key}
                  data-testid="feed-row"
                  data-seq={entry.seq}
                  aria-posinset={item.index + 1}
                  aria-setsize={feed.cursor === undefined ? entries.length : -1}
                  style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
                >
                  <Row entry={entry} now={now} selected={selected === entry.seq} onOpen={() => onOpen(entry)} />
                </article>
              );
            })}
          </div>
        )}
      </div>
      <Group justify="center" py={6} gap="xs">
        {feed.loading && entries.length > 0 && <Loader size="xs" aria-label="Loading older entries" />}
        {feed.cursor !== undefined && !feed.loading && entries.length > 0 && (
          <Button size="xs" variant="subtle" onClick={() => void loadOlder()}>
            Load older entries
          </Button>
        )}
        {feed.cursor === undefined && entries.length > 0 && (
          <Text size="xs" className="sb-muted">
            {countLabel(entries.length, 'entry', 'entries')} · start of the stored feed
          </Text>
        )}
      </Group>
    </Box>
  );
}
