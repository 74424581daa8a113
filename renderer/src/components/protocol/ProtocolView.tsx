// The protocol view: JSON-RPC traffic across all servers (#/protocol) or of one server (its Protocol tab), with
// filters (server, direction, method, text), newest first by default, requests shown with their responses (outcome
// and duration in the row, both messages in the detail), a virtualized list, copy as JSON, and a sent tool call
// loaded back into its form to run again.
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
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconForms, IconSearch, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { matchesTraffic } from '../../../../shared/domains/protocol-filter';
import type { TrafficDirection, TrafficEntry } from '../../../../shared/domains/protocol';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { selectServerList } from '../../store/servers-slice';
import { selectTraffic } from '../../store/protocol-slice';
import { countLabel } from '../../ui/count';
import { entriesJson, directionLabel, entryKey, formatClock, formatDuration } from './traffic-format';
import { pairTraffic, sentToolCall, type TrafficPairs } from './traffic-pairs';
import { TrafficList } from './TrafficList';
import { routes } from '../../router/route';
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

function MessageBody({ entry, label }: { entry: TrafficEntry; label: string }) {
  return (
    <>
      {entry.truncated && (
        <Text fz="xs" c="orange.8" mb="xs">
          Only the first part of this {formatSize(entry.bytes)} message is shown.
        </Text>
      )}
      {/* The viewport is what scrolls, so it is what takes focus (keyboard scrolling of a long message). */}
      <ScrollArea.Autosize
        mah="100%"
        type="auto"
        className="sb-traffic-payload"
        aria-label={label}
        viewportProps={{ tabIndex: 0, 'aria-label': label }}
      >
        <Code block data-testid="traffic-payload">
          {entry.payload}
        </Code>
      </ScrollArea.Autosize>
    </>
  );
}

function facts(entry: TrafficEntry, serverName: string): string {
  return (
    `${directionLabel(entry.direction)} · ${entry.kind}${entry.id !== undefined ? ` · id ${entry.id}` : ''} · ${formatSize(entry.bytes)}` +
    `${entry.durationMs !== undefined ? ` · ${formatDuration(entry.durationMs)}` : ''} · ${formatClock(entry.time)} · ${serverName}`
  );
}

/** "Load into form" for a tool call Switchboard sent: the server's tool, found in the catalog, with these arguments. */
function LoadIntoForm({ entry }: { entry: TrafficEntry }) {
  const call = sentToolCall(entry);
  const fetchServerTools = useStore((s) => s.fetchServerTools);
  const startReplay = useStore((s) => s.startReplay);
  const navigate = useStore((s) => s.navigate);
  const [problem, setProblem] = useState<string | null>(null);
  if (!call) return null;
  const redacted = entry.payload.includes('[redacted]');
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        size="xs"
        leftSection={<IconForms size={14} aria-hidden />}
        onClick={() => {
          setProblem(null);
          void fetchServerTools(entry.serverId, call.name).then(
            (tools) => {
              const tool = tools.find((t) => t.originalName === call.name);
              if (!tool) {
                setProblem(`${call.name} is no longer in this server's tools.`);
                return;
              }
              startReplay({ tool: tool.name, arguments: call.arguments });
              navigate(routes.servers(entry.serverId, 'tools', tool.name));
            },
            () => setProblem("The server's tools could not be read."),
          );
        }}
      >
        Load into form
      </Button>
      {redacted && (
        <Text fz="xs" className="sb-quiet">
          Redacted values must be entered again.
        </Text>
      )}
      {problem && (
        <Text fz="xs" c="var(--mantine-color-red-text)" role="alert">
          {problem}
        </Text>
      )}
    </Stack>
  );
}

