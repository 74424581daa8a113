import { useId, type ReactNode } from 'react';

/** A labelled control with its validation message wired to aria-describedby. */
export function Field(props: {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (id: string, describedBy: string | undefined) => ReactNode;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [props.error ? errorId : null, props.hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={props.error ? 'field has-error' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(id, describedBy)}
      {props.hint && (
        <div id={hintId} className="hint">
          {props.hint}
        </div>
      )}
      {props.error && (
        <div id={errorId} className="error-text" role="alert">
          {props.error}
        </div>
      )}
    </div>
  );
}

/** A labelled checkbox. */
export function Check(props: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="check">
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onChange(e.target.checked)} /> {props.label}
    </label>
  );
}
