// Call history as a table: time, server, tool, status (colour, icon, words), duration and who started the call;
// row actions in a menu ("Run again" calls again and opens the new entry, "Load into form" opens the tool with
// the arguments filled in); saved calls grouped above. #/history/<callId> opens one call's detail. "Run collection…"
// runs the saved calls or a collection file with their assertions.
import {
  ActionIcon,
  Alert,
  Anchor,
  Box,
  Button,
  Checkbox,
  Group,
  Menu,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconBookmark,
  IconCopy,
  IconFileCode,
  IconDots,
  IconDownload,
  IconEye,
  IconForms,
  IconPlayerPlay,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { CallOrigin, HistoryEntry } from '../../../../shared/domains/calls';
import { AppError } from '../../../../shared/errors';
import { saveFile } from '../../lib/save-file';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { CodeBlock } from '../../ui/CodeBlock';
import { countLabel } from '../../ui/count';
import { cleanText, durationLabel, oneLine } from '../../ui/text';
import { ExportTestDialog, type ExportFormat } from './ExportTestDialog';
import { RunCollectionDialog } from './RunCollectionDialog';
import { CallStatusBadge, PresentationView } from '../tools/ResultView';

/** Who started a call, in words. */
export function originLabel(origin: CallOrigin | undefined): string {
  if (!origin || origin.kind === 'person') return 'You';
  if (origin.kind === 'app') return `From app (${oneLine(origin.tool)})`;
  return `Gateway: ${oneLine(origin.clientName)}`;
}

function timeLabel(ms: number): string {
  const d = new Date(ms);
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString() : d.toLocaleString();
}

function useServerName(): (id: string) => string {
  const servers = useStore((s) => s.serversById);
  return (id) => oneLine(servers[id]?.name ?? id);
}

/** The row and detail actions, shared by the table's menu and the detail dialog. */
function useCallActions() {
  const runAgain = useStore((s) => s.runAgain);
  const startReplay = useStore((s) => s.startReplay);
  const navigate = useStore((s) => s.navigate);
  const [running, setRunning] = useState<string | null>(null);
  return {
    running,
    runAgain: async (entry: HistoryEntry) => {
      setRunning(entry.callId);
      try {
        const outcome = await runAgain(entry);
        if (outcome) navigate(routes.history(outcome.callId));
      } finally {
        setRunning(null);
      }
    },
    loadIntoForm: (entry: HistoryEntry) => {
      startReplay(entry);
      navigate(routes.servers(entry.serverId, 'tools', entry.tool));
    },
    open: (entry: HistoryEntry) => navigate(routes.history(entry.callId)),
  };
}

// A Menu is costly to mount (popover, floating position, focus handling): with one per row it was most of the
// History view's first paint. So a row shows only its button, and the menu is built when the button is pressed.
function RowMenu({
  entry,
  onSave,
  onExportTest,
  actions,
}: {
  entry: HistoryEntry;
  onSave: (e: HistoryEntry) => void;
  onExportTest: (e: HistoryEntry, format?: ExportFormat) => void;
  actions: ReturnType<typeof useCallActions>;
}) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // The button is a new element once the menu closes: give it the focus the menu would have returned.
  useEffect(() => {
    if (!open && wasOpen.current) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const icon = (
    <ActionIcon
      ref={button}
      size="lg"
      aria-label={`Actions for ${oneLine(entry.originalName)} at ${timeLabel(entry.startedAt)}`}
      aria-haspopup="menu"
      aria-expanded={open}
      loading={actions.running === entry.callId}
      onClick={open ? undefined : () => setOpen(true)}
    >
      <IconDots size={18} aria-hidden />
    </ActionIcon>
  );
  if (!open) return icon;
  return (
    <Menu opened onChange={setOpen} position="bottom-end" withinPortal>
      <Menu.Target>{icon}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconEye size={16} aria-hidden />} onClick={() => actions.open(entry)}>
          Open details
        </Menu.Item>
        <Menu.Item leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => void actions.runAgain(entry)}>
          Run again
        </Menu.Item>
        <Menu.Item leftSection={<IconForms size={16} aria-hidden />} onClick={() => actions.loadIntoForm(entry)}>
          Load into form
        </Menu.Item>
        <Menu.Item leftSection={<IconBookmark size={16} aria-hidden />} onClick={() => onSave(entry)}>
          {entry.savedAs ? 'Rename saved call…' : 'Save as…'}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconCopy size={16} aria-hidden />}
          onClick={() => void navigator.clipboard?.writeText(JSON.stringify(entry.arguments, null, 2)).catch(() => undefined)}
        >
          Copy arguments
        </Menu.Item>
        {entry.status === 'ok' && (
          <Menu.Item leftSection={<IconFileCode size={16} aria-hidden />} onClick={() => onExportTest(entry)}>
            Export as Playwright test…
          </Menu.Item>
        )}
        {entry.status === 'ok' && (
          <Menu.Item leftSection={<IconFileCode size={16} aria-hidden />} onClick={() => onExportTest(entry, 'collection')}>
            Export as collection…
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

/**
 * A row's height (two lines in the Tool cell, in CSS pixels). Rows are not measured: measuring each row as it mounts
 * forced a layout per row (the virtualiser re-renders after each measurement), which cost more than the rows saved.
 * A row that wraps is a little taller; the spacers absorb the difference and the overscan covers the drift.
 */
const ROW_HEIGHT = 51.5;
/** Rows rendered beyond the window on each side. */
const OVERSCAN = 8;

type RowHandlers = {
  onSave: (e: HistoryEntry) => void;
  onExportTest: (e: HistoryEntry, format?: ExportFormat) => void;
  actions: ReturnType<typeof useCallActions>;
};

/** One call's row; memoised so scrolling re-renders only the rows that come into view. */
const HistoryRow = memo(function HistoryRow({
  entry: e,
  server,
  rowIndex,
  onSave,
  onExportTest,
  actions,
}: RowHandlers & {
  entry: HistoryEntry;
  server: string;
  rowIndex: number;
}) {
  return (
    <Table.Tr aria-rowindex={rowIndex} data-call-id={e.callId}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{timeLabel(e.startedAt)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{server}</Text>
      </Table.Td>
      <Table.Td style={{ maxWidth: 320 }}>
        <Anchor href={formatRoute(routes.history(e.callId))} size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {e.savedAs ? `${oneLine(e.savedAs)} — ` : ''}
          {oneLine(e.originalName)}
        </Anchor>
        <Text size="xs" c="dimmed" className="sb-mono" truncate>
          {e.tool}
        </Text>
      </Table.Td>
      <Table.Td>
        <CallStatusBadge status={e.status} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
        <Text size="sm">{durationLabel(e.durationMs)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{originLabel(e.origin)}</Text>
      </Table.Td>
      <Table.Td style={{ width: 48 }}>
        <RowMenu entry={e} onSave={onSave} onExportTest={onExportTest} actions={actions} />
      </Table.Td>
    </Table.Tr>
  );
});

/** Space standing in for the rows scrolled out of view (hidden from assistive technology: aria-rowcount tells the size). */
function Spacer({ height }: { height: number }) {
  if (height <= 0) return null;
  return (
    <tr aria-hidden style={{ height }}>
      <td colSpan={7} style={{ padding: 0, border: 0 }} />
    </tr>
  );
}

// Virtualised against the page's own scroll (no second scroll bar): only the rows in and near the window are in the
// document, so a 1,000-entry history paints as fast as a short one. The table keeps its semantics: the rows present
// carry aria-rowindex and the table aria-rowcount.
function HistoryTable({ entries, label, onSave, onExportTest, actions }: RowHandlers & { entries: HistoryEntry[]; label: string }) {
  const serverName = useServerName();
  const body = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  // Where the rows start on the page moves when anything above them changes size (the saved calls, a notice
  // dismissed): read it now and whenever the page's size changes.
  useLayoutEffect(() => {
    const read = (): void => {
      const el = body.current;
      if (!el) return;
      const top = el.getBoundingClientRect().top + window.scrollY;
      setMargin((m) => (Math.abs(top - m) > 1 ? top : m));
    };
    read();
    const observer = new ResizeObserver(read);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  const virtual = useWindowVirtualizer({
    count: entries.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollMargin: margin,
    getItemKey: (i) => entries[i]?.callId ?? i,
  });
  const items = virtual.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  const before = first ? first.start - margin : 0;
  const after = last ? virtual.getTotalSize() - (last.end - margin) : 0;
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table highlightOnHover verticalSpacing={6} aria-label={label} aria-rowcount={entries.length + 1} striped={false}>
        <Table.Thead>
          <Table.Tr aria-rowindex={1}>
            <Table.Th scope="col">Time</Table.Th>
            <Table.Th scope="col">Server</Table.Th>
            <Table.Th scope="col">Tool</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col" style={{ textAlign: 'right' }}>
              Duration
            </Table.Th>
            <Table.Th scope="col">Origin</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody ref={body}>
          <Spacer height={before} />
          {items.map((row) => {
            const e = entries[row.index]!;
            return (
              <HistoryRow
                key={e.callId}
                entry={e}
                server={serverName(e.serverId)}
                rowIndex={row.index + 2}
                onSave={onSave}
                onExportTest={onExportTest}
                actions={actions}
              />
            );
          })}
          <Spacer height={after} />
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap="sm" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" w={90} style={{ flex: 'none' }}>
        {label}
      </Text>
      <Box fz="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
        {children}
      </Box>
    </Group>
  );
}

function CallDetail({
  callId,
  entry,
  onClose,
  onSave,
  onExportTest,
  actions,
}: {
  callId: string;
  entry: HistoryEntry | undefined;
  onClose: () => void;
  onSave: (e: HistoryEntry) => void;
  onExportTest: (e: HistoryEntry, format?: ExportFormat) => void;
  actions: ReturnType<typeof useCallActions>;
}) {
  const serverName = useServerName();
  const loaded = useStore((s) => s.history.loaded);
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="xl"
      title={entry ? `Call: ${oneLine(entry.savedAs ?? entry.originalName)}` : 'Call'}
      actions={
        entry ? (
          // No Close here: the title bar's close button and Escape close it, and five buttons made Run again, the
          // primary action, wrap onto a row of its own.
          <>
            <Button leftSection={<IconBookmark size={16} aria-hidden />} onClick={() => onSave(entry)}>
              {entry.savedAs ? 'Rename…' : 'Save as…'}
            </Button>
            <Button leftSection={<IconForms size={16} aria-hidden />} onClick={() => actions.loadIntoForm(entry)}>
              Load into form
            </Button>
            {entry.status === 'ok' && (
              <Button leftSection={<IconFileCode size={16} aria-hidden />} onClick={() => onExportTest(entry)}>
                Export as test…
              </Button>
            )}
            <Button
              variant="filled"
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
              loading={actions.running === entry.callId}
              onClick={() => void actions.runAgain(entry)}
            >
              Run again
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>Close</Button>
        )
      }
    >
      {!entry ? (
        <Text c="dimmed" size="sm">
          {loaded ? `No call ${callId} in the recent history.` : 'Loading…'}
        </Text>
      ) : (
        <Stack gap="md" data-testid="call-detail" data-call-id={entry.callId}>
          <Stack gap={4}>
            <Fact label="Time">{new Date(entry.startedAt).toLocaleString()}</Fact>
            <Fact label="Server">{serverName(entry.serverId)}</Fact>
            <Fact label="Tool">
              {oneLine(entry.originalName)}{' '}
              <Text span size="xs" c="dimmed" className="sb-mono">
                {entry.tool}
              </Text>
            </Fact>
            <Fact label="Status">
              <CallStatusBadge status={entry.status} />
            </Fact>
            <Fact label="Duration">{durationLabel(entry.durationMs)}</Fact>
            <Fact label="Origin">{originLabel(entry.origin)}</Fact>
            {entry.savedAs && <Fact label="Saved as">{oneLine(entry.savedAs)}</Fact>}
          </Stack>
          <Box>
            <Title order={3} size="h6" mb={4}>
              Arguments
            </Title>
            <CodeBlock maxHeight={240} aria-label="Arguments">
              {JSON.stringify(entry.arguments, null, 2)}
            </CodeBlock>
          </Box>
          {entry.error && entry.status !== 'ok' && (
            <Alert color="red" variant="light" p="sm">
              {cleanText(entry.error.message)}
            </Alert>
          )}
          <Box>
            <Title order={3} size="h6" mb={4}>
              Result
            </Title>
            <PresentationView p={entry.presentation} status={entry.status} />
          </Box>
        </Stack>
      )}
    </AppDialog>
  );
}

function SaveDialog({ entry, onClose }: { entry: HistoryEntry; onClose: () => void }) {
  const saveCall = useStore((s) => s.saveCall);
  const [name, setName] = useState(entry.savedAs ?? entry.originalName);
  const [error, setError] = useState<string | null>(null);
  const submit = (): void => {
    if (!name.trim()) return setError('Enter a name for the saved call');
    saveCall(entry.callId, name.trim()).then(onClose, (err: unknown) => setError(err instanceof AppError ? err.message : 'Could not save'));
  };
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="md"
      title="Save call"
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="filled" type="submit" form="save-call-form">
            Save
          </Button>
        </>
      }
    >
      <form
        id="save-call-form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextInput
          label="Name"
          data-autofocus
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={200}
          error={error}
        />
      </form>
    </AppDialog>
  );
}

function ClearDialog({ onClose }: { onClose: () => void }) {
  const clearHistory = useStore((s) => s.clearHistory);
  const [includeSaved, setIncludeSaved] = useState(false);
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="md"
      title="Clear the history?"
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="filled" color="red" onClick={() => void clearHistory(includeSaved).then(onClose)}>
            Clear history
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text size="sm">Every call in the history is deleted. Saved calls are kept unless you tick the box.</Text>
        <Checkbox label="Also delete saved calls" checked={includeSaved} onChange={(e) => setIncludeSaved(e.currentTarget.checked)} />
      </Stack>
    </AppDialog>
  );
}

/** The history page. */
export function HistoryView() {
  const history = useStore((s) => s.history);
  const exportHistory = useStore((s) => s.exportHistory);
  const loadHistory = useStore((s) => s.loadHistory);
  const navigate = useStore((s) => s.navigate);
  const callId = useStore((s) => (s.route.view === 'history' ? (s.route.segments[0] ?? null) : null));
  const [query, setQuery] = useState(history.query);
  const [saving, setSaving] = useState<HistoryEntry | null>(null);
  const [clearing, setClearing] = useState(false);
  const [runningCollection, setRunningCollection] = useState(false);
  const [exporting, setExporting] = useState<{ entries: HistoryEntry[]; title?: string; format?: ExportFormat } | null>(null);
  const exportOne = (e: HistoryEntry, format?: ExportFormat): void => setExporting({ entries: [e], ...(format ? { format } : {}) });
  const actions = useCallActions();

  useEffect(() => {
    void loadHistory();
  }, [loadHistory]);
  useEffect(() => {
    if (query === history.query) return;
    const t = setTimeout(() => void loadHistory({ query }), 250);
    return () => clearTimeout(t);
  }, [query, history.query, loadHistory]);

  const recent = history.savedOnly ? [] : history.entries;
  const entry = callId ? [...history.entries, ...history.saved].find((e) => e.callId === callId) : undefined;
  return (
    <Stack component="section" aria-labelledby="history-title" gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2" id="history-title">
          History
        </Title>
        <Group gap="xs">
          <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => setRunningCollection(true)}>
            Run collection…
          </Button>
          <Button
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => void exportHistory().then((x) => saveFile(x.fileName, x.text))}
          >
            Export JSON
          </Button>
          <Button variant="light" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setClearing(true)}>
            Clear history
          </Button>
        </Group>
      </Group>
      <Group gap="md" align="flex-end" role="search" aria-label="Search the history">
        <TextInput
          label="Search history"
          placeholder="Tool, server, arguments or result text"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          style={{ flex: '1 1 320px' }}
          type="search"
        />
        <Switch
          label="Saved only"
          checked={history.savedOnly}
          onChange={(e) => void loadHistory({ savedOnly: e.currentTarget.checked })}
          pb={8}
        />
      </Group>
      {history.error && (
        <Alert color="red" variant="light" p="sm" role="alert">
          {history.error}
        </Alert>
      )}
      {history.saved.length > 0 && (
        <Box component="section" aria-labelledby="saved-calls-title">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="saved-calls-title">
              Saved calls
            </Title>
            {history.saved.some((e) => e.status === 'ok') && (
              <Group gap="xs">
                <Button
                  size="xs"
                  leftSection={<IconFileCode size={16} aria-hidden />}
                  onClick={() => setExporting({ entries: history.saved, title: 'Saved calls' })}
                >
                  Export collection as test…
                </Button>
                <Button
                  size="xs"
                  leftSection={<IconFileCode size={16} aria-hidden />}
                  onClick={() => setExporting({ entries: history.saved, title: 'Saved calls', format: 'collection' })}
                >
                  Export as collection…
                </Button>
              </Group>
            )}
          </Group>
          <HistoryTable entries={history.saved} label="Saved calls" onSave={setSaving} onExportTest={exportOne} actions={actions} />
        </Box>
      )}
      {!history.savedOnly && (
        <Box component="section" aria-labelledby="recent-calls-title">
          <Group justify="space-between" mb="xs">
            <Title order={2} size="h4" id="recent-calls-title">
              Recent calls
            </Title>
            <Text size="sm" c="dimmed" data-testid="history-total">
              {countLabel(history.total, 'call', 'calls', 'No calls')}
              {history.total > recent.length ? ` (newest ${recent.length.toLocaleString('en')} shown)` : ''}
            </Text>
          </Group>
          {recent.length > 0 ? (
            <HistoryTable entries={recent} label="Recent calls" onSave={setSaving} onExportTest={exportOne} actions={actions} />
          ) : (
            <Text size="sm" c="dimmed">
              {history.loaded
                ? history.query
                  ? 'No call matches.'
                  : 'No calls yet: call a tool from a server’s Tools tab or the Catalog.'
                : 'Loading…'}
            </Text>
          )}
        </Box>
      )}
      {callId && !saving && !exporting && (
        <CallDetail
          callId={callId}
          entry={entry}
          onClose={() => navigate(routes.history())}
          onSave={setSaving}
          onExportTest={exportOne}
          actions={actions}
        />
      )}
      {exporting && (
        <ExportTestDialog
          entries={exporting.entries}
          {...(exporting.title !== undefined ? { title: exporting.title } : {})}
          {...(exporting.format ? { format: exporting.format } : {})}
          onClose={() => setExporting(null)}
        />
      )}
      {saving && <SaveDialog entry={saving} onClose={() => setSaving(null)} />}
      {clearing && <ClearDialog onClose={() => setClearing(false)} />}
      {runningCollection && (
        <RunCollectionDialog
          saved={history.saved}
          onClose={() => {
            setRunningCollection(false);
            // The run's calls are in the History now.
            void loadHistory();
          }}
        />
      )}
    </Stack>
  );
}
