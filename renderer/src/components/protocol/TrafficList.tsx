// The virtualized list of traffic entries: one row per message (time, direction, method, id, kind, size,
// duration), newest first or oldest first. With pairs, a request's row shows how its response went and how long it
// took (or that it is still waiting). Arrow keys move the selection; oldest first, the newest row stays in view while
// the person is at the bottom.
import { Badge, Group, Text } from '@mantine/core';
import { IconArrowDownLeft, IconArrowUpRight } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { TrafficEntry } from '../../../../shared/domains/protocol';
import { directionLabel, entryKey, formatClock, formatDuration } from './traffic-format';
import type { TrafficPairs } from './traffic-pairs';
import { formatSize } from '../../../../shared/format-size';

const KIND_COLOR: Record<TrafficEntry['kind'], string> = { request: 'blue', response: 'teal', notification: 'gray', error: 'red' };

/** Props of TrafficList. */
export interface TrafficListProps {
  entries: TrafficEntry[];
  selected: string | undefined;
  onSelect: (key: string) => void;
  /** Server display names by id (shown when the list spans servers). */
  serverNames?: Record<string, string>;
  /** Which end the newest message is at (default: oldest first, following the tail). */
  order?: 'newest' | 'oldest';
  /** Requests paired with their responses (their rows show the response's outcome and duration). */
  pairs?: TrafficPairs;
}

/** The traffic rows. */
export function TrafficList({ entries, selected, onSelect, serverNames, order = 'oldest', pairs }: TrafficListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtual = useVirtualizer({ count: entries.length, getScrollElement: () => parent.current, estimateSize: () => 40, overscan: 12 });

  useEffect(() => {
    // Newest first, the newest is at the top, where the list opens; oldest first, follow the tail.
    if (order === 'oldest' && atBottom.current && entries.length > 0) virtual.scrollToIndex(entries.length - 1, { align: 'end' });
  }, [entries.length, virtual, order]);

  const move = (delta: number) => {
    if (entries.length === 0) return;
    const at = entries.findIndex((e) => entryKey(e) === selected);
    const next = Math.min(entries.length - 1, Math.max(0, at < 0 ? (delta > 0 ? 0 : entries.length - 1) : at + delta));
    onSelect(entryKey(entries[next]!));
    virtual.scrollToIndex(next, { align: 'auto' });
    requestAnimationFrame(() =>
      parent.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(entryKey(entries[next]!))}"]`)?.focus(),
    );
  };

  return (
    <div
      ref={parent}
      className="sb-traffic-list"
      role="listbox"
      aria-label="Messages"
      tabIndex={entries.length === 0 ? 0 : -1}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown') {
          e.preventDefault();
          move(1);
        } else if (e.key === 'ArrowUp') {
          e.preventDefault();
          move(-1);
        } else if (e.key === 'Home') {
          e.preventDefault();
          move(-entries.length);
        } else if (e.key === 'End') {
          e.preventDefault();
          move(entries.length);
        }
      }}
    >
      <div style={{ height: virtual.getTotalSize(), position: 'relative' }}>
        {virtual.getVirtualItems().map((row) => {
          const e = entries[row.index];
          if (!e) return null;
          const key = entryKey(e);
          const isSelected = key === selected;
          const Arrow = e.direction === 'out' ? IconArrowUpRight : IconArrowDownLeft;
          const server = serverNames ? (serverNames[e.serverId] ?? e.serverId) : undefined;
          const answer = pairs && e.kind === 'request' && e.id !== undefined ? pairs.responseOf(e) : undefined;
          const waiting = pairs !== undefined && e.kind === 'request' && e.id !== undefined && answer === undefined;
          return (
            <div
              key={key}
              data-key={key}
              data-testid="traffic-row"
              role="option"
              aria-selected={isSelected}
              tabIndex={isSelected || (!selected && row.index === (order === 'newest' ? 0 : entries.length - 1)) ? 0 : -1}
              className="sb-traffic-row"
              data-selected={isSelected || undefined}
              style={{ transform: `translateY(${row.start}px)`, height: row.size }}
              onClick={() => onSelect(key)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  onSelect(key);
                }
              }}
            >
              <Text component="span" className="sb-mono sb-quiet" fz="xs" w={92}>
                {formatClock(e.time)}
              </Text>
              <Group gap={4} wrap="nowrap" w={92}>
                <Arrow
                  size={14}
                  aria-hidden
                  color={e.direction === 'out' ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-teal-7)'}
                />
                <Text component="span" fz="xs" fw={500}>
                  {directionLabel(e.direction)}
                </Text>
              </Group>
              {server !== undefined && (
                <Text component="span" fz="xs" w={120} truncate="end" data-testid="traffic-server">
                  {server}
                </Text>
              )}
              <Text
                component="span"
                className="sb-mono"
                fz="sm"
                fw={500}
                truncate="end"
                style={{ flex: 1, minWidth: 0 }}
                data-testid="traffic-method"
              >
                {e.method ?? '(no method)'}
                {e.id !== undefined && (
                  <Text component="span" className="sb-quiet" fz="xs">
                    {' '}
                    #{e.id}
                  </Text>
                )}
              </Text>
              <Badge
                variant="light"
                color={KIND_COLOR[e.kind]}
                c="var(--mantine-color-text)"
                size="sm"
                radius="sm"
                w={112}
                style={{ flex: 'none' }}
              >
                {e.kind}
              </Badge>
              <Text component="span" fz="xs" ta="right" w={76} data-testid="traffic-size">
                {formatSize(e.bytes)}
              </Text>
              <Text
                component="span"
                fz="xs"
                ta="right"
                w={96}
                {...(answer?.kind === 'error' ? { c: 'var(--mantine-color-red-text)' } : { className: 'sb-quiet' })}
                data-testid="traffic-duration"
              >
                {answer
                  ? `${answer.kind === 'error' ? 'error · ' : ''}${answer.durationMs !== undefined ? formatDuration(answer.durationMs) : 'answered'}`
                  : waiting
                    ? 'no answer'
                    : e.durationMs !== undefined
                      ? formatDuration(e.durationMs)
                      : ''}
              </Text>
            </div>
          );
        })}
      </div>
    </div>
  );
}
