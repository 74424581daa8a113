// "Export as Playwright test" and "Export as collection": for one call or the saved calls, the person picks what each
// test checks (the exact text, and/or top-level structured-content fields), and the file written by the core (a spec,
// or a collection `switchboard run` runs) is downloaded.
import { Alert, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { HistoryEntry, TestAssertion } from '../../../../shared/domains/calls';
import { AppError } from '../../../../shared/errors';
import { saveFile } from '../../lib/save-file';
import { AppDialog } from '../../ui/AppDialog';
import { oneLine } from '../../ui/text';
import { useStore } from '../../store';

/** Top-level structured-content field names of a shown result (none when it was shortened or is not an object). */
function structuredFields(entry: HistoryEntry): string[] {
  const p = entry.presentation;
  if (p.structured === undefined || p.structuredTruncated) return [];
  try {
    const v: unknown = JSON.parse(p.structured);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v).slice(0, 50) : [];
  } catch {
    return [];
  }
}

function initial(entry: HistoryEntry): TestAssertion {
  const fields = structuredFields(entry);
  const text = !entry.presentation.truncated && (entry.presentation.text !== '' || fields.length === 0);
  return { callId: entry.callId, text, fields: text ? [] : fields };
}

/** What the dialog writes: a Playwright spec, or a collection file. */
export type ExportFormat = 'playwright' | 'collection';

/** The dialog; `entries` are the calls to export (one test each). */
export function ExportTestDialog({
  entries,
  title,
  format = 'playwright',
  onClose,
}: {
  entries: HistoryEntry[];
  title?: string;
  format?: ExportFormat;
  onClose: () => void;
}) {
  const usable = entries.filter((e) => e.status === 'ok');
  const [picks, setPicks] = useState<TestAssertion[]>(() => usable.map(initial));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const exportTest = useStore((s) => s.exportTest);
  const exportCollection = useStore((s) => s.exportCollection);
  const collection = format === 'collection';
  const update = (callId: string, change: (a: TestAssertion) => TestAssertion): void =>
    setPicks((all) => all.map((a) => (a.callId === callId ? change(a) : a)));
  const submit = (): void => {
    setBusy(true);
    setError(null);
    const callIds = usable.map((e) => e.callId);
    const written = collection
      ? exportCollection({ callIds, assertions: picks, ...(title ? { name: title } : {}) })
      : exportTest({ callIds, assertions: picks, ...(title ? { title } : {}) });
    written
      .then(
        (file) => {
          saveFile(file.fileName, file.text, collection ? 'application/json' : 'text/plain');
          onClose();
        },
        (err: unknown) => setError(err instanceof AppError ? err.message : `Could not export the ${collection ? 'collection' : 'test'}`),
      )
      .finally(() => setBusy(false));
  };
  return (
    <AppDialog
      opened
      onClose={onClose}
      size="lg"
      title={
        collection ? 'Export as collection' : usable.length === 1 ? 'Export as Playwright test' : 'Export collection as Playwright tests'
      }
      actions={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="filled" onClick={submit} loading={busy} disabled={usable.length === 0}>
            {collection ? 'Export collection' : 'Export spec'}
          </Button>
        </>
      }
    >
      <Stack gap="md">
        {collection ? (
          <Text size="sm">
            The collection lists each call with its saved arguments and checks what you pick; run it with{' '}
            <Text span ff="monospace" size="sm">
              switchboard run FILE
            </Text>
            . It names servers by id and holds no server settings, so no secret is written into the file.
          </Text>
        ) : (
          <Text size="sm">
            The spec re-creates each server, calls the tool with the saved arguments through the UI and checks what you pick. Secrets are
            read from environment variables when it runs; they are never written into the file.
          </Text>
        )}
        {usable.length < entries.length && (
          <Text size="sm" c="dimmed">
            {entries.length - usable.length} call{entries.length - usable.length === 1 ? '' : 's'} that did not succeed left out.
          </Text>
        )}
        {usable.map((entry) => {
          const pick = picks.find((a) => a.callId === entry.callId)!;
          const fields = structuredFields(entry);
          return (
            <Stack key={entry.callId} gap={6} role="group" aria-label={`Checks for ${oneLine(entry.savedAs ?? entry.originalName)}`}>
              <Text size="sm" fw={600}>
                {oneLine(entry.savedAs ?? entry.originalName)}
              </Text>
              <Checkbox
                label={entry.presentation.truncated ? 'Exact text (not available: the text was shortened)' : 'Exact text'}
                disabled={entry.presentation.truncated}
                checked={pick.text === true}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  update(entry.callId, (a) => ({ ...a, text: on }));
                }}
              />
              {fields.length > 0 && (
                <Group gap="md">
                  {fields.map((f) => (
                    <Checkbox
                      key={f}
                      label={`Field ${oneLine(f)}`}
                      checked={pick.fields?.includes(f) === true}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        update(entry.callId, (a) => ({
                          ...a,
                          fields: on ? [...(a.fields ?? []), f] : (a.fields ?? []).filter((x) => x !== f),
                        }));
                      }}
                    />
                  ))}
                </Group>
              )}
            </Stack>
          );
        })}
        {error && (
          <Alert color="red" variant="light" p="sm" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}
