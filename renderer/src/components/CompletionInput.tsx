// A text input that asks the server for completion/complete suggestions as the user types.
import { useEffect, useId, useRef, useState } from 'react';
import { resourcesService } from '../services/resources';

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Labelled input with server suggestions (a listbox of buttons the user can pick). */
export function CompletionInput(props: {
  serverId: string;
  completionRef: Ref;
  name: string;
  label: string;
  required?: boolean;
  description?: string;
  value: string;
  context: Record<string, string>;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [focused, setFocused] = useState(false);
  const seq = useRef(0);
  const { serverId, completionRef, name, value, context } = props;
  const refKey = JSON.stringify(completionRef);
  const ctxKey = JSON.stringify(context);
  useEffect(() => {
    if (!focused) return;
    const mine = ++seq.current;
    const timer = setTimeout(() => {
      resourcesService
        .complete(serverId, JSON.parse(refKey) as Ref, { name, value }, JSON.parse(ctxKey) as Record<string, string>)
        .then((r) => {
          if (mine === seq.current) setSuggestions(r.values.filter((v) => v !== value).slice(0, 20));
        })
        .catch(() => {
          if (mine === seq.current) setSuggestions([]);
        });
    }, 150);
    return () => clearTimeout(timer);
  }, [serverId, refKey, ctxKey, name, value, focused]);
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.required ? ' *' : ''}
      </label>
      <input
        id={id}
        value={value}
        autoComplete="off"
        aria-autocomplete="list"
        aria-controls={`${id}-list`}
        onFocus={() => setFocused(true)}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.description && <div className="hint">{props.description}</div>}
      {suggestions.length > 0 && (
        <ul id={`${id}-list`} role="listbox" aria-label={`Suggestions for ${props.label}`} className="suggestions">
          {suggestions.map((s) => (
            <li key={s} role="option" aria-selected={false}>
              <button
                type="button"
                onClick={() => {
                  props.onChange(s);
                  setSuggestions([]);
                }}
              >
                {s}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
