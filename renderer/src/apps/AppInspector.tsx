// The Inspector: every `ui/*` message between Switchboard and one app (direction, method, kind, size, time, payload
// as text), the refused ones, and the facts of the sandbox the app runs in — for server authors debugging an app.
import { Badge, Button, Code, Group, ScrollArea, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowLeft, IconArrowRight, IconBan } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { AppLaunch } from '../../../shared/domains/apps';
import type { MessageEntry, MessageLog } from './message-log';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';
import { formatSize } from '../../../shared/format-size';

const ROW_HEIGHT = 30;

const formatTime = (at: number, start: number): string => `+${((at - start) / 1000).toFixed(3)} s`;

const DIRECTION: Record<MessageEntry['direction'], { label: string; icon: typeof IconArrowLeft; color: string }> = {
  in: { label: 'App → Switchboard', icon: IconArrowRight, color: 'blue' },
  out: { label: 'Switchboard → App', icon: IconArrowLeft, color: 'teal' },
  refused: { label: 'Refused', icon: IconBan, color: 'red' },
};

/** Props of the Inspector. */
export interface AppInspectorProps {
  log: MessageLog;
  launch: AppLaunch;
  /** When the frame was created (ms since the epoch), for relative times. */
  startedAt: number;
  /** How long the app took to initialize, once it did. */
  initMs: number | null;
}

/** The message list and sandbox facts of one app. */
export function AppInspector({ log, launch, startedAt, initMs }: AppInspectorProps) {
  const entries = useSyncExternalStore(log.subscribe, log.entries);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const shown = useMemo(() => {
    const f = filter.trim().toLowerCase();
    return f
      ? entries.filter((e) => e.method.toLowerCase().includes(f) || (e.summary ?? '').toLowerCase().includes(f) || e.direction === f)
      : entries;
  }, [entries, filter]);
  const parent = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const chosen = shown.find((e) => e.seq === selected) ?? null;
  // Follow new messages while the list is scrolled to its end (scrolling up stops following).
  const following = useRef(true);
  useEffect(() => {
    if (following.current && shown.length > 0) virtualizer.scrollToIndex(shown.length - 1, { align: 'end' });
  }, [shown.length, virtualizer]);

  return (
    <Stack gap="xs" p="sm" className="sb-app-inspector" aria-label="App inspector" role="region">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            Inspector
          </Text>
          <Text size="xs" className="sb-dim" data-testid="inspector-count">
            {entries.length} message{entries.length === 1 ? '' : 's'}
          </Text>
          {initMs !== null && (
            <Badge variant="light" size="sm" data-testid="app-init-ms">
              initialized in {initMs} ms
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <TextInput
            size="xs"
            aria-label="Filter messages"
            placeholder="Filter by method or text"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
          />
          <Button size="xs" onClick={() => log.clear()}>
            Clear
          </Button>
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={560} type="native">
        <div
          ref={parent}
          className="sb-app-inspector-list"
          role="list"
          aria-label="App messages"
          onScroll={(e) => {
            const el = e.currentTarget;
            following.current = el.scrollTop + el.clientHeight >= el.scrollHeight - ROW_HEIGHT;
          }}
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((v) => {
              const e = shown[v.index]!;
              const d = DIRECTION[e.direction];
              const Icon = d.icon;
              return (
                <UnstyledButton
                  key={e.seq}
                  role="listitem"
                  className="sb-app-inspector-row"
                  data-selected={selected === e.seq || undefined}
                  data-direction={e.direction}
                  aria-label={`${d.label} ${e.method} ${e.kind}${e.summary ? `: ${e.summary}` : ''}`}
                  onClick={() => setSelected(selected === e.seq ? null : e.seq)}
                  style={{ transform: `translateY(${v.start}px)`, height: ROW_HEIGHT }}
                >
                  <Text span size="xs" className="sb-dim sb-mono sb-col-time">
                    {formatTime(e.at, startedAt)}
                  </Text>
                  <Icon size={14} aria-label={d.label} color={`var(--mantine-color-${d.color}-6)`} />
                  <Text span size="xs" className="sb-mono sb-col-method" truncate="end">
                    {e.direction === 'refused' ? e.summary : e.method}
                    {e.direction !== 'refused' && e.summary && (
                      <Text span size="xs" className="sb-dim" inherit>
                        {' '}
                        — {e.summary}
                      </Text>
                    )}
                  </Text>
                  <Text span size="xs" className="sb-dim sb-col-kind">
                    {e.kind}
                    {e.id !== undefined ? ` #${String(e.id)}` : ''}
                  </Text>
                  <Text span size="xs" className="sb-dim sb-col-size">
                    {formatSize(e.bytes)}
                  </Text>
                </UnstyledButton>
              );
            })}
          </div>
        </div>
      </Table.ScrollContainer>
      {chosen && (
        <ScrollArea.Autosize mah={280} type="auto">
          <Code block data-testid="inspector-payload" aria-label={`Payload of ${chosen.method}`}>
            {chosen.text || '(no payload)'}
          </Code>
        </ScrollArea.Autosize>
      )}
      <SandboxFacts launch={launch} />
    </Stack>
  );
}

/** What the sandbox enforces for this app. */
function SandboxFacts({ launch }: { launch: AppLaunch }) {
  let origin = launch.sandboxUrl;
  try {
    origin = new URL(launch.sandboxUrl).origin;
  } catch {
    // Keep the URL as given.
  }
  return (
    <details>
      <summary>
        <Text span size="xs" fw={600}>
          Sandbox
        </Text>
      </summary>
      <Table fz="xs" withRowBorders={false} verticalSpacing={2} aria-label="Sandbox facts">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={150}>Resource</Table.Th>
            <Table.Td className="sb-mono">{launch.resourceUri}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>HTML</Table.Th>
            <Table.Td className="sb-mono">
              {formatSize(launch.htmlBytes)} · sha256 {launch.htmlSha256.slice(0, 16)}…
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Proxy origin</Table.Th>
            <Table.Td className="sb-mono">{origin} (the app itself runs with an opaque origin)</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Content-Security-Policy</Table.Th>
            <Table.Td className="sb-mono" data-testid="app-csp">
              {launch.cspPolicy}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Permissions</Table.Th>
            <Table.Td>
              requested: {launch.permissions.requested.join(', ') || 'none'} · granted: {launch.permissions.granted.join(', ') || 'none'} ·
              pop-ups: {launch.popups ? 'allowed' : 'blocked'} · model replies: {launch.sampling ? 'may ask' : 'not offered'}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Border</Table.Th>
            <Table.Td>
              {launch.prefersBorder === undefined
                ? 'not asked (shown)'
                : launch.prefersBorder
                  ? 'asked for (shown)'
                  : 'asked for none (none shown)'}
            </Table.Td>
          </Table.Tr>
          {launch.domain && (
            <Table.Tr>
              <Table.Th>Dedicated origin</Table.Th>
              <Table.Td data-testid="app-domain">
                <span className="sb-mono">{escapeUnsafe(launch.domain.requested)}</span> asked for, not given: {launch.domain.note}
              </Table.Td>
            </Table.Tr>
          )}
          {launch.cspRefused.length > 0 && (
            <Table.Tr>
              <Table.Th>Refused domains</Table.Th>
              <Table.Td>
                {launch.cspRefused.map((r, i) => (
                  <div key={i} className="sb-mono">
                    {r.list}: {r.value} — {r.reason}
                  </div>
                ))}
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </details>
  );
}
