// A form generated from a tool's inputSchema (@rjsf/core), with a raw-JSON view kept in sync. Arguments are
// validated before they are sent; a schema the form library cannot handle falls back to raw JSON with a notice.
import Form from '@rjsf/core';
import type { RJSFSchema } from '@rjsf/utils';
import { cspValidator as validator } from './csp-validator';
import { Component, useMemo, useState, type ReactNode } from 'react';
import { prepareSchema, type JsonSchema } from './schema-prep';

type Args = Record<string, unknown>;

class FormBoundary extends Component<{ onError: (message: string) => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown): void {
    this.props.onError(error instanceof Error ? error.message : 'unknown error');
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

function validateArgs(schema: JsonSchema, value: Args): string[] {
  try {
    const { errors } = validator.validateFormData(value, schema as RJSFSchema);
    return errors.map((e) => e.stack);
  } catch (err) {
    return [`The schema could not be checked: ${err instanceof Error ? err.message : 'unknown error'}`];
  }
}

/** Props of the arguments form. */
export interface SchemaFormProps {
  /** The tool's inputSchema as listed. */
  inputSchema: unknown;
  /** Arguments to start from (replay). */
  initial?: Args;
  /** Whether a call is running (disables the Call button). */
  busy: boolean;
  /** Called with validated arguments. */
  onCall: (args: Args) => void;
  /** The submit button's text (default "Call"). */
  submitLabel?: string;
}

/** The generated form and its raw-JSON twin. */
export function SchemaForm({ inputSchema, initial, busy, onCall, submitLabel = 'Call' }: SchemaFormProps) {
  const prepared = useMemo(() => prepareSchema(inputSchema), [inputSchema]);
  const [formError, setFormError] = useState<string | null>(prepared.formable ? null : 'This schema cannot be shown as a form.');
  const [mode, setMode] = useState<'form' | 'json'>(prepared.formable ? 'form' : 'json');
  const [value, setValue] = useState<Args>(initial ?? {});
  const [raw, setRaw] = useState<string>(JSON.stringify(initial ?? {}, null, 2));
  const [rawError, setRawError] = useState<string | null>(null);
  const [jsonErrors, setJsonErrors] = useState<string[]>([]);
  const [formKey, setFormKey] = useState(0);

  const switchTo = (next: 'form' | 'json'): void => {
    if (next === 'json') setRaw(JSON.stringify(value, null, 2));
    else setFormKey((k) => k + 1);
    setMode(next);
  };

  const onRaw = (text: string): void => {
    setRaw(text);
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        setRawError('Arguments must be a JSON object.');
        return;
      }
      setRawError(null);
      setValue(parsed as Args);
    } catch {
      setRawError('Not valid JSON yet.');
    }
  };

  const sendRaw = (): void => {
    if (rawError) return;
    const errors = validateArgs(prepared.schema, value);
    setJsonErrors(errors);
    if (errors.length === 0) onCall(value);
  };

  const showForm = mode === 'form' && formError === null;
  return (
    <div className="schema-form">
      {prepared.notices.map((n) => (
        <p key={n} className="hint" role="note">
          {n}
        </p>
      ))}
      {formError && (
        <p className="hint" role="note" data-testid="form-fallback">
          The form could not be built ({formError}); edit the arguments as JSON instead.
        </p>
      )}
      <div className="tabs" role="tablist" aria-label="Argument editor">
        <button
          type="button"
          role="tab"
          className="tab"
          aria-selected={showForm}
          disabled={formError !== null}
          onClick={() => switchTo('form')}
        >
          Form
        </button>
        <button type="button" role="tab" className="tab" aria-selected={!showForm} onClick={() => switchTo('json')}>
          JSON
        </button>
      </div>
      {showForm ? (
        <FormBoundary onError={(m) => (setFormError(m), setMode('json'), setRaw(JSON.stringify(value, null, 2)))}>
          <Form
            key={formKey}
            schema={prepared.schema as RJSFSchema}
            validator={validator}
            formData={value}
            showErrorList={false}
            noHtml5Validate
            onChange={(e) => setValue((e.formData ?? {}) as Args)}
            onSubmit={(e) => onCall((e.formData ?? {}) as Args)}
          >
            <button type="submit" className="primary" disabled={busy}>
              {submitLabel}
            </button>
          </Form>
        </FormBoundary>
      ) : (
        <div>
          <label className="field">
            Arguments (JSON)
            <textarea aria-label="Arguments (JSON)" rows={10} value={raw} onChange={(e) => onRaw(e.target.value)} spellCheck={false} />
          </label>
          {rawError && <p className="error-text">{rawError}</p>}
          {jsonErrors.length > 0 && (
            <ul className="error-text" aria-label="Argument errors">
              {jsonErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
          <button type="button" className="primary" disabled={busy || rawError !== null} onClick={sendRaw}>
            {submitLabel}
          </button>
        </div>
      )}
    </div>
  );
}
