// Paste or pick a Claude Desktop / VS Code / Cursor config, preview what would be created, then confirm. An
// Authorization: Bearer header becomes the server's bearer token (credential store), shown as such in the preview.
import { Alert, Badge, Button, FileButton, Group, List, NativeSelect, PasswordInput, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconFileUpload, IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import type { ImportFormat, ImportPreview, ImportResult, ServerDetail } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { countLabel } from '../../ui/count';
import { cleanText, oneLine } from '../../ui/text';
import { ImportReview } from './ImportReview';

const STATUS = {
  valid: { label: 'Will be created', color: 'green' },
  clash: { label: 'Id clash', color: 'yellow' },
  invalid: { label: 'Invalid', color: 'red' },
} as const;

/** The import dialog. */
export function ImportDialog() {
  const closeDialog = useStore((s) => s.closeDialog);
  const previewImport = useStore((s) => s.previewImport);
  const importServers = useStore((s) => s.importServers);
  const [text, setText] = useState('');
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [secrets, setSecrets] = useState<Record<string, Record<string, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const pendingLaunches = useStore((s) => s.pendingLaunches);
  const approveLaunches = useStore((s) => s.approveLaunches);
  const [launches, setLaunches] = useState<ServerDetail[]>([]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [refused, setRefused] = useState<{ id: string; error?: string }[]>([]);
  const [approved, setApproved] = useState(0);

  const runPreview = async (source: string) => {
    setError(null);
    setResult(null);
    try {
      setPreview(await previewImport(source, format || undefined));
    } catch (err) {
      setPreview(null);
      setError(err instanceof AppError ? err.message : 'The text could not be read');
    }
  };

  const confirm = async () => {
    if (!preview) return;
    const keys = preview.entries.filter((e) => e.status === 'valid').map((e) => e.key);
    setBusy(true);
    try {
      const done = await importServers({ text, ...(format ? { format } : {}), keys, secrets });
      setResult(done);
      const waiting = await pendingLaunches(done.added);
      setLaunches(waiting);
      setChosen(new Set(waiting.filter((d) => (d.approval?.lostSecrets.length ?? 0) === 0).map((d) => d.id)));
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The import failed');
    } finally {
      setBusy(false);
    }
  };

  const approveChosen = async () => {
    const picked = launches.filter((d) => chosen.has(d.id) && d.approval).map((d) => ({ id: d.id, fingerprint: d.approval!.fingerprint }));
    setBusy(true);
    try {
      const outcomes = await approveLaunches(picked);
      const ok = new Set(outcomes.filter((o) => o.error === undefined).map((o) => o.id));
      setApproved((n) => n + ok.size);
      setRefused(outcomes.filter((o) => o.error !== undefined));
      setLaunches((ls) => ls.filter((d) => !ok.has(d.id)));
      setChosen((c) => new Set([...c].filter((id) => !ok.has(id))));
    } finally {
      setBusy(false);
    }
  };

  const validCount = preview?.entries.filter((e) => e.status === 'valid').length ?? 0;
  const chosenCount = launches.filter((d) => chosen.has(d.id)).length;
  return (
    <AppDialog
      opened
      onClose={closeDialog}
      size="xl"
      title="Import servers"
      actions={
        <>
          <Button onClick={closeDialog}>{result ? 'Close' : 'Cancel'}</Button>
          {result && launches.length > 0 && (
            <Button variant="filled" loading={busy} disabled={chosenCount === 0} onClick={() => void approveChosen()}>
              Approve {countLabel(chosenCount, 'launch', 'launches')}
            </Button>
          )}
          {!result &&
            (preview ? (
              <Button variant="filled" loading={busy} disabled={validCount === 0} onClick={() => void confirm()}>
                Import {countLabel(validCount, 'server')}
              </Button>
            ) : (
              <Button variant="filled" disabled={text.trim() === ''} onClick={() => void runPreview(text)}>
                Preview
              </Button>
            ))}
        </>
      }
    >
      <Stack gap="sm">
        {result && (
          <Alert color={result.skipped.length > 0 ? 'yellow' : 'green'} variant="light" role="status" p="sm">
            <Text size="sm">Imported {countLabel(result.added.length, 'server')}.</Text>
            {result.skipped.map((s) => (
              <Text key={s.key} size="sm">
                Skipped {oneLine(s.key)}: {cleanText(s.reason)}
              </Text>
            ))}
          </Alert>
        )}
        {result && error && (
          <Alert color="red" variant="light" role="alert" p="sm">
            {cleanText(error)}
          </Alert>
        )}
        {result && (launches.length > 0 || approved > 0 || refused.length > 0) && (
          <ImportReview
            launches={launches}
            chosen={chosen}
            refused={refused}
            approved={approved}
            onToggle={(id, on) =>
              setChosen((c) => {
                const next = new Set(c);
                if (on) next.add(id);
                else next.delete(id);
                return next;
              })
            }
          />
        )}
        {!result && (
          <>
            <Textarea
              label="Configuration text"
              description="Paste claude_desktop_config.json, a VS Code mcp.json or a Cursor mcp.json."
              data-autofocus
              rows={6}
              resize="vertical"
              value={text}
              onChange={(e) => {
                setText(e.currentTarget.value);
                setPreview(null);
                setResult(null);
              }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
              spellCheck={false}
            />
            <Group gap="sm" align="flex-end">
              <FileButton
                accept=".json,.jsonc,application/json"
                onChange={(file) => {
                  if (!file) return;
                  void file.text().then((t) => {
                    setText(t);
                    void runPreview(t);
                  });
                }}
              >
                {(props) => (
                  <Button {...props} leftSection={<IconFileUpload size={16} aria-hidden />}>
                    Pick a file…
                  </Button>
                )}
              </FileButton>
              <NativeSelect
                label="Format"
                value={format}
                onChange={(e) => {
                  setFormat(e.currentTarget.value as ImportFormat | '');
                  setPreview(null);
                }}
                data={[
                  { value: '', label: 'Detect' },
                  { value: 'claude', label: 'Claude Desktop' },
                  { value: 'vscode', label: 'VS Code' },
                  { value: 'cursor', label: 'Cursor' },
                ]}
              />
              {preview && (
                <Button variant="subtle" onClick={() => void runPreview(text)}>
                  Preview again
                </Button>
              )}
            </Group>
            {error && (
              <Alert color="red" variant="light" role="alert" p="sm">
                {cleanText(error)}
              </Alert>
            )}
            {preview && (
              <Table.ScrollContainer minWidth={600}>
                <Table aria-label="Import preview" verticalSpacing="xs" withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Entry</Table.Th>
                      <Table.Th scope="col">Id</Table.Th>
                      <Table.Th scope="col">Target</Table.Th>
                      <Table.Th scope="col">Status</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {preview.entries.map((e) => (
                      <Table.Tr key={e.key} data-status={e.status}>
                        <Table.Td>{oneLine(e.key)}</Table.Td>
                        <Table.Td className="sb-mono">{e.id}</Table.Td>
                        <Table.Td className="sb-mono" style={{ maxWidth: 280, overflowWrap: 'anywhere' }}>
                          {e.target ? cleanText(e.target) : '—'}
                        </Table.Td>
                        <Table.Td>
                          <Stack gap={4}>
                            <Badge color={STATUS[e.status].color} variant="light" tt="none" radius="sm">
                              {STATUS[e.status].label}
                            </Badge>
                            {e.bearerToken && e.status === 'valid' && (
                              <Text size="xs" c="dimmed">
                                <IconKey size={12} aria-hidden /> Its Authorization: Bearer header becomes the bearer token, kept in the
                                credential store.
                              </Text>
                            )}
                            {e.reasons.length > 0 && (
                              <List size="xs" spacing={0}>
                                {e.reasons.map((r) => (
                                  <List.Item key={r}>{cleanText(r)}</List.Item>
                                ))}
                              </List>
                            )}
                            {e.status === 'valid' &&
                              e.secretPrompts.map((p) => (
                                <PasswordInput
                                  key={p.envKey}
                                  size="xs"
                                  label={`${p.envKey} for ${oneLine(e.key)}`}
                                  description={oneLine(p.description)}
                                  value={secrets[e.key]?.[p.envKey] ?? ''}
                                  onChange={(ev) =>
                                    setSecrets({ ...secrets, [e.key]: { ...secrets[e.key], [p.envKey]: ev.currentTarget.value } })
                                  }
                                  autoComplete="off"
                                />
                              ))}
                          </Stack>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
    </AppDialog>
  );
}
