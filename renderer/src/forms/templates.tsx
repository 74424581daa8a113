// rjsf layout templates drawn with Mantine: nested objects and arrays as fieldsets, array items with labelled
// move/remove buttons, container-level errors under the group (field errors sit on their inputs).
import { ActionIcon, Box, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCopy, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import {
  ADDITIONAL_PROPERTY_FLAG,
  buttonId,
  canExpand,
  getTemplate,
  getUiOptions,
  type ArrayFieldItemTemplateProps,
  type ArrayFieldTemplateProps,
  type DescriptionFieldProps,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type IconButtonProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
  type TitleFieldProps,
  type WrapIfAdditionalTemplateProps,
} from '@rjsf/utils';
import type { ReactNode } from 'react';
import { definedFields } from '../../../shared/optional-fields';
import { BaseInputTemplate } from './widgets';

/** Path words for button labels: "root_tags_2" → "tags item 3". */
function pathWords(id: string | undefined): string {
  const parts = (id ?? '')
    .replace(/^root_?/, '')
    .split('_')
    .filter(Boolean);
  return parts.map((p) => (/^\d+$/.test(p) ? `item ${Number(p) + 1}` : p)).join(' ');
}

function FieldTemplate(props: FieldTemplateProps) {
  const { hidden, children, errors, help, registry } = props;
  if (hidden) return <Box display="none">{children}</Box>;
  const { WrapIfAdditionalTemplate } = registry.templates;
  return (
    <WrapIfAdditionalTemplate {...props}>
      {children}
      {errors}
      {help}
    </WrapIfAdditionalTemplate>
  );
}

/** Errors of an object or array as a whole (leaf inputs show their own). */
function FieldErrorTemplate({ errors, schema, fieldPathId }: FieldErrorProps) {
  const container = schema.type === 'object' || schema.type === 'array';
  const list = (errors ?? []).filter((e) => e !== '');
  if (!container || list.length === 0) return null;
  return (
    <Stack gap={2} id={`${fieldPathId.$id}__error`} mt={4}>
      {list.map((e, i) => (
        <Text key={i} size="sm" c="red">
          {e}
        </Text>
      ))}
    </Stack>
  );
}

function FieldHelpTemplate({ help, fieldPathId }: FieldHelpProps) {
  if (!help) return null;
  return (
    <Text size="xs" c="dimmed" id={`${fieldPathId.$id}__help`}>
      {help}
    </Text>
  );
}

function TitleFieldTemplate({ id, title, required }: TitleFieldProps) {
  return (
    <Text id={id} fw={600} size="sm">
      {title}
      {required ? (
        <Text span c="red" aria-hidden>
          {' *'}
        </Text>
      ) : null}
    </Text>
  );
}

function DescriptionFieldTemplate({ id, description }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Text id={id} size="sm" c="dimmed">
      {description}
    </Text>
  );
}

function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { title, description, properties, fieldPathId, schema, uiSchema, formData, registry, disabled, readonly, onAddProperty } = props;
  const { AddButton } = registry.templates.ButtonTemplates;
  const root = fieldPathId.$id === 'root';
  const body = (
    <Stack gap="sm">
      {!root && description ? (
        <DescriptionFieldTemplate id={`${fieldPathId.$id}__description`} description={description} registry={registry} schema={schema} />
      ) : null}
      {properties
        .filter((p) => !p.hidden)
        .map((p) => (
          <Box key={p.name}>{p.content}</Box>
        ))}
      {canExpand(schema, uiSchema, formData) && (
        <Group>
          <AddButton
            id={buttonId(fieldPathId, 'add')}
            disabled={disabled || readonly}
            onClick={onAddProperty}
            registry={registry}
            {...definedFields({ uiSchema })}
            title={`Add a value to ${pathWords(fieldPathId.$id) || 'the arguments'}`}
          />
        </Group>
      )}
    </Stack>
  );
  if (root) return body;
  return (
    <Fieldset id={fieldPathId.$id} legend={title || pathWords(fieldPathId.$id)} variant="filled" p="sm">
      {body}
    </Fieldset>
  );
}

