import { useState } from 'react';
import type { ImportFormat, ImportPreview, ImportResult } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { serversService } from '../services/servers';
import { useStore } from '../store';
import { Field } from './Field';
import { Modal } from './Modal';

/** Paste or pick a Claude Desktop / VS Code / Cursor config, preview, then confirm. */
export function ImportDialog() {
  const closeDialog = useStore((s) => s.closeDialog);
  const loadServers = useStore((s) => s.loadServers);
  const [text, setText] = useState('');
  const [format, setFormat] = useState<ImportFormat | ''>('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [secrets, setSecrets] = useState<Record<string, Record<string, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  const runPreview = async (source: string) => {
    setError(null);
    setResult(null);
    try {
      setPreview(await serversService.importPreview(source, format || undefined));
    } catch (err) {
      setPreview(null);
      setError(err instanceof AppError ? err.message : 'The text could not be read');
    }
  };

  const confirm = async () => {
    if (!preview) return;
    const keys = preview.entries.filter((e) => e.status === 'valid').map((e) => e.key);
    try {
      const res = await serversService.import({ text, ...(format ? { format } : {}), keys, secrets });
      setResult(res);
      await loadServers();
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The import failed');
    }
  };

  const validCount = preview?.entries.filter((e) => e.status === 'valid').length ?? 0;
  return (
    <Modal title="Import servers" onClose={closeDialog} wide>
      <Field label="Configuration text" hint="Paste claude_desktop_config.json, a VS Code mcp.json or a Cursor mcp.json.">
        {(id, d) => (
          <textarea
            id={id}
            aria-describedby={d}
            rows={8}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setPreview(null);
            }}
          />
        )}
      </Field>
      <div className="row">
        <Field label="Or pick a file">
          {(id) => (
            <input
              id={id}
              type="file"
              accept=".json,application/json"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (!file) return;
                void file.text().then((t) => {
                  setText(t);
                  void runPreview(t);
                });
              }}
            />
          )}
        </Field>
        <Field label="Format">
          {(id) => (
            <select id={id} value={format} onChange={(e) => setFormat(e.target.value as ImportFormat | '')}>
              <option value="">Detect</option>
              <option value="claude">Claude Desktop</option>
              <option value="vscode">VS Code</option>
              <option value="cursor">Cursor</option>
            </select>
          )}
        </Field>
      </div>
      <button type="button" className="secondary" onClick={() => void runPreview(text)} disabled={text.trim() === ''}>
        Preview
      </button>
      {error && (
        <div className="error-text" role="alert">
          {error}
        </div>
      )}
      {preview && (
        <table className="preview" aria-label="Import preview">
          <thead>
            <tr>
              <th>Entry</th>
              <th>Id</th>
              <th>Target</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {preview.entries.map((e) => (
              <tr key={e.key} className={`import-${e.status}`}>
                <td>{e.key}</td>
                <td>{e.id}</td>
                <td className="mono">{e.target ?? '—'}</td>
                <td>
                  <strong>{e.status === 'valid' ? 'Will be created' : e.status === 'clash' ? 'Id clash' : 'Invalid'}</strong>
                  {e.reasons.map((r) => (
                    <div key={r} className="reason">
                      {r}
                    </div>
                  ))}
                  {e.status === 'valid' &&
                    e.secretPrompts.map((p) => (
                      <Field key={p.envKey} label={`${p.envKey} for ${e.key}`} hint={p.description}>
                        {(id, d) => (
                          <input
                            id={id}
                            aria-describedby={d}
                            type="password"
                            value={secrets[e.key]?.[p.envKey] ?? ''}
                            onChange={(ev) => setSecrets({ ...secrets, [e.key]: { ...secrets[e.key], [p.envKey]: ev.target.value } })}
                          />
                        )}
                      </Field>
                    ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result && (
        <div role="status" className="result">
          Imported {result.added.length} server(s).
          {result.skipped.map((s) => (
            <div key={s.key} className="reason">
              Skipped {s.key}: {s.reason}
            </div>
          ))}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="secondary" onClick={closeDialog}>
          {result ? 'Close' : 'Cancel'}
        </button>
        {!result && (
          <button type="button" disabled={!preview || validCount === 0} onClick={() => void confirm()}>
            Import {validCount} server(s)
          </button>
        )}
      </div>
    </Modal>
  );
}
