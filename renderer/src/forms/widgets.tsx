// rjsf widgets drawn with Mantine inputs: each renders its own label, description and errors (rawErrors), wired
// to the input for assistive technology, so the generated form looks and reads like the rest of the app.
import { Checkbox, Group, NativeSelect, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import {
  ariaDescribedByIds,
  enumOptionSelectedValue,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  getInputProps,
  getOptionValueFormat,
  labelValue,
  type BaseInputTemplateProps,
  type RegistryWidgetsType,
  type WidgetProps,
} from '@rjsf/utils';
import type { ChangeEvent } from 'react';
import { definedFields } from '../../../shared/optional-fields';

/** The error text a widget shows (rjsf collects the field's messages in rawErrors). */
export function errorText(rawErrors: string[] | undefined): string | undefined {
  const list = (rawErrors ?? []).filter((e) => e !== '');
  return list.length > 0 ? list.join('\n') : undefined;
}

function description(props: WidgetProps): string | undefined {
  if (props.hideLabel) return undefined;
  const d = props.options.description ?? props.schema.description;
  return typeof d === 'string' && d.trim() !== '' ? d : undefined;
}

/** The label, description, placeholder, states and error a text field (one line or several) is given. */
function textFieldProps(props: WidgetProps) {
  const { placeholder, required, disabled, readonly, autofocus, label, hideLabel } = props;
  return definedFields({
    label: labelValue(label || undefined, hideLabel, undefined),
    description: description(props),
    placeholder,
    required,
    disabled,
    readOnly: readonly,
    autoFocus: autofocus,
    error: errorText(props.rawErrors),
  });
}

/** Text, number, email, URL, password and date inputs. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { id, htmlName, type, schema, value, options } = props;
  const inputProps = getInputProps(schema, type, options);
  const numeric = inputProps.type === 'number' || inputProps.type === 'integer';
  const shown = numeric ? (value || value === 0 ? String(value) : '') : value == null ? '' : String(value);
  const onChange = (e: ChangeEvent<HTMLInputElement>): void => {
    if (props.onChangeOverride) props.onChangeOverride(e);
    else props.onChange(e.target.value === '' ? options.emptyValue : e.target.value);
  };
  return (
    <TextInput
      id={id}
      name={htmlName || id}
      {...textFieldProps(props)}
      {...inputProps}
      type={numeric ? 'number' : inputProps.type}
      value={shown}
      onChange={onChange}
      onBlur={(e) => props.onBlur(id, e.target.value)}
      onFocus={(e) => props.onFocus(id, e.target.value)}
      aria-describedby={ariaDescribedByIds(id, !!schema.examples)}
      spellCheck={false}
    />
  );
}

/** Multi-line text. */
function TextareaWidget(props: WidgetProps) {
  const { id, htmlName, value, options } = props;
  return (
    <Textarea
      id={id}
      name={htmlName || id}
      {...textFieldProps(props)}
      rows={typeof options.rows === 'number' ? options.rows : 3}
      resize="vertical"
      value={value == null ? '' : String(value)}
      onChange={(e) => props.onChange(e.target.value === '' ? options.emptyValue : e.target.value)}
      onBlur={(e) => props.onBlur(id, e.target.value)}
      onFocus={(e) => props.onFocus(id, e.target.value)}
    />
  );
}

/** A boolean. */
function CheckboxWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, autofocus, label, hideLabel, required } = props;
  return (
    <Checkbox
      id={id}
      name={htmlName || id}
      {...definedFields({
        label: labelValue(label || undefined, hideLabel, undefined) ?? '',
        description: description(props),
        required,
        disabled: disabled || readonly,
        autoFocus: autofocus,
        error: errorText(props.rawErrors),
      })}
      checked={value === true}
      onChange={(e) => props.onChange(e.currentTarget.checked)}
      onBlur={() => props.onBlur(id, value)}
      onFocus={() => props.onFocus(id, value)}
    />
  );
}

