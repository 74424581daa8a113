// `ui/download-file`: nothing is saved until the person has seen each file's name, type and size and agreed. The
// file goes through the shell's save dialog (the desktop app) or the browser's download (headless mode), and is
// never opened.
import { Button, Stack, Table, Text } from '@mantine/core';
import { escapeUnsafe } from '../../../shared/domains/catalog-text';
import { formatSize } from '../../../shared/format-size';
import { AppDialog } from '../ui/AppDialog';
import type { DownloadFile } from './download-request';

/** Props of the download consent dialog. */
export interface DownloadConsentDialogProps {
  /** The files the app asks to save; null when closed. */
  files: DownloadFile[] | null;
  /** The app's display name. */
  appName: string;
  /** The app's server's display name. */
  serverName: string;
  /** Whether the desktop app's save dialog follows (otherwise the browser's download). */
  saveDialog: boolean;
  onAnswer: (save: boolean) => void;
}

/** Asks before an app's file is saved. */
export function DownloadConsentDialog({ files, appName, serverName, saveDialog, onAnswer }: DownloadConsentDialogProps) {
  const list = files ?? [];
  const total = list.reduce((n, f) => n + f.bytes.byteLength, 0);
  const many = list.length > 1;
  return (
    <AppDialog
      opened={files !== null}
      onClose={() => onAnswer(false)}
      title={many ? `Save ${list.length} files from the app?` : 'Save a file from the app?'}
      size="lg"
      describedBy="app-download-intro"
      actions={
        <>
          <Button onClick={() => onAnswer(false)}>Don’t save</Button>
          <Button variant="filled" onClick={() => onAnswer(true)}>
            {many ? `Save ${list.length} files` : 'Save file'}
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text size="sm" id="app-download-intro">
          {escapeUnsafe(appName)} (from {escapeUnsafe(serverName)}) asks to save {many ? 'these files' : 'this file'}.{' '}
          {saveDialog ? 'You choose where each one goes.' : 'Your browser saves it as a download.'} Nothing is opened.
        </Text>
        <Table withTableBorder fz="sm" data-testid="app-download-files">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Type</Table.Th>
              <Table.Th scope="col" ta="right">
                Size
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((f) => (
              <Table.Tr key={f.name}>
                <Table.Td style={{ overflowWrap: 'anywhere' }} data-testid="app-download-name">
                  {escapeUnsafe(f.name)}
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{f.mimeType}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatSize(f.bytes.byteLength)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {many && (
          <Text size="xs" className="sb-dim">
            {formatSize(total)} in all.
          </Text>
        )}
      </Stack>
    </AppDialog>
  );
}
