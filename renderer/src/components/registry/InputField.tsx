// One value the person fills before installing: a choice list, a switch for true/false, a masked field for secrets,
// one line per value for repeated ones, a text field otherwise. Labels and descriptions are server text. Also the
// group of them a dialog shows, and the values it sends.
import { Divider, PasswordInput, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import type { InstallInput, InstallValues } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';

const KIND_LABEL: Record<InstallInput['kind'], string> = {
  env: 'Environment variable',
  header: 'Header',
  argument: 'Argument',
  url: 'URL part',
};

/** The widget for one install input. */
export function InputField({
  input,
  value,
  onChange,
  error,
}: {
  input: InstallInput;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const label = escapeUnsafe(input.label);
  const description = [
    KIND_LABEL[input.kind],
    input.description ? escapeUnsafe(input.description) : undefined,
    input.secret ? 'Kept in the credential store, never shown again' : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
  const common = { label, description, required: input.required, error, 'data-input-key': input.key };
  if (input.choices !== undefined && input.choices.length > 0 && !input.secret) {
    return (
      <Select
        {...common}
        data={input.choices.map((c) => ({ value: c, label: escapeUnsafe(c) }))}
        value={value === '' ? null : value}
        onChange={(v) => onChange(v ?? '')}
        clearable={!input.required}
        allowDeselect={!input.required}
        placeholder={input.default !== undefined ? `Default: ${escapeUnsafe(input.default)}` : 'Choose…'}
      />
    );
  }
  if (input.format === 'boolean' && !input.secret) {
    return (
      <Switch
        label={label}
        description={description}
        checked={value === 'true'}
        onChange={(e) => onChange(e.currentTarget.checked ? 'true' : 'false')}
        data-input-key={input.key}
      />
    );
  }
  if (input.secret) {
    return <PasswordInput {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} autoComplete="off" />;
  }
  if (input.repeated) {
    return (
      <Textarea
        {...common}
        description={`${description} · One value per line`}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        autosize
        minRows={2}
        maxRows={6}
        placeholder={
          input.placeholder !== undefined
            ? escapeUnsafe(input.placeholder)
            : input.default !== undefined
              ? escapeUnsafe(input.default)
              : undefined
        }
        spellCheck={false}
      />
    );
  }
  return (
    <TextInput
      {...common}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      inputMode={input.format === 'number' ? 'decimal' : undefined}
      placeholder={
        input.placeholder !== undefined
          ? escapeUnsafe(input.placeholder)
          : input.default !== undefined
            ? `Default: ${escapeUnsafe(input.default)}`
            : undefined
      }
      spellCheck={false}
      autoComplete="off"
    />
  );
}

/** The values filled in, without the empty ones (an empty field sends nothing: the default applies). */
export function filledValues(values: InstallValues): InstallValues {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
}

/** A titled group of input widgets, each bound to its key in `values`. */
export function InputFields({
  inputs,
  values,
  onChange,
  label,
  title,
  errorFor,
}: {
  inputs: readonly InstallInput[];
  values: InstallValues;
  onChange: (next: (cur: InstallValues) => InstallValues) => void;
  /** The group's accessible name. */
  label: string;
  /** The divider's text above the fields. */
  title: string;
  errorFor?: (key: string) => string | undefined;
}) {
  if (inputs.length === 0) return null;
  return (
    <Stack gap="sm" role="group" aria-label={label}>
      <Divider label={title} labelPosition="left" />
      {inputs.map((input) => (
        <InputField
          key={input.key}
          input={input}
          value={values[input.key] ?? ''}
          onChange={(v) => onChange((cur) => ({ ...cur, [input.key]: v }))}
          error={errorFor?.(input.key)}
        />
      ))}
    </Stack>
  );
}