/**
 * What a group of choices (checkboxes or radio buttons) and its options are given: the group's label, description,
 * required mark, error, selected value(s) and change, and each option's id, encoded value and label.
 */
function choiceGroup(props: WidgetProps, multiple: boolean) {
  const { id, value, disabled, readonly, label, hideLabel, options, required } = props;
  const format = getOptionValueFormat(options);
  const enumOptions = options.enumOptions ?? [];
  const group = {
    id,
    ...definedFields({
      label: labelValue(label || undefined, hideLabel, undefined),
      description: description(props),
      required,
      error: errorText(props.rawErrors),
    }),
    onChange: (next: string | string[]) => props.onChange(enumOptionValueDecoder(next, enumOptions, format, options.emptyValue)),
  };
  const items = enumOptions.map((o, i) => ({
    key: String(o.value),
    id: `${id}-${i}`,
    value: enumOptionValueEncoder(o.value, i, format),
    label: o.label,
    disabled: disabled || readonly,
  }));
  const selected = enumOptionSelectedValue(value, enumOptions, multiple, format, multiple ? [] : '');
  return { group, items, selected };
}

/** Several of a fixed set (array of enum, uniqueItems). */
function CheckboxesWidget(props: WidgetProps) {
  const { group, items, selected } = choiceGroup(props, true);
  return (
    <Checkbox.Group {...group} value={selected as string[]}>
      <Group gap="md" mt={4}>
        {items.map(({ key, ...item }) => (
          <Checkbox key={key} {...item} />
        ))}
      </Group>
    </Checkbox.Group>
  );
}

/** One of a fixed set, as radio buttons (ui:widget radio). */
function RadioWidget(props: WidgetProps) {
  const { group, items, selected } = choiceGroup(props, false);
  return (
    <Radio.Group {...group} value={selected as string}>
      <Stack gap={6} mt={4}>
        {items.map(({ key, ...item }) => (
          <Radio key={key} {...item} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

/** One of a fixed set, as a native select (keyboard and screen readers handle it everywhere). */
function SelectWidget(props: WidgetProps) {
  const { id, htmlName, value, disabled, readonly, autofocus, label, hideLabel, options, required, multiple, schema, placeholder } = props;
  if (multiple) return <CheckboxesWidget {...props} />;
  const format = getOptionValueFormat(options);
  const enumOptions = options.enumOptions ?? [];
  const selected = enumOptionSelectedValue(value, enumOptions, false, format, '') as string;
  const data = [
    ...(schema.default === undefined ? [{ value: '', label: placeholder || '—' }] : []),
    ...enumOptions.map((o, i) => ({
      value: enumOptionValueEncoder(o.value, i, format),
      label: o.label,
      disabled: options.enumDisabled?.includes(o.value) ?? false,
    })),
  ];
  return (
    <NativeSelect
      id={id}
      name={htmlName || id}
      {...definedFields({
        label: labelValue(label || undefined, hideLabel, undefined),
        description: description(props),
        required,
        disabled: disabled || readonly,
        autoFocus: autofocus,
        error: errorText(props.rawErrors),
      })}
      data={data}
      value={selected ?? ''}
      onChange={(e) => props.onChange(enumOptionValueDecoder(e.currentTarget.value, enumOptions, format, options.emptyValue))}
      onBlur={(e) => props.onBlur(id, enumOptionValueDecoder(e.currentTarget.value, enumOptions, format, options.emptyValue))}
      onFocus={(e) => props.onFocus(id, enumOptionValueDecoder(e.currentTarget.value, enumOptions, format, options.emptyValue))}
    />
  );
}

/** The widgets this theme replaces (the rest come from rjsf core and use BaseInputTemplate). */
export const widgets: RegistryWidgetsType = {
  TextareaWidget,
  CheckboxWidget,
  CheckboxesWidget,
  RadioWidget,
  SelectWidget,
};