function ArrayFieldTemplate(props: ArrayFieldTemplateProps) {
  const { title, items, canAdd, onAddClick, disabled, readonly, fieldPathId, registry, uiSchema, schema, required } = props;
  const { AddButton } = registry.templates.ButtonTemplates;
  const words = title || pathWords(fieldPathId.$id);
  const uiOptions = getUiOptions(uiSchema);
  const Description = getTemplate('ArrayFieldDescriptionTemplate', registry, uiOptions);
  return (
    <Fieldset id={fieldPathId.$id} legend={`${words}${required ? ' *' : ''}`} variant="filled" p="sm">
      <Stack gap="xs">
        {schema.description ? (
          <Description description={schema.description} fieldPathId={fieldPathId} registry={registry} schema={schema} />
        ) : null}
        {items.length === 0 && (
          <Text size="sm" c="dimmed">
            No items.
          </Text>
        )}
        {items}
        {canAdd && (
          <Group>
            <AddButton
              id={buttonId(fieldPathId, 'add')}
              disabled={disabled || readonly}
              onClick={onAddClick}
              registry={registry}
              {...definedFields({ uiSchema })}
              title={`Add ${words} item`}
            />
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}

function ArrayFieldItemTemplate(props: ArrayFieldItemTemplateProps) {
  const { children, hasToolbar, buttonsProps, registry } = props;
  const Buttons = registry.templates.ArrayFieldItemButtonsTemplate;
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      {hasToolbar && (
        <Group gap={2} wrap="nowrap" mb={4}>
          <Buttons {...buttonsProps} />
        </Group>
      )}
    </Group>
  );
}

function WrapIfAdditionalTemplate(props: WrapIfAdditionalTemplateProps) {
  const { id, label, children, schema, disabled, readonly, onKeyRenameBlur, onRemoveProperty, registry, uiSchema } = props;
  const additional = ADDITIONAL_PROPERTY_FLAG in schema;
  if (!additional) return <Box>{children}</Box>;
  const { RemoveButton } = registry.templates.ButtonTemplates;
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput label="Name" id={`${id}-key`} defaultValue={label} disabled={disabled || readonly} onBlur={onKeyRenameBlur} w={180} />
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      <RemoveButton
        id={buttonId(id, 'remove')}
        disabled={disabled || readonly}
        onClick={onRemoveProperty}
        registry={registry}
        {...definedFields({ uiSchema })}
        title={`Remove ${label}`}
      />
    </Group>
  );
}

function iconButton(icon: ReactNode, words: (props: IconButtonProps) => string, color?: string) {
  return function IconButton(props: IconButtonProps) {
    const { id, disabled, onClick, className } = props;
    const name = props.title ?? words(props);
    return (
      <ActionIcon
        {...definedFields({ id, className, disabled, onClick })}
        aria-label={name}
        title={name}
        size="lg"
        variant="subtle"
        {...(color ? { color } : {})}
      >
        {icon}
      </ActionIcon>
    );
  };
}

function AddButton(props: IconButtonProps) {
  const name = props.title ?? 'Add item';
  return (
    <Button
      {...definedFields({ id: props.id, className: props.className, disabled: props.disabled, onClick: props.onClick })}
      size="xs"
      variant="default"
      leftSection={<IconPlus size={14} aria-hidden />}
    >
      {name}
    </Button>
  );
}

/** The templates this theme replaces; everything else is rjsf core's. */
export const templates: Partial<TemplatesType> = {
  BaseInputTemplate,
  FieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  TitleFieldTemplate,
  DescriptionFieldTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ArrayFieldItemTemplate,
  WrapIfAdditionalTemplate,
  ButtonTemplates: {
    AddButton,
    RemoveButton: iconButton(<IconTrash size={16} aria-hidden />, (p) => `Remove ${pathWords(p.id?.replace(/_remove$/, ''))}`, 'red'),
    MoveUpButton: iconButton(<IconArrowUp size={16} aria-hidden />, (p) => `Move ${pathWords(p.id?.replace(/_moveUp$/, ''))} up`),
    MoveDownButton: iconButton(<IconArrowDown size={16} aria-hidden />, (p) => `Move ${pathWords(p.id?.replace(/_moveDown$/, ''))} down`),
    CopyButton: iconButton(<IconCopy size={16} aria-hidden />, (p) => `Copy ${pathWords(p.id?.replace(/_copy$/, ''))}`),
    ClearButton: iconButton(<IconX size={16} aria-hidden />, () => 'Clear'),
    SubmitButton: () => null,
  },
};
