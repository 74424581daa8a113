// Exports every server in another app's format; secret values are never included.
import { Alert, Button, CopyButton, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ImportFormat } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { saveFile } from '../lib/save-file';
import { useStore } from '../store';
import { AppDialog } from '../ui/AppDialog';
import { api } from '../bridge';

/** The export dialog. */
export function ExportDialog() {
  const closeDialog = useStore((s) => s.closeDialog);
  const [format, setFormat] = useState<ImportFormat>('claude');
  const [out, setOut] = useState<{ fileName: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setOut(null);
    setError(null);
    api['servers.export']({ format }).then(
      (r) => live && setOut(r),
      (err: unknown) => live && setError(err instanceof AppError ? err.message : 'Export failed'),
    );
    return () => {
      live = false;
    };
  }, [format]);
  return (
    <AppDialog
      opened
      onClose={closeDialog}
      title="Export servers"
      actions={
        <>
          <Button onClick={closeDialog}>Close</Button>
          {out && (
            <CopyButton value={out.text}>
              {({ copied, copy }) => (
                <Button leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />} onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          )}
          <Button
            variant="filled"
            disabled={!out}
            leftSection={<IconDownload size={16} aria-hidden />}
            onClick={() => out && saveFile(out.fileName, out.text)}
          >
            Save {out?.fileName ?? 'file'}
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <NativeSelect
          label="Export format"
          data-autofocus
          value={format}
          onChange={(e) => setFormat(e.currentTarget.value as ImportFormat)}
          data={[
            { value: 'claude', label: 'Claude Desktop' },
            { value: 'vscode', label: 'VS Code' },
            { value: 'cursor', label: 'Cursor' },
          ]}
        />
        <Text size="sm" c="dimmed">
          Secret values are not exported (VS Code files ask for them again when imported).
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert" p="sm">
            {error}
          </Alert>
        )}
        <Textarea
          label="Exported configuration"
          readOnly
          rows={8}
          resize="vertical"
          value={out?.text ?? ''}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        />
      </Stack>
    </AppDialog>
  );
}
