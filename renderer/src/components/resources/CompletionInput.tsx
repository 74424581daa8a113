// A text input that asks the server for completion/complete suggestions as the person types (a combobox whose
// options are the server's suggestions, shown as text).
import { Autocomplete } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useStore } from '../../store';
import { oneLine } from '../../ui/text';

type Ref = { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };

/** Labelled input with server suggestions. */
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
  const complete = useStore((s) => s.complete);
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
      complete(serverId, JSON.parse(refKey) as Ref, { name, value }, JSON.parse(ctxKey) as Record<string, string>)
        .then((values) => {
          if (mine === seq.current) setSuggestions([...new Set(values.map(oneLine))].filter((v) => v !== '' && v !== value).slice(0, 20));
        })
        .catch(() => {
          if (mine === seq.current) setSuggestions([]);
        });
    }, 150);
    return () => clearTimeout(timer);
  }, [serverId, refKey, ctxKey, name, value, focused, complete]);
  return (
    <Autocomplete
      label={props.label}
      required={props.required === true}
      description={props.description ? oneLine(props.description) : undefined}
      value={value}
      data={suggestions}
      filter={({ options }) => options}
      onChange={props.onChange}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      comboboxProps={{ withinPortal: true }}
      autoComplete="off"
      spellCheck={false}
    />
  );
}
