// The elicitation dialog: one request at a time (a badge counts the queue), naming the requesting server.
// Form mode builds fields from the requested schema with defaults pre-filled and validates before sending;
// URL mode shows the full address with its host highlighted and warnings, and opens it only on consent.
import { useEffect, useMemo, useState } from 'react';
import type { ElicitationRequestView } from '../../../shared/domains/resources';
import {
  initialValues,
  parseElicitationSchema,
  validateElicitation,
  type ElicitField,
  type ElicitValue,
} from '../../../shared/domains/resources-elicitation';
import { AppError } from '../../../shared/errors';
import { useStore } from '../store';
import { selectCurrentElicitation, selectElicitationCount } from '../store/resources-slice';
import { Field } from './Field';
import { Modal } from './Modal';
import './resources.css';

function FormField(props: {
  field: ElicitField;
  value: ElicitValue | undefined;
  error: string | undefined;
  onChange: (v: ElicitValue) => void;
}) {
  const f = props.field;
  const label = `${f.label}${f.required ? ' *' : ''}`;
  if (f.kind === 'boolean') {
    return (
      <div className="field">
        <label className="check">
          <input type="checkbox" checked={props.value === true} onChange={(e) => props.onChange(e.target.checked)} />
          {label}
        </label>
        {f.description && <div className="hint">{f.description}</div>}
        {props.error && (
          <div className="error-text" role="alert">
            {props.error}
          </div>
        )}
      </div>
    );
  }
  if (f.kind === 'multiEnum') {
    const chosen = Array.isArray(props.value) ? props.value : [];
    return (
      <fieldset className="field">
        <legend>{label}</legend>
        {f.options.map((o) => (
          <label key={o.value} className="check">
            <input
              type="checkbox"
              checked={chosen.includes(o.value)}
              onChange={(e) => props.onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))}
            />
            {o.label}
          </label>
        ))}
        {f.description && <div className="hint">{f.description}</div>}
        {props.error && (
          <div className="error-text" role="alert">
            {props.error}
          </div>
        )}
      </fieldset>
    );
  }
  return (
    <Field label={label} error={props.error} {...(f.description !== undefined ? { hint: f.description } : {})}>
      {(id, describedBy) =>
        f.kind === 'enum' ? (
          <select
            id={id}
            aria-describedby={describedBy}
            value={typeof props.value === 'string' ? props.value : ''}
            onChange={(e) => props.onChange(e.target.value)}
          >
            <option value="">—</option>
            {f.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            aria-describedby={describedBy}
            type={
              f.kind === 'number'
                ? 'number'
                : f.format === 'email'
                  ? 'email'
                  : f.format === 'uri'
                    ? 'url'
                    : f.format === 'date'
                      ? 'date'
                      : 'text'
            }
            {...(f.kind === 'number'
              ? {
                  step: f.integer ? 1 : 'any',
                  ...(f.minimum !== undefined ? { min: f.minimum } : {}),
                  ...(f.maximum !== undefined ? { max: f.maximum } : {}),
                }
              : {})}
            {...(f.kind === 'string' && f.format === 'date-time' ? { placeholder: '2026-01-31T09:30:00Z' } : {})}
            value={props.value === undefined ? '' : String(props.value)}
            onChange={(e) => props.onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}

function UrlHighlight(props: { url: string; host: string }) {
  const at = props.url.indexOf(props.host);
  if (at < 0) return <span>{props.url}</span>;
  return (
    <span>
      {props.url.slice(0, at)}
      <mark className="url-host" data-testid="url-host">
        {props.host}
      </mark>
      {props.url.slice(at + props.host.length)}
    </span>
  );
}

function Dialog(props: { request: ElicitationRequestView; count: number }) {
  const r = props.request;
  const respond = useStore((s) => s.respondElicitation);
  const form = useMemo(() => parseElicitationSchema(r.requestedSchema), [r.requestedSchema]);
  const [values, setValues] = useState<Record<string, ElicitValue>>(() => initialValues(form));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (action: 'accept' | 'decline' | 'cancel') => {
    setFailure(null);
    let content: Record<string, unknown> | undefined;
    if (action === 'accept' && r.mode === 'form') {
      const checked = validateElicitation(form, values);
      if (!checked.ok) {
        setErrors(checked.errors);
        return;
      }
      setErrors({});
      content = checked.content;
    }
    setBusy(true);
    try {
      await respond(r.requestId, action, content);
    } catch (err) {
      setFailure(err instanceof AppError ? err.message : 'The answer could not be sent');
    } finally {
      setBusy(false);
    }
  };

  const secondsLeft = Math.max(0, Math.round((r.expiresAt - Date.now()) / 1000));
  return (
    <Modal title={`${r.serverName} asks for input`} onClose={() => void send('cancel')} wide>
      <div className="row">
        <span className="hint">
          From server <strong>{r.serverName}</strong> ({r.serverId}) · expires in about {Math.ceil(secondsLeft / 60)} min
        </span>
        {props.count > 1 && (
          <span className="queue-badge" aria-label={`${props.count} requests waiting`}>
            {props.count} waiting
          </span>
        )}
      </div>
      <p className="untrusted" data-testid="elicitation-message">
        {r.message}
      </p>
      {r.mode === 'url' && r.url && (
        <div>
          <p>The server asks you to open this address in your browser. Nothing has been loaded.</p>
          <div className="url-box" data-testid="elicitation-url">
            <UrlHighlight url={r.url} host={r.urlHost ?? ''} />
          </div>
          {(r.urlWarnings ?? []).map((w) => (
            <div key={w} className="warning" role="alert">
              {w}
            </div>
          ))}
        </div>
      )}
      {r.mode === 'form' && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send('accept');
          }}
        >
          {form.fields.map((f) => (
            <FormField
              key={f.name}
              field={f}
              value={values[f.name]}
              error={errors[f.name]}
              onChange={(v) => setValues({ ...values, [f.name]: v })}
            />
          ))}
          {form.unsupported.length > 0 && <p className="hint">Not shown (unsupported field types): {form.unsupported.join(', ')}</p>}
        </form>
      )}
      {failure && (
        <div className="error-text" role="alert">
          {failure}
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" disabled={busy} onClick={() => void send('cancel')}>
          Cancel
        </button>
        <button type="button" disabled={busy} onClick={() => void send('decline')}>
          Decline
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void send('accept')}>
          {r.mode === 'url' ? 'Open in browser' : 'Accept'}
        </button>
      </div>
    </Modal>
  );
}

/** Mount point for the elicitation dialog queue. */
export function ElicitationHost() {
  const connected = useStore((s) => s.bridgeState === 'connected');
  const start = useStore((s) => s.startResources);
  const current = useStore(selectCurrentElicitation);
  const count = useStore(selectElicitationCount);
  useEffect(() => {
    if (connected) void start().catch(() => undefined);
  }, [connected, start]);
  if (!current) return null;
  return <Dialog key={current.requestId} request={current} count={count} />;
}
