// Confirms removing a server (and, for remote servers, whether its sign-in goes too).
import { Alert, Button, Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { oneLine } from '../../ui/text';
import { selectServer, selectServerName } from '../../store/servers-slice';

/** The remove confirmation. */
export function RemoveDialog(props: { id: string }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const removeServer = useStore((s) => s.removeServer);
  const name = useStore(selectServerName(props.id));
  const transport = useStore((s) => selectServer(props.id)(s)?.transport);
  const [deleteCredentials, setDeleteCredentials] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = (): void => {
    setBusy(true);
    removeServer(props.id, transport !== 'stdio' && deleteCredentials).then(closeDialog, (err: unknown) => {
      setError(err instanceof AppError ? err.message : 'Could not remove');
      setBusy(false);
    });
  };
  return (
    <AppDialog
      opened
      onClose={closeDialog}
      size="md"
      title={`Remove ${oneLine(name)}?`}
      actions={
        <>
          <Button onClick={closeDialog} data-autofocus>
            Cancel
          </Button>
          <Button variant="filled" color="red" loading={busy} onClick={remove}>
            Remove
          </Button>
        </>
      }
    >
      <Stack gap="sm">
        <Text size="sm">
          The server definition and its secret environment values are deleted. Its session is closed.
          {transport === 'stdio' &&
            ' The folder Switchboard made for it in the data folder, with what the server wrote there, is removed too.'}
        </Text>
        {transport !== 'stdio' && (
          <Checkbox
            label="Also delete its sign-in (tokens, bearer token, client settings)"
            checked={deleteCredentials}
            onChange={(e) => setDeleteCredentials(e.currentTarget.checked)}
          />
        )}
        {error && (
          <Alert color="red" variant="light" role="alert" p="sm">
            {error}
          </Alert>
        )}
      </Stack>
    </AppDialog>
  );
}
