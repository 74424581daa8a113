import { useState } from 'react';
import type { ImportFormat } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { saveFile } from '../lib/save-file';
import { serversService } from '../services/servers';
import { useStore } from '../store';
import { Field } from './Field';
import { Modal } from './Modal';

/** Exports every server in another app's format; secret values are never included. */
export function ExportDialog() {
  const closeDialog = useStore((s) => s.closeDialog);
  const [format, setFormat] = useState<ImportFormat>('claude');
  const [out, setOut] = useState<{ fileName: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    try {
      setOut(await serversService.export(format));
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'Export failed');
    }
  };
  const download = () => {
    if (out) saveFile(out.fileName, out.text);
  };
  return (
    <Modal title="Export servers" onClose={closeDialog} wide>
      <Field label="Export format">
        {(id) => (
          <select
            id={id}
            value={format}
            onChange={(e) => {
              setFormat(e.target.value as ImportFormat);
              setOut(null);
            }}
          >
            <option value="claude">Claude Desktop</option>
            <option value="vscode">VS Code</option>
            <option value="cursor">Cursor</option>
          </select>
        )}
      </Field>
      <p className="hint">Secret values are not exported.</p>
      <button type="button" className="secondary" onClick={() => void run()}>
        Generate
      </button>
      {error && (
        <div className="error-text" role="alert">
          {error}
        </div>
      )}
      {out && <textarea aria-label="Exported configuration" readOnly rows={12} value={out.text} className="mono" />}
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={closeDialog}>
          Close
        </button>
        <button type="button" disabled={!out} onClick={download}>
          Save {out?.fileName ?? 'file'}
        </button>
      </div>
    </Modal>
  );
}
