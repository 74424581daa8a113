// Add or edit a server definition: the dialog's shell (name, id, transport, policy, the connection walk, saving).
// The id follows the name until the person edits it. Each transport's fields are a section of their own
// (servers/StdioFields, servers/RemoteFields for Streamable HTTP and SSE alike). A bearer token typed here, or an
// Authorization: Bearer header, goes to the credential store, never into the settings. Errors sit on their fields;
// the first one gets focus.
import { Alert, Button, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import type { ServerConfigView } from '../../../../shared/contract';
import { AppError } from '../../../../shared/errors';
import { deriveServerId } from '../../lib/server-id';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { claimFocusAfterDialog } from '../../ui/focus';
import { DoctorWalkPanel } from '../doctor/DoctorWalkPanel';
import { formWalkRequest } from '../doctor/walk-request';
import { emptyModel, modelFromView, modelToInput, validateModel, type ServerFormModel } from './server-form-model';
import { ConnectionPolicy } from './ConnectionPolicy';
import { authorizationHeader } from './form-section';
import { RemoteFields } from './RemoteFields';
import { serverPageFocusTarget } from './server-focus';
import { StdioFields } from './StdioFields';

/** The add/edit dialog. */
export function ServerDialog(props: { existing?: ServerConfigView }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const addServer = useStore((s) => s.addServer);
  const updateServer = useStore((s) => s.updateServer);
  const navigate = useStore((s) => s.navigate);
  const openDialog = useStore((s) => s.openDialog);
  const taken = useStore((s) => s.serverIds);
  const editing = props.existing !== undefined;
  const [m, setM] = useState<ServerFormModel>(() => (props.existing ? modelFromView(props.existing) : emptyModel()));
  const [idTouched, setIdTouched] = useState(editing);
  const [bearer, setBearer] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const patch = (p: Partial<ServerFormModel>) => setM((prev) => ({ ...prev, ...p }));

  const submit = async () => {
    let model = m;
    let token = bearer.trim();
    // An Authorization: Bearer header typed by hand becomes the bearer token, like an imported one.
    const auth = authorizationHeader(m.headers);
    if (!editing && auth.bearer !== undefined) {
      token = auth.bearer;
      model = { ...m, headers: m.headers.filter((_, i) => i !== auth.index) };
    }
    const found = validateModel(model, props.existing);
    if (!editing && model.type !== 'stdio' && /\s/.test(token)) found['bearer'] = 'A bearer token has no spaces or line breaks';
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setTimeout(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    setBusy(true);
    setSubmitError(null);
    try {
      const input = modelToInput(model, props.existing);
      const detail = editing
        ? await updateServer(model.id, input)
        : await addServer(input, model.type !== 'stdio' && token !== '' ? token : undefined);
      // A new server's next step is its approval panel (or its page when it needs none), not the Add button again.
      if (!editing) claimFocusAfterDialog(() => serverPageFocusTarget(detail.id));
      closeDialog();
      navigate(routes.servers(detail.id));
    } catch (err) {
      setSubmitError(err instanceof AppError ? err.message : 'The server could not be saved');
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      opened
      onClose={closeDialog}
      size="xl"
      title={editing ? `Edit ${props.existing?.name}` : 'Add server'}
      actions={
        <>
          <Button onClick={closeDialog}>Cancel</Button>
          <Button type="submit" form="server-form" variant="filled" loading={busy}>
            {editing ? 'Save' : 'Add server'}
          </Button>
        </>
      }
    >
      <form
        id="server-form"
        ref={form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          {!editing && (
            <Text size="sm" c="dimmed">
              Have an install link, a server.json or an mcp.json snippet?{' '}
              <Button variant="subtle" size="compact-sm" onClick={() => openDialog({ kind: 'installPaste' })}>
                Paste it instead
              </Button>
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label="Name"
              required
              data-autofocus
              value={m.name}
              error={errors['name']}
              onChange={(e) => {
                const name = e.currentTarget.value;
                patch(idTouched ? { name } : { name, id: name.trim() ? deriveServerId(name, taken) : '' });
              }}
            />
            <TextInput
              label="Id"
              required
              // The hint goes under the box, so the Name and Id boxes line up side by side.
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              value={m.id}
              disabled={editing}
              error={errors['id']}
              description={
                editing
                  ? 'An id cannot be changed.'
                  : idTouched
                    ? 'Lowercase letters, digits, - and _.'
                    : 'Derived from the name; used in tool names.'
              }
              onChange={(e) => {
                setIdTouched(true);
                patch({ id: e.currentTarget.value });
              }}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
          </SimpleGrid>
          <NativeSelect
            label="Transport"
            value={m.type}
            error={errors['type']}
            onChange={(e) => patch({ type: e.currentTarget.value as ServerFormModel['type'] })}
            data={[
              { value: 'stdio', label: 'stdio (a program on this computer)' },
              { value: 'http', label: 'Streamable HTTP' },
              { value: 'sse', label: 'Legacy HTTP+SSE' },
            ]}
          />
          {m.type === 'stdio' ? (
            <StdioFields model={m} patch={patch} errors={errors} />
          ) : (
            <RemoteFields model={m} patch={patch} errors={errors} editing={editing} bearer={bearer} setBearer={setBearer} />
          )}
          <ConnectionPolicy model={m} patch={patch} />
          <DoctorWalkPanel walkKey="server-dialog" request={() => formWalkRequest(m, props.existing)} />
          {submitError && (
            <Alert color="red" variant="light" role="alert" p="sm">
              {submitError}
            </Alert>
          )}
        </Stack>
      </form>
    </AppDialog>
  );
}
