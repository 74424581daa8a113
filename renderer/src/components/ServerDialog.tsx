import { useState } from 'react';
import type { ServerConfigView } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import { useStore } from '../store';
import { routes } from '../router/route';
import { Check, Field } from './Field';
import { Modal } from './Modal';
import { emptyModel, modelFromView, modelToInput, validateModel, type ServerFormModel } from './server-form-model';

/** Add or edit a server definition, with per-field validation. */
export function ServerDialog(props: { existing?: ServerConfigView }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const addServer = useStore((s) => s.addServer);
  const updateServer = useStore((s) => s.updateServer);
  const navigate = useStore((s) => s.navigate);
  const editing = props.existing !== undefined;
  const [m, setM] = useState<ServerFormModel>(() => (props.existing ? modelFromView(props.existing) : emptyModel()));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const patch = (p: Partial<ServerFormModel>) => setM((prev) => ({ ...prev, ...p }));

  const submit = async () => {
    const found = validateModel(m, props.existing);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setSubmitError(null);
    try {
      const input = modelToInput(m, props.existing);
      const detail = editing ? await updateServer(m.id, input) : await addServer(input);
      closeDialog();
      navigate(routes.servers(detail.id));
    } catch (err) {
      setSubmitError(err instanceof AppError ? err.message : 'The server could not be saved');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal title={editing ? `Edit ${props.existing?.name}` : 'Add server'} onClose={closeDialog} wide>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="grid2">
          <Field label="Name" error={errors['name']}>
            {(id, d) => <input id={id} aria-describedby={d} value={m.name} onChange={(e) => patch({ name: e.target.value })} />}
          </Field>
          <Field label="Id" error={errors['id']} hint="Lowercase letters, digits, - and _. Used in tool names.">
            {(id, d) => (
              <input id={id} aria-describedby={d} value={m.id} disabled={editing} onChange={(e) => patch({ id: e.target.value })} />
            )}
          </Field>
        </div>
        <Field label="Transport" error={errors['type']}>
          {(id, d) => (
            <select
              id={id}
              aria-describedby={d}
              value={m.type}
              onChange={(e) => patch({ type: e.target.value as ServerFormModel['type'] })}
            >
              <option value="stdio">stdio (local program)</option>
              <option value="http">Streamable HTTP</option>
              <option value="sse">Legacy HTTP+SSE</option>
            </select>
          )}
        </Field>
        {m.type === 'stdio' ? (
          <>
            <Field label="Command" error={errors['command']} hint="The program to run. It is started directly, never through a shell.">
              {(id, d) => <input id={id} aria-describedby={d} value={m.command} onChange={(e) => patch({ command: e.target.value })} />}
            </Field>
            <Field label="Arguments" error={errors['args']} hint="One argument per line.">
              {(id, d) => (
                <textarea id={id} aria-describedby={d} rows={3} value={m.args} onChange={(e) => patch({ args: e.target.value })} />
              )}
            </Field>
            <Field label="Working directory" error={errors['cwd']}>
              {(id, d) => <input id={id} aria-describedby={d} value={m.cwd} onChange={(e) => patch({ cwd: e.target.value })} />}
            </Field>
            <fieldset>
              <legend>Environment</legend>
              {m.env.map((row, i) => (
                <div className="row env-row" key={i}>
                  <input
                    aria-label={`Environment name ${i + 1}`}
                    placeholder="NAME"
                    value={row.key}
                    onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, key: e.target.value } : r)) })}
                  />
                  <input
                    aria-label={`Environment value ${i + 1}`}
                    type={row.secret ? 'password' : 'text'}
                    placeholder={row.secret && row.isSet ? '(stored — leave empty to keep)' : 'value'}
                    value={row.value}
                    onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, value: e.target.value } : r)) })}
                  />
                  <Check
                    label="Secret"
                    checked={row.secret}
                    onChange={(v) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, secret: v } : r)) })}
                  />
                  <button
                    type="button"
                    className="link"
                    aria-label={`Remove environment variable ${i + 1}`}
                    onClick={() => patch({ env: m.env.filter((_, j) => j !== i) })}
                  >
                    Remove
                  </button>
                </div>
              ))}
              {errors['env'] && (
                <div className="error-text" role="alert">
                  {errors['env']}
                </div>
              )}
              <button
                type="button"
                className="secondary"
                onClick={() => patch({ env: [...m.env, { key: '', value: '', secret: false, isSet: false }] })}
              >
                Add variable
              </button>
              <Check
                label="Inherit the whole environment of Switchboard"
                checked={m.inheritEnv}
                onChange={(v) => patch({ inheritEnv: v })}
              />
            </fieldset>
          </>
        ) : (
          <>
            <Field label="URL" error={errors['url']}>
              {(id, d) => <input id={id} aria-describedby={d} type="url" value={m.url} onChange={(e) => patch({ url: e.target.value })} />}
            </Field>
            <fieldset>
              <legend>Headers</legend>
              {m.headers.map((h, i) => (
                <div className="row" key={i}>
                  <input
                    aria-label={`Header name ${i + 1}`}
                    value={h.key}
                    onChange={(e) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, key: e.target.value } : x)) })}
                  />
                  <input
                    aria-label={`Header value ${i + 1}`}
                    value={h.value}
                    onChange={(e) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)) })}
                  />
                  <button
                    type="button"
                    className="link"
                    aria-label={`Remove header ${i + 1}`}
                    onClick={() => patch({ headers: m.headers.filter((_, j) => j !== i) })}
                  >
                    Remove
                  </button>
                </div>
              ))}
              {errors['headers'] && (
                <div className="error-text" role="alert">
                  {errors['headers']}
                </div>
              )}
              <button type="button" className="secondary" onClick={() => patch({ headers: [...m.headers, { key: '', value: '' }] })}>
                Add header
              </button>
              <Check
                label="Allow plain http to a non-loopback host"
                checked={m.allowInsecureHttp}
                onChange={(v) => patch({ allowInsecureHttp: v })}
              />
            </fieldset>
          </>
        )}
        <details>
          <summary>Connection policy</summary>
          <div className="grid2">
            <Field label="Lifecycle">
              {(id) => (
                <select id={id} value={m.lifecycle} onChange={(e) => patch({ lifecycle: e.target.value as ServerFormModel['lifecycle'] })}>
                  <option value="auto">auto (probe, then fall back)</option>
                  <option value="discover">discover (2026-07-28 only)</option>
                  <option value="initialize">initialize (legacy handshake)</option>
                </select>
              )}
            </Field>
            <Field label="Startup">
              {(id) => (
                <select id={id} value={m.startup} onChange={(e) => patch({ startup: e.target.value as ServerFormModel['startup'] })}>
                  <option value="eager">eager</option>
                  <option value="background">background</option>
                  <option value="manual">manual</option>
                </select>
              )}
            </Field>
            <Field label="Concurrency">
              {(id) => (
                <select
                  id={id}
                  value={m.concurrency}
                  onChange={(e) => patch({ concurrency: e.target.value as ServerFormModel['concurrency'] })}
                >
                  <option value="serial">serial</option>
                  <option value="readOnlyParallel">read-only calls in parallel</option>
                  <option value="parallel">parallel</option>
                </select>
              )}
            </Field>
          </div>
          <Check label="Enabled" checked={m.enabled} onChange={(v) => patch({ enabled: v })} />
          <Check label="Required at start-up" checked={m.required} onChange={(v) => patch({ required: v })} />
          <Check label="Allow elicitation requests" checked={m.elicitation} onChange={(v) => patch({ elicitation: v })} />
          <Check label="Resources" checked={m.resources} onChange={(v) => patch({ resources: v })} />
          <Check label="Tasks extension" checked={m.tasks} onChange={(v) => patch({ tasks: v })} />
        </details>
        {submitError && (
          <div className="error-text" role="alert">
            {submitError}
          </div>
        )}
        <div className="dialog-actions">
          <button type="button" className="secondary" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" disabled={busy}>
            {editing ? 'Save' : 'Add server'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
