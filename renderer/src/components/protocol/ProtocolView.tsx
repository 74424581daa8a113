// The protocol view: JSON-RPC traffic across all servers (#/protocol) or of one server (its Protocol tab), with
// filters (server, direction, method, text), a virtualized list, the selected message as text, and copy as JSON.
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { matchesTraffic } from '../../../../shared/domains/protocol-filter';
import type { TrafficDirection, TrafficEntry } from '../../../../shared/domains/protocol';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { selectServerList } from '../../store/servers-slice';
import { selectTraffic } from '../../store/protocol-slice';
import { countLabel } from '../../ui/count';
import { entriesJson, directionLabel, formatClock, formatDuration } from './traffic-format';
import { entryKey, TrafficList } from './TrafficList';
import { formatSize } from '../../../../shared/format-size';

function CopyJson({ text, label, testId }: { text: string; label: string; testId?: string }) {
  return (
    <CopyButton value={text} timeout={1500}>
      {({ copied, copy }) => (
        <Button
          variant="default"
          size="xs"
          leftSection={copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={copy}
          {...(testId ? { 'data-testid': testId } : {})}
        >
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

function EntryDetail({ entry, serverName }: { entry: TrafficEntry; serverName: string }) {
  return (
    <Paper withBorder p="sm" className="sb-traffic-detail" aria-label="Selected message" component="section">
      <Group justify="space-between" wrap="nowrap" mb="xs" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Title order={3} fz="md" className="sb-mono" style={{ overflowWrap: 'anywhere' }}>
            {entry.method ?? '(no method)'}
          </Title>
          <Text fz="xs" className="sb-quiet">
            {directionLabel(entry.direction)} · {entry.kind}
            {entry.id !== undefined ? ` · id ${entry.id}` : ''} · {formatSize(entry.bytes)}
            {entry.durationMs !== undefined ? ` · ${formatDuration(entry.durationMs)}` : ''} · {formatClock(entry.time)} · {serverName}
          </Text>
        </div>
        <div style={{ flex: 'none' }}>
          <CopyJson text={entriesJson([entry])} label="Copy as JSON" testId="copy-entry" />
        </div>
      </Group>
      {entry.truncated && (
        <Text fz="xs" c="orange.8" mb="xs">
          Only the first part of this {formatSize(entry.bytes)} message is shown.
        </Text>
      )}
      <ScrollArea.Autosize mah="100%" type="auto" className="sb-traffic-payload" tabIndex={0} aria-label="Message as JSON">
        <Code block data-testid="traffic-payload">
          {entry.payload}
        </Code>
      </ScrollArea.Autosize>
    </Paper>
  );
}

/** Props of ProtocolView. */
export interface ProtocolViewProps {
  /** One server's traffic (its Protocol tab); all servers when absent. */
  serverId?: string;
}

/** The traffic list with filters and the selected message. */
export function ProtocolView({ serverId }: ProtocolViewProps) {
  const loaded = useStore((s) => s.trafficLoaded);
  const all = useStore(selectTraffic(serverId));
  const servers = useStore(useShallow(selectServerList));
  const clear = useStore((s) => s.clearTraffic);
  const [server, setServer] = useState<string | null>(null);
  const [direction, setDirection] = useState<'all' | TrafficDirection>('all');
  const [method, setMethod] = useState('');
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<string | undefined>();

  const names = useMemo(() => Object.fromEntries(servers.map((s) => [s.id, s.name])), [servers]);
  const filtered = useMemo(
    () =>
      all.filter((e) =>
        matchesTraffic(e, {
          ...(server ? { serverId: server } : {}),
          ...(direction !== 'all' ? { direction } : {}),
          method,
          text,
        }),
      ),
    [all, server, direction, method, text],
  );
  const current = filtered.find((e) => entryKey(e) === selected);
  const scope = serverId !== undefined ? (names[serverId] ?? serverId) : undefined;

  return (
    <Stack gap="sm" className="sb-protocol" data-testid="protocol-view">
      {serverId === undefined && (
        <Title order={1} size="h2">
          Protocol
        </Title>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap" role="search" aria-label="Filter messages">
        {serverId === undefined && (
          <Select
            label="Server"
            placeholder="All servers"
            clearable
            data={servers.map((s) => ({ value: s.id, label: s.name }))}
            value={server}
            onChange={setServer}
            w={200}
          />
        )}
        <div>
          <Text component="label" fz="sm" fw={500} id="direction-label" display="block" mb={4}>
            Direction
          </Text>
          <SegmentedControl
            aria-labelledby="direction-label"
            data-testid="direction"
            value={direction}
            onChange={(v) => setDirection(v as typeof direction)}
            data={[
              { value: 'all', label: 'All' },
              { value: 'out', label: 'Sent' },
              { value: 'in', label: 'Received' },
            ]}
          />
        </div>
        <TextInput label="Method" placeholder="tools/call" value={method} onChange={(e) => setMethod(e.currentTarget.value)} w={180} />
        <TextInput
          label="Search"
          placeholder="Text in the message"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 160 }}
        />
        <Group gap="xs" wrap="nowrap">
          <CopyJson text={entriesJson(filtered)} label="Copy all as JSON" testId="copy-all" />
          <Button
            variant="subtle"
            color="red"
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => void clear(serverId ?? server ?? undefined)}
          >
            Clear
          </Button>
        </Group>
      </Group>
      <Text fz="sm" className="sb-quiet" aria-live="polite" data-testid="traffic-count">
        {countLabel(filtered.length, 'message')}
        {filtered.length !== all.length ? ` of ${all.length.toLocaleString('en')}` : ''}
        {scope ? ` with ${scope}` : ''} · the last 500 per server are kept; secrets are redacted
      </Text>
      {loaded && all.length === 0 ? (
        <Alert variant="light" color="gray" title="No messages yet">
          Messages appear here as {scope ?? 'servers'} and Switchboard talk: connect a server or call a tool.
        </Alert>
      ) : (
        <div className="sb-traffic-split">
          <TrafficList
            entries={filtered}
            selected={current ? selected : undefined}
            onSelect={setSelected}
            {...(serverId === undefined ? { serverNames: names } : {})}
          />
          {current ? (
            <EntryDetail entry={current} serverName={names[current.serverId] ?? current.serverId} />
          ) : (
            <Paper withBorder p="md" className="sb-traffic-detail">
              <Text className="sb-quiet" fz="sm">
                Select a message to see it as JSON.
              </Text>
            </Paper>
          )}
        </div>
      )}
    </Stack>
  );
}
