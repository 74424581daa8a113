import { useState } from 'react';
import { AppError } from '../../../shared/errors';
import { useStore } from '../store';
import { Check } from './Field';
import { Modal } from './Modal';

/** Confirms removing a server. */
export function RemoveDialog(props: { id: string }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const removeServer = useStore((s) => s.removeServer);
  const name = useStore((s) => s.servers.find((x) => x.id === props.id)?.name ?? props.id);
  const transport = useStore((s) => s.servers.find((x) => x.id === props.id)?.transport);
  const [deleteCredentials, setDeleteCredentials] = useState(true);
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal title={`Remove ${name}?`} onClose={closeDialog}>
      <p>The server definition and its secret environment values are deleted. Its session is closed.</p>
      {transport !== 'stdio' && (
        <Check
          label="Also delete its sign-in (tokens, bearer token, client settings)"
          checked={deleteCredentials}
          onChange={setDeleteCredentials}
        />
      )}
      {error && (
        <div className="error-text" role="alert">
          {error}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={closeDialog}>
          Cancel
        </button>
        <button
          type="button"
          className="danger"
          onClick={() =>
            void removeServer(props.id, transport !== 'stdio' && deleteCredentials).then(closeDialog, (err: unknown) =>
              setError(err instanceof AppError ? err.message : 'Could not remove'),
            )
          }
        >
          Remove
        </button>
      </div>
    </Modal>
  );
}
