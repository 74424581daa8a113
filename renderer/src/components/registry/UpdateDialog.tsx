// Updating an installed registry server: what changes in its launch, any new values the new version needs, then
// apply. A changed command is approved again on the server's page before it runs.
import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { InstallValues, UpdatePreview } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { AppError } from '../../../../shared/errors';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { useAction } from '../../ui/use-action';
import { filledValues, InputFields } from './InputField';
import { WhatWillRun } from './LaunchPreview';
import { Preparing } from './Preparing';

/** The update dialog of one server. */
export function UpdateDialog({ id }: { id: string }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const previewRegistryUpdate = useStore((s) => s.previewRegistryUpdate);
  const applyRegistryUpdate = useStore((s) => s.applyRegistryUpdate);
  const navigate = useStore((s) => s.navigate);
  const [preview, setPreview] = useState<UpdatePreview | null>(null);
  const [values, setValues] = useState<InstallValues>({});
  const { busy, error, setError, run } = useAction();
  useEffect(() => {
    previewRegistryUpdate(id).then(setPreview, (err: unknown) =>
      setError(err instanceof AppError ? err.message : 'The update could not be prepared'),
    );
  }, [id, previewRegistryUpdate, setError]);
  const needed = preview?.prepared.inputs.filter((i) => preview.prepared.missing.includes(i.key)) ?? [];
  const unfilled = needed.filter((i) => (values[i.key] ?? '') === '');
  const apply = async () => {
    if (!preview) return;
    const applied = await run(() => applyRegistryUpdate(id, preview.to, filledValues(values)), 'The update could not be applied');
    if (!applied) return;
    closeDialog();
    navigate(routes.servers(id));
  };
  return (
    <AppDialog
      opened
      onClose={closeDialog}
      title={`Update ${id}`}
      size="xl"
      actions={
        <>
          <Button onClick={closeDialog}>Cancel</Button>
          <Button variant="filled" loading={busy} disabled={preview === null || unfilled.length > 0} onClick={() => void apply()}>
            Apply update
          </Button>
        </>
      }
    >
      {preview === null ? (
        <Preparing error={error} busyText="Asking the registry…" />
      ) : (
        <Stack gap="md">
          <Text>
            From version <strong>{escapeUnsafe(preview.from)}</strong> to <strong>{escapeUnsafe(preview.to)}</strong>.
          </Text>
          {preview.changes.length > 0 ? (
            <Alert color="orange" title="What changes" role="status">
              <List size="sm" spacing={2}>
                {preview.changes.map((c, i) => (
                  <List.Item key={i}>{escapeUnsafe(c)}</List.Item>
                ))}
              </List>
            </Alert>
          ) : (
            <Text fz="sm" c="dimmed">
              The launch stays the same.
            </Text>
          )}
          <InputFields inputs={needed} values={values} onChange={setValues} label="New values" title="The new version needs" />
          <WhatWillRun
            config={preview.prepared.config}
            next={
              preview.prepared.config.transport.type === 'stdio' && preview.changes.some((c) => c.startsWith('Command'))
                ? 'The command changes: you approve it again on the server’s page before it runs.'
                : 'Your other settings for this server are kept.'
            }
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
        </Stack>
      )}
    </AppDialog>
  );
}
