// A virtualized list of tools: only the visible rows are in the DOM, so 20,000 rows scroll smoothly. Each row is a
// link to the tool (its deep link) that leads with the tool's title, then its local name in small monospace; the
// arrow keys, Home and End move between rows (scrolling the list), Tab leaves it.
import { Badge, Box, Group, Text } from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ToolSummary } from '../../../../shared/domains/catalog';
import { oneLine } from '../../ui/text';

const ROW_HEIGHT = 66;

/** Props of the virtualized tool list. */
export interface ToolListProps {
  /** Total rows (some may not be loaded yet). */
  total: number;
  /** Row at an index, when loaded. */
  row: (index: number) => ToolSummary | undefined;
  /** Local name of the open tool. */
  selected: string | null;
  /** The deep link of a tool. */
  hrefFor: (name: string) => string;
  /** Called with the visible index range so missing rows can be loaded. */
  onRange?: (start: number, end: number) => void;
  /** Changes when the row data changes identity (new query or revision). */
  dataKey: string;
  /** Accessible name of the list. */
  label?: string;
  /** A server's display name, shown on each row when the list spans servers. */
  serverName?: (id: string) => string;
  /** Height of the scrolling list. */
  height?: string | number;
}

/** The hint chips of a tool (server claims, shown as such). */
export function ToolChips({ tool }: { tool: ToolSummary }) {
  const a = tool.annotations;
  const chips: { label: string; color: string }[] = [];
  if (tool.unavailable) chips.push({ label: 'unavailable', color: 'red' });
  if (tool.pin === 'changed') chips.push({ label: 'changed', color: 'yellow' });
  if (tool.stale) chips.push({ label: 'stale', color: 'yellow' });
  if (tool.appOnly) chips.push({ label: 'app-only', color: 'grape' });
  if (tool.hasApp) chips.push({ label: 'app', color: 'violet' });
  if (a.readOnlyHint) chips.push({ label: 'read-only', color: 'teal' });
  if (a.destructiveHint) chips.push({ label: 'destructive', color: 'red' });
  if (a.openWorldHint) chips.push({ label: 'open world', color: 'gray' });
  if (chips.length === 0) return null;
  return (
    <Group gap={4} wrap="nowrap" style={{ flex: 'none' }}>
      {chips.map((c) => (
        <Badge key={c.label} component="span" size="xs" variant="light" color={c.color} radius="sm" tt="none">
          {c.label}
        </Badge>
      ))}
    </Group>
  );
}

/** The row's third line for a tool whose server lost its secrets: why it cannot be called (its description is in the detail). */
/** The short line for tools (or a server) whose secrets were lost at a restart. */
export function lostLine(names: readonly string[]): string {
  return `${names.length === 1 ? 'Secret' : 'Secrets'} ${oneLine(names.join(', '))} lost at restart — enter ${names.length === 1 ? 'it' : 'them'} again`;
}

/** The virtualized list. */
export function ToolList({ total, row, selected, hrefFor, onRange, dataKey, label = 'Tools', serverName, height = 520 }: ToolListProps) {
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (total > 0) onRange?.(first, last);
  }, [first, last, total, dataKey, onRange]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'].includes(e.key)) return;
    const current = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-index]');
    if (!current || !parent.current?.contains(current)) return;
    e.preventDefault();
    const at = Number(current.dataset['index']);
    const page = Math.max(1, Math.floor((parent.current.clientHeight || ROW_HEIGHT * 8) / ROW_HEIGHT) - 1);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -total, End: total };
    const next = Math.max(0, Math.min(total - 1, at + (step[e.key] ?? 0)));
    virtualizer.scrollToIndex(next, { align: 'auto' });
    const focusRow = (tries: number): void => {
      const el = parent.current?.querySelector<HTMLElement>(`[data-index="${next}"] a, [data-index="${next}"] [data-row]`);
      if (el) el.focus();
      else if (tries > 0) requestAnimationFrame(() => focusRow(tries - 1));
    };
    requestAnimationFrame(() => focusRow(10));
  };

  return (
    <Box
      ref={parent}
      role="list"
      aria-label={label}
      data-testid="tool-list"
      onKeyDown={onKeyDown}
      style={{ height, overflowY: 'auto', contain: 'strict' }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const tool = row(item.index);
          const active = tool?.name === selected;
          return (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
            >
              {tool ? (
                <a
                  href={hrefFor(tool.name)}
                  className="sb-row"
                  data-active={active || undefined}
                  aria-current={active ? 'true' : undefined}
                  style={{ height: ROW_HEIGHT - 2, overflow: 'hidden' }}
                >
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text component="span" fw={500} size="sm" truncate>
                      {oneLine(tool.title ?? tool.originalName)}
                    </Text>
                    <ToolChips tool={tool} />
                  </Group>
                  <Text component="span" size="xs" c="dimmed" className="sb-mono" display="block" truncate>
                    {tool.name}
                    {serverName ? ` · ${oneLine(serverName(tool.serverId))}` : ''}
                  </Text>
                  <Text component="span" size="xs" c="dimmed" display="block" truncate>
                    {tool.unavailable ? lostLine(tool.unavailable.missingSecrets) : oneLine(tool.description) || 'No description.'}
                  </Text>
                </a>
              ) : (
                <Box className="sb-row" aria-busy="true" style={{ height: ROW_HEIGHT - 2 }}>
                  <Text size="xs" c="dimmed">
                    Loading…
                  </Text>
                </Box>
              )}
            </div>
          );
        })}
      </div>
    </Box>
  );
}
