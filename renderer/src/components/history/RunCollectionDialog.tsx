// "Run collection": runs the saved calls (as the collection "Export as collection" writes) or a collection file picked
// from disk, call by call, and shows each call with its status, time and every assertion held or failed — the same
// assertions `switchboard run` checks (shared/collections). Server text in the table is shown as plain text only.
import { Alert, Badge, Button, FileButton, Group, List, SegmentedControl, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconCheck, IconFileUpload, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { isYamlName, parseCollection, type CollectionCall } from '../../../../shared/collections/collection';
import type { HistoryEntry } from '../../../../shared/domains/calls';
import { AppError } from '../../../../shared/errors';
import { catalogService } from '../../services/catalog';
import { callsService } from '../../services/calls';
import { AppDialog } from '../../ui/AppDialog';
import { durationLabel, oneLine } from '../../ui/text';
import { runCollection, type RunnerPorts, type RunRow } from './collection-runner';

/** The bridge as the runner's ports. */
const ports: RunnerPorts = {
  tools: async (server) =>
    (
      await catalogService.search({
        query: '',
        ...(server !== undefined ? { serverIds: [server] } : {}),
        limit: 25_000,
        includeGroups: false,
      })
    ).tools,
  call: (name, args, callId) => callsService.call(name, args, callId),
  cancel: (callId) => callsService.cancel(callId),
  result: (callId) => callsService.result(callId),
  toolDetail: (name) => callsService.toolDetail(name),
};

/** A collection ready to run. */
interface Loaded {
  name: string;
  calls: CollectionCall[];
}

type Source = 'saved' | 'file';

function failure(err: unknown, what: string): string {
  return err instanceof AppError ? err.message : what;
}

/** The results table: one row per call, its assertions listed with held / failed. */
function ResultsTable({ rows, total }: { rows: RunRow[]; total: number }) {
  const failed = rows.filter((r) => !r.passed).length;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} data-testid="run-summary" role="status">
        {rows.length < total
          ? `Running… ${rows.length} of ${total} calls done`
          : `${rows.length - failed} passed, ${failed} failed, ${rows.length} call${rows.length === 1 ? '' : 's'}`}
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table striped withTableBorder aria-label="Collection results" data-testid="run-results">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Call</Table.Th>
              <Table.Th>Result</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Assertions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.index} data-testid="run-row" data-passed={r.passed ? 'true' : 'false'}>
                <Table.Td style={{ verticalAlign: 'top' }}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {oneLine(r.name)}
                  </Text>
                  {r.name !== r.tool && (
                    <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {oneLine(r.tool)}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td style={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                  <Badge
                    // Its words in full: a narrow column must not shorten "Passed" to an ellipsis.
                    style={{ minWidth: 'max-content' }}
                    color={r.passed ? 'green' : 'red'}
                    variant="light"
                    radius="sm"
                    tt="none"
                    leftSection={r.passed ? <IconCheck size={14} aria-hidden /> : <IconX size={14} aria-hidden />}
                  >
                    {r.passed ? 'Passed' : 'Failed'}
                  </Badge>
                  <Text size="xs" c="dimmed" mt={4}>
                    {r.status}
                  </Text>
                </Table.Td>
                <Table.Td style={{ verticalAlign: 'top', whiteSpace: 'nowrap' }}>
                  <Text size="sm">{r.status === 'not run' ? '—' : durationLabel(r.durationMs)}</Text>
                </Table.Td>
                <Table.Td style={{ verticalAlign: 'top' }}>
                  {r.error !== undefined && (
                    <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
                      Not run: {oneLine(r.error)}
                    </Text>
                  )}
                  <List spacing={4} size="sm" listStyleType="none" aria-label={`Assertions of ${oneLine(r.name)}`}>
                    {r.assertions.map((a, i) => (
                      <List.Item
                        key={i}
                        data-testid="run-assertion"
                        data-passed={a.passed ? 'true' : 'false'}
                        icon={
                          <ThemeIcon size={18} radius="xl" variant="light" color={a.passed ? 'green' : 'red'}>
                            {a.passed ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}
                          </ThemeIcon>
                        }
                      >
                        <Text span size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {a.passed ? 'Held: ' : 'Failed: '}
                          {oneLine(a.name)}
                        </Text>
                        {a.message !== undefined && (
                          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                            {oneLine(a.message)}
                          </Text>
                        )}
                      </List.Item>
                    ))}
                  </List>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

/** The dialog; `saved` are the saved calls (those that succeeded run as the exported collection would). */
export function RunCollectionDialog({ saved, onClose }: { saved: HistoryEntry[]; onClose: () => void }) {
  const usable = saved.filter((e) => e.status === 'ok');
  const [source, setSource] = useState<Source>(usable.length > 0 ? 'saved' : 'file');
  const [file, setFile] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [rows, setRows] = useState<RunRow[] | null>(null);
  const [total, setTotal] = useState(0);
  const [running, setRunning] = useState(false);
  const stop = useRef<AbortController | null>(null);
  useEffect(() => () => stop.current?.abort(), []);

  const load = async (): Promise<Loaded> => {
    if (source === 'file') {
      if (!file) throw new AppError('invalid_request', 'Pick a collection file first');
      return file;
    }
    const exported = await callsService.exportCollection({ callIds: usable.map((e) => e.callId), name: 'Saved calls' });
    const parsed = parseCollection(exported.text, false);
    if (!parsed.ok) throw new AppError('internal', `The saved calls' collection ${parsed.message}`);
    return { name: parsed.name ?? 'Saved calls', calls: parsed.calls };
  };

  const start = (): void => {
    setError(null);
    setRunning(true);
    const controller = new AbortController();
    stop.current = controller;
    void load()
      .then(async (collection) => {
        setTotal(collection.calls.length);
        setRows([]);
        await runCollection(ports, collection.calls, (row) => setRows((all) => [...(all ?? []), row]), controller.signal);
      })
      .catch((err: unknown) => setError(failure(err, 'The collection could not be run')))
      .finally(() => setRunning(false));
  };

  const pick = (picked: File | null): void => {
    if (!picked) return;
    setRows(null);
    void picked.text().then(
      (text) => {
        const parsed = parseCollection(text, isYamlName(picked.name));
        if (!parsed.ok) {
          setFile(null);
          setError(`The collection ${oneLine(picked.name)} ${parsed.message}`);
          return;
        }
        setError(null);
        setFile({ name: parsed.name ?? picked.name, calls: parsed.calls });
      },
      () => setError(`${oneLine(picked.name)} could not be read`),
    );
  };

  const ready = source === 'saved' ? usable.length > 0 : file !== null;
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="xl"
      title="Run collection"
      actions={
        <>
          <Button onClick={onClose}>Close</Button>
          <Button
            variant="filled"
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={start}
            loading={running}
            disabled={!ready}
          >
            {rows === null ? 'Run' : 'Run again'}
          </Button>
        </>
      }
    >
      <Stack gap="md">
        <Text size="sm">
          Each call is made in order and checked against its assertions, the same checks{' '}
          <Text span ff="monospace" size="sm">
            switchboard run
          </Text>{' '}
          makes. The calls go into the History like any other.
        </Text>
        <SegmentedControl
          aria-label="What to run"
          value={source}
          onChange={(v) => {
            setSource(v as Source);
            setRows(null);
            setError(null);
          }}
          data={[
            { value: 'saved', label: `Saved calls (${usable.length})`, disabled: usable.length === 0 },
            { value: 'file', label: 'A collection file' },
          ]}
        />
        {source === 'file' && (
          <Group gap="sm">
            <FileButton accept=".json,.yaml,.yml,application/json" onChange={pick}>
              {(props) => (
                <Button {...props} leftSection={<IconFileUpload size={16} aria-hidden />}>
                  Pick a collection file…
                </Button>
              )}
            </FileButton>
            <Text size="sm" c="dimmed" data-testid="run-file">
              {file
                ? `${oneLine(file.name)}: ${file.calls.length} call${file.calls.length === 1 ? '' : 's'}`
                : 'JSON or YAML (docs/collections.md)'}
            </Text>
          </Group>
        )}
        {source === 'saved' && usable.length < saved.length && (
          <Text size="sm" c="dimmed">
            {saved.length - usable.length} saved call{saved.length - usable.length === 1 ? '' : 's'} that did not succeed left out.
          </Text>
        )}
        {error && (
          <Alert color="red" variant="light" p="sm" role="alert">
            {error}
          </Alert>
        )}
        {rows !== null && <ResultsTable rows={rows} total={total} />}
      </Stack>
    </AppDialog>
  );
}
