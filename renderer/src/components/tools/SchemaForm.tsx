// A form generated from a tool's inputSchema (@rjsf/core drawn with the app's Mantine templates), with a raw-JSON
// view kept in sync. Arguments are validated before they are sent, with human messages and focus on the first
// invalid field; a schema the form library cannot handle falls back to raw JSON with a notice.
import { Alert, Button, Group, Stack, Tabs, Text, Textarea } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import Form from '@rjsf/core';
import type { RJSFSchema, RJSFValidationError } from '@rjsf/utils';
import { Component, useMemo, useState, type ReactNode } from 'react';
import { templates } from '../../forms/templates';
import { widgets } from '../../forms/widgets';
import { humanMessage } from '../../lib/validation-messages';
import { cspValidator as validator } from './csp-validator';
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

function humanize(schema: JsonSchema) {
  return (errors: RJSFValidationError[]): RJSFValidationError[] =>
    errors.map((e) => {
      const message = humanMessage(e, schema);
      return { ...e, message, stack: message };
    });
}

function validateArgs(schema: JsonSchema, value: Args): string[] {
  try {
    const { errors } = validator.validateFormData(value, schema as RJSFSchema);
    return errors.map((e) => humanMessage(e, schema));
  } catch (err) {
    return [`The schema could not be checked: ${err instanceof Error ? err.message : 'unknown error'}`];
  }
}

function hasFields(schema: JsonSchema): boolean {
  const props = schema['properties'];
  return (
    (typeof props === 'object' && props !== null && Object.keys(props).length > 0) ||
    schema['additionalProperties'] !== undefined ||
    schema['oneOf'] !== undefined ||
    schema['anyOf'] !== undefined ||
    schema['allOf'] !== undefined
  );
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
  /** Called when the arguments did not validate (the caller clears a stale result). */
  onInvalid?: () => void;
  /** The submit button's text (default "Call"). */
  submitLabel?: string;
  /** The note shown when the schema has no fields (default: the tool takes no arguments). */
  emptyNote?: string;
}

/** The generated form and its raw-JSON twin, with the Call button. */
export function SchemaForm({
  inputSchema,
  initial,
  busy,
  onCall,
  onInvalid,
  submitLabel = 'Call',
  emptyNote = 'This tool takes no arguments.',
}: SchemaFormProps) {
  const prepared = useMemo(() => prepareSchema(inputSchema), [inputSchema]);
  const transformErrors = useMemo(() => humanize(prepared.schema), [prepared.schema]);
  const [formError, setFormError] = useState<string | null>(prepared.formable ? null : 'This schema cannot be shown as a form.');
  const [mode, setMode] = useState<'form' | 'json'>(prepared.formable ? 'form' : 'json');
  const [value, setValue] = useState<Args>(initial ?? {});
  const [raw, setRaw] = useState<string>(JSON.stringify(initial ?? {}, null, 2));
  const [rawError, setRawError] = useState<string | null>(null);
  const [jsonErrors, setJsonErrors] = useState<string[]>([]);
  const [formKey, setFormKey] = useState(0);
  const empty = !hasFields(prepared.schema);

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
        setRawError('The arguments must be a JSON object ({ … }).');
        return;
      }
      setRawError(null);
      setValue(parsed as Args);
    } catch {
      setRawError('This is not valid JSON yet.');
    }
  };

  const sendRaw = (): void => {
    if (rawError) {
      onInvalid?.();
      return;
    }
    const errors = validateArgs(prepared.schema, value);
    setJsonErrors(errors);
    if (errors.length === 0) onCall(value);
    else onInvalid?.();
  };

  const callButton = (type: 'submit' | 'button', onClick?: () => void) => (
    <Group gap="sm">
      <Button
        type={type}
        variant="filled"
        loading={busy}
        disabled={busy}
        leftSection={<IconPlayerPlay size={16} aria-hidden />}
        {...(onClick ? { onClick } : {})}
      >
        {submitLabel}
      </Button>
    </Group>
  );

  const showForm = mode === 'form' && formError === null;
  return (
    <Stack gap="sm" className="sb-schema-form">
      {prepared.notices.map((n) => (
        <Text key={n} size="sm" c="dimmed" role="note">
          {n}
        </Text>
      ))}
      {formError && (
        <Alert color="yellow" variant="light" data-testid="form-fallback" p="xs">
          The form could not be built ({formError}); edit the arguments as JSON instead.
        </Alert>
      )}
      <Tabs value={showForm ? 'form' : 'json'} onChange={(v) => v && switchTo(v as 'form' | 'json')} keepMounted={false}>
        <Tabs.List aria-label="Argument editor" mb="sm" style={{ width: 'fit-content' }}>
          <Tabs.Tab value="form" disabled={formError !== null}>
            Form
          </Tabs.Tab>
          <Tabs.Tab value="json">JSON</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="form">
          {showForm && (
            <FormBoundary onError={(m) => (setFormError(m), setMode('json'), setRaw(JSON.stringify(value, null, 2)))}>
              <Form
                key={formKey}
                schema={prepared.schema as RJSFSchema}
                validator={validator}
                templates={templates}
                widgets={widgets}
                formData={value}
                showErrorList={false}
                noHtml5Validate
                focusOnFirstError
                transformErrors={transformErrors}
                onChange={(e) => setValue((e.formData ?? {}) as Args)}
                onError={() => onInvalid?.()}
                onSubmit={(e) => onCall((e.formData ?? {}) as Args)}
              >
                {empty && (
                  <Text size="sm" c="dimmed" mb="sm">
                    {emptyNote}
                  </Text>
                )}
                <div style={{ marginTop: 'var(--mantine-spacing-sm)' }}>{callButton('submit')}</div>
              </Form>
            </FormBoundary>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="json">
          <Stack gap="sm">
            <Textarea
              label="Arguments (JSON)"
              rows={6}
              resize="vertical"
              value={raw}
              onChange={(e) => onRaw(e.currentTarget.value)}
              spellCheck={false}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              error={rawError ?? undefined}
            />
            {jsonErrors.length > 0 && (
              <Alert color="red" variant="light" p="xs" aria-label="Argument errors">
                <Stack gap={2}>
                  {jsonErrors.map((e) => (
                    <Text key={e} size="sm">
                      {e}
                    </Text>
                  ))}
                </Stack>
              </Alert>
            )}
            {callButton('button', sendRaw)}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