function EntryDetail({
  entry,
  serverName,
  pairs,
  onSelect,
}: {
  entry: TrafficEntry;
  serverName: string;
  pairs: TrafficPairs;
  onSelect: (key: string) => void;
}) {
  const response = entry.kind === 'request' ? pairs.responseOf(entry) : undefined;
  const request = entry.kind === 'response' || entry.kind === 'error' ? pairs.requestOf(entry) : undefined;
  return (
    <Paper withBorder p="sm" className="sb-traffic-detail" aria-label="Selected message" component="section">
      <Group justify="space-between" wrap="nowrap" mb="xs" gap="sm" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Title order={3} fz="md" className="sb-mono" style={{ overflowWrap: 'anywhere' }}>
            {entry.method ?? '(no method)'}
          </Title>
          <Text fz="xs" className="sb-quiet">
            {facts(entry, serverName)}
          </Text>
          {entry.kind === 'request' && entry.id !== undefined && (
            <Text fz="xs" data-testid="traffic-pair" {...(response?.kind === 'error' ? { c: 'var(--mantine-color-red-text)' } : {})}>
              {response
                ? `${response.kind === 'error' ? 'Answered with an error' : 'Answered'}${response.durationMs !== undefined ? ` in ${formatDuration(response.durationMs)}` : ''}`
                : 'No answer recorded (still running, or the transport failed before one came)'}
            </Text>
          )}
          {request && (
            <Button variant="subtle" size="compact-xs" px={0} onClick={() => onSelect(entryKey(request))} data-testid="show-request">
              Answers request #{request.id} sent at {formatClock(request.time)}: show it
            </Button>
          )}
        </div>
        <Group gap="xs" wrap="nowrap" align="flex-start" style={{ flex: 'none' }}>
          <LoadIntoForm entry={entry} />
          <CopyJson text={entriesJson(response ? [entry, response] : [entry])} label="Copy as JSON" testId="copy-entry" />
        </Group>
      </Group>
      <Title order={4} fz="sm" mb={4}>
        {entry.kind === 'request' ? 'Request' : entry.kind === 'notification' ? 'Notification' : 'Response'}
      </Title>
      <MessageBody entry={entry} label="Message as JSON" />
      {response && (
        <>
          <Title order={4} fz="sm" mt="sm" mb={4}>
            {response.kind === 'error' ? 'Error response' : 'Response'}
          </Title>
          <Text fz="xs" className="sb-quiet" mb={4}>
            {facts(response, serverName)}
          </Text>
          <MessageBody entry={response} label="Response as JSON" />
        </>
      )}
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
  const [order, setOrder] = useState<'newest' | 'oldest'>('newest');
  const [paired, setPaired] = useState(true);

  const names = useMemo(() => Object.fromEntries(servers.map((s) => [s.id, s.name])), [servers]);
  const pairs = useMemo(() => pairTraffic(all), [all]);
  const matching = useMemo(
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
  // Paired, a response is shown with its request (when that request is listed) rather than as a row of its own.
  const filtered = useMemo(() => {
    let rows = matching;
    if (paired) {
      const listed = new Set(matching.map(entryKey));
      rows = rows.filter((e) => {
        const request = e.kind === 'response' || e.kind === 'error' ? pairs.requestOf(e) : undefined;
        return !request || !listed.has(entryKey(request));
      });
    }
    return order === 'newest' ? [...rows].reverse() : rows;
  }, [matching, paired, pairs, order]);
  // A selected response folded into its request's row is shown through that request. The selection stays shown when a
  // filter hides its row (a response's "show request" may pick one the filters leave out).
  const selectedEntry = all.find((e) => entryKey(e) === selected);
  const folded = selectedEntry && paired ? pairs.requestOf(selectedEntry) : undefined;
  const current = folded && filtered.includes(folded) ? folded : selectedEntry;
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
        <div>
          <Text component="label" fz="sm" fw={500} id="order-label" display="block" mb={4}>
            Order
          </Text>
          <SegmentedControl
            aria-labelledby="order-label"
            data-testid="order"
            value={order}
            onChange={(v) => setOrder(v as typeof order)}
            data={[
              { value: 'newest', label: 'Newest first' },
              { value: 'oldest', label: 'Oldest first' },
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
        <Switch
          label="Requests with responses"
          checked={paired}
          onChange={(e) => setPaired(e.currentTarget.checked)}
          data-testid="pair-toggle"
          mb={6}
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
        {countLabel(filtered.length, paired ? 'row' : 'message')}
        {paired ? ` (${matching.length.toLocaleString('en')} messages, requests with their responses)` : ''}
        {matching.length !== all.length ? ` of ${all.length.toLocaleString('en')}` : ''}
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
            order={order}
            {...(paired ? { pairs } : {})}
            {...(serverId === undefined ? { serverNames: names } : {})}
          />
          {current ? (
            <EntryDetail entry={current} serverName={names[current.serverId] ?? current.serverId} pairs={pairs} onSelect={setSelected} />
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
