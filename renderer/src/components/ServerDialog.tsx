// Add or edit a server definition. The id follows the name until the person edits it; a whole command line pasted
// into Command is offered split into the program and its arguments (quotes respected); an address without a scheme
// gets https:// (http:// for this computer) suggested; a bearer token typed here, or an Authorization: Bearer
// header, goes to the credential store, never into the settings. Errors sit on their fields; the first one gets focus.
import {
  Accordion,
  ActionIcon,
  Alert,
  Box,
  Button,
  Checkbox,
  Code,
  Group,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconBulb, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useRef, useState } from 'react';
import type { ServerConfigView } from '../../../shared/contract';
import { isSensitiveHeaderName } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { looksLikeCommandLine, splitCommandLine } from '../lib/command-line';
import { deriveServerId } from '../lib/server-id';
import { suggestUrl } from '../lib/url-suggest';
import { routes } from '../router/route';
import { useStore } from '../store';
import { AppDialog } from '../ui/AppDialog';
import { DoctorWalkPanel } from './doctor/DoctorWalkPanel';
import { formWalkRequest } from './doctor/walk-request';
import { emptyModel, modelFromView, modelToInput, validateModel, type ServerFormModel } from './server-form-model';

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

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

  const split = useMemo(
    () => (m.type === 'stdio' && looksLikeCommandLine(m.command) ? splitCommandLine(m.command) : null),
    [m.type, m.command],
  );
  const urlSuggestion = m.type !== 'stdio' ? suggestUrl(m.url) : null;
  const authHeader = m.headers.findIndex((h) => h.key.trim().toLowerCase() === 'authorization');
  const authBearer = authHeader >= 0 ? BEARER.exec(m.headers[authHeader]?.value ?? '')?.[1] : undefined;

  const applySplit = (): void => {
    if (!split) return;
    const rest = m.args.split('\n').filter((l) => l.length > 0);
    patch({ command: split.command, args: [...split.args, ...rest].join('\n') });
  };
  const moveAuthToBearer = (): void => {
    if (authBearer === undefined) return;
    setBearer(authBearer);
    patch({ headers: m.headers.filter((_, i) => i !== authHeader) });
  };

  const submit = async () => {
    let model = m;
    let token = bearer.trim();
    // An Authorization: Bearer header typed by hand becomes the bearer token, like an imported one.
    if (!editing && authBearer !== undefined) {
      token = authBearer;
      model = { ...m, headers: m.headers.filter((_, i) => i !== authHeader) };
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
            <>
              <Box>
                <TextInput
                  label="Command"
                  required
                  description="The program to run. It is started directly, never through a shell."
                  value={m.command}
                  error={errors['command']}
                  onChange={(e) => patch({ command: e.currentTarget.value })}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  spellCheck={false}
                />
                {split && (
                  <Alert
                    color="blue"
                    variant="light"
                    mt="xs"
                    p="sm"
                    icon={<IconBulb size={18} aria-hidden />}
                    aria-label="Split the command line"
                    role="region"
                  >
                    <Stack gap={6}>
                      <Text size="sm">
                        This looks like a whole command line. Switchboard can split it: program <Code>{split.command}</Code> with{' '}
                        {split.args.length === 1 ? '1 argument' : `${split.args.length} arguments`}{' '}
                        {split.args.map((a, i) => (
                          <Code key={i} mr={4}>
                            {a === '' ? '""' : a}
                          </Code>
                        ))}
                      </Text>
                      {split.shellOperators.length > 0 && (
                        <Text size="sm" c="orange">
                          {split.shellOperators.join(' ')} would be passed to the program as text: Switchboard never runs a shell.
                        </Text>
                      )}
                      <Group>
                        <Button size="xs" variant="light" onClick={applySplit}>
                          Split into command and arguments
                        </Button>
                      </Group>
                    </Stack>
                  </Alert>
                )}
              </Box>
              <Textarea
                label="Arguments"
                description="One argument per line, exactly as the program receives it (no quotes needed)."
                rows={3}
                resize="vertical"
                value={m.args}
                error={errors['args']}
                onChange={(e) => patch({ args: e.currentTarget.value })}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                spellCheck={false}
              />
              <TextInput
                label="Working directory"
                value={m.cwd}
                error={errors['cwd']}
                onChange={(e) => patch({ cwd: e.currentTarget.value })}
              />
              <Box component="fieldset" style={{ border: 0, margin: 0, padding: 0 }}>
                <Text component="legend" fw={500} size="sm" mb={6}>
                  Environment
                </Text>
                <Stack gap="xs">
                  {m.env.map((row, i) => (
                    <Group key={i} gap="xs" wrap="nowrap" align="center">
                      <TextInput
                        aria-label={`Environment name ${i + 1}`}
                        placeholder="NAME"
                        value={row.key}
                        onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, key: e.currentTarget.value } : r)) })}
                        style={{ flex: '0 1 200px' }}
                        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                      />
                      {row.secret ? (
                        <PasswordInput
                          aria-label={`Environment value ${i + 1}`}
                          placeholder={row.isSet ? '(stored — leave empty to keep)' : 'value'}
                          value={row.value}
                          onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, value: e.currentTarget.value } : r)) })}
                          style={{ flex: 1 }}
                        />
                      ) : (
                        <TextInput
                          aria-label={`Environment value ${i + 1}`}
                          placeholder="value"
                          value={row.value}
                          onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, value: e.currentTarget.value } : r)) })}
                          style={{ flex: 1 }}
                        />
                      )}
                      <Checkbox
                        label="Secret"
                        checked={row.secret}
                        onChange={(e) => patch({ env: m.env.map((r, j) => (j === i ? { ...r, secret: e.currentTarget.checked } : r)) })}
                      />
                      <ActionIcon
                        size="lg"
                        color="red"
                        aria-label={`Remove environment variable ${i + 1}`}
                        onClick={() => patch({ env: m.env.filter((_, j) => j !== i) })}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Group>
                  ))}
                  {errors['env'] && (
                    <Text size="sm" c="red" role="alert">
                      {errors['env']}
                    </Text>
                  )}
                  <Group gap="md">
                    <Button
                      size="xs"
                      leftSection={<IconPlus size={14} aria-hidden />}
                      onClick={() => patch({ env: [...m.env, { key: '', value: '', secret: false, isSet: false }] })}
                    >
                      Add variable
                    </Button>
                    <Checkbox
                      label="Inherit the whole environment of Switchboard"
                      checked={m.inheritEnv}
                      onChange={(e) => patch({ inheritEnv: e.currentTarget.checked })}
                    />
                  </Group>
                </Stack>
              </Box>
            </>
          ) : (
            <>
              <Box>
                <TextInput
                  label="URL"
                  required
                  type="url"
                  value={m.url}
                  error={errors['url']}
                  onChange={(e) => patch({ url: e.currentTarget.value })}
                  styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                  spellCheck={false}
                  placeholder="https://example.com/mcp"
                />
                {urlSuggestion && (
                  <Group gap="xs" mt={6}>
                    <Text size="sm" c="dimmed">
                      The address needs a scheme.
                    </Text>
                    <Button size="xs" variant="light" onClick={() => patch({ url: urlSuggestion })}>
                      Use {urlSuggestion}
                    </Button>
                  </Group>
                )}
              </Box>
              {!editing ? (
                <PasswordInput
                  label="Bearer token (optional)"
                  description="Sent as Authorization: Bearer …; kept in the credential store, never in the settings file."
                  value={bearer}
                  error={errors['bearer']}
                  onChange={(e) => setBearer(e.currentTarget.value.replace(/^\s*bearer\s+/i, ''))}
                  autoComplete="off"
                />
              ) : (
                <Text size="sm" c="dimmed">
                  The bearer token and other sign-in settings are in the server’s Sign-in tab.
                </Text>
              )}
              <Box component="fieldset" style={{ border: 0, margin: 0, padding: 0 }}>
                <Text component="legend" fw={500} size="sm" mb={6}>
                  Headers
                </Text>
                <Stack gap="xs">
                  {m.headers.map((h, i) => {
                    // Credential-like names (X-Api-Key, *-Token, …) are always kept secret by the core.
                    const forced = isSensitiveHeaderName(h.key.trim());
                    const secret = h.secret || forced;
                    const setValue = (value: string) => patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, value } : x)) });
                    return (
                      <Group key={i} gap="xs" wrap="nowrap">
                        <TextInput
                          aria-label={`Header name ${i + 1}`}
                          placeholder="X-Header"
                          value={h.key}
                          onChange={(e) =>
                            patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, key: e.currentTarget.value } : x)) })
                          }
                          style={{ flex: '0 1 220px' }}
                        />
                        {secret ? (
                          <PasswordInput
                            aria-label={`Header value ${i + 1}`}
                            placeholder={h.isSet ? '(stored — leave empty to keep)' : 'value'}
                            value={h.value}
                            onChange={(e) => setValue(e.currentTarget.value)}
                            style={{ flex: 1 }}
                          />
                        ) : (
                          <TextInput
                            aria-label={`Header value ${i + 1}`}
                            value={h.value}
                            onChange={(e) => setValue(e.currentTarget.value)}
                            style={{ flex: 1 }}
                          />
                        )}
                        <Checkbox
                          label="Secret"
                          aria-label={`Header ${i + 1} is secret`}
                          title={forced ? 'Headers with credential-like names are always kept in the credential store' : undefined}
                          checked={secret}
                          disabled={forced}
                          onChange={(e) =>
                            patch({ headers: m.headers.map((x, j) => (j === i ? { ...x, secret: e.currentTarget.checked } : x)) })
                          }
                        />
                        <ActionIcon
                          size="lg"
                          color="red"
                          aria-label={`Remove header ${i + 1}`}
                          onClick={() => patch({ headers: m.headers.filter((_, j) => j !== i) })}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    );
                  })}
                  {authHeader >= 0 && (
                    <Alert color="blue" variant="light" p="sm">
                      <Stack gap={6}>
                        <Text size="sm">
                          Switchboard sets the Authorization header itself.{' '}
                          {authBearer !== undefined
                            ? editing
                              ? 'Set this token in the Sign-in tab instead.'
                              : 'This Bearer token will be kept in the credential store as the server’s bearer token.'
                            : 'Only a Bearer token can be used; set other credentials in the Sign-in tab.'}
                        </Text>
                        {authBearer !== undefined && !editing && (
                          <Group>
                            <Button size="xs" variant="light" onClick={moveAuthToBearer}>
                              Move it to the bearer token field
                            </Button>
                          </Group>
                        )}
                      </Stack>
                    </Alert>
                  )}
                  {errors['headers'] && (
                    <Text size="sm" c="red" role="alert">
                      {errors['headers']}
                    </Text>
                  )}
                  <Group gap="md">
                    <Button
                      size="xs"
                      leftSection={<IconPlus size={14} aria-hidden />}
                      onClick={() => patch({ headers: [...m.headers, { key: '', value: '', secret: false, isSet: false }] })}
                    >
                      Add header
                    </Button>
                    <Checkbox
                      label="Allow plain http to a non-loopback host"
                      checked={m.allowInsecureHttp}
                      onChange={(e) => patch({ allowInsecureHttp: e.currentTarget.checked })}
                    />
                  </Group>
                </Stack>
              </Box>
            </>
          )}
          <Accordion variant="contained" chevronPosition="left">
            <Accordion.Item value="policy">
              <Accordion.Control>Connection policy</Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                    <NativeSelect
                      label="Lifecycle"
                      value={m.lifecycle}
                      onChange={(e) => patch({ lifecycle: e.currentTarget.value as ServerFormModel['lifecycle'] })}
                      data={[
                        { value: 'auto', label: 'auto (probe, then fall back)' },
                        { value: 'discover', label: 'discover (2026-07-28 only)' },
                        { value: 'initialize', label: 'initialize (legacy handshake)' },
                      ]}
                    />
                    <NativeSelect
                      label="Startup"
                      value={m.startup}
                      onChange={(e) => patch({ startup: e.currentTarget.value as ServerFormModel['startup'] })}
                      data={['eager', 'background', 'manual']}
                    />
                    <NativeSelect
                      label="Concurrency"
                      value={m.concurrency}
                      onChange={(e) => patch({ concurrency: e.currentTarget.value as ServerFormModel['concurrency'] })}
                      data={[
                        { value: 'serial', label: 'serial' },
                        { value: 'readOnlyParallel', label: 'read-only calls in parallel' },
                        { value: 'parallel', label: 'parallel' },
                      ]}
                    />
                  </SimpleGrid>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                    <Checkbox label="Enabled" checked={m.enabled} onChange={(e) => patch({ enabled: e.currentTarget.checked })} />
                    <Checkbox
                      label="Required at start-up"
                      checked={m.required}
                      onChange={(e) => patch({ required: e.currentTarget.checked })}
                    />
                    <Checkbox
                      label="Allow elicitation requests"
                      checked={m.elicitation}
                      onChange={(e) => patch({ elicitation: e.currentTarget.checked })}
                    />
                    <Checkbox label="Resources" checked={m.resources} onChange={(e) => patch({ resources: e.currentTarget.checked })} />
                    <Checkbox label="Tasks extension" checked={m.tasks} onChange={(e) => patch({ tasks: e.currentTarget.checked })} />
                  </SimpleGrid>
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
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
