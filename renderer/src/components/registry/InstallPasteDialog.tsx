// Pasting a switchboard:// install link, a server.json or an mcp.json / Claude / Cursor snippet (and links the OS
// handed to the app): a preview of each definition, its exact launch, and how it differs from an existing server.
// Nothing is added, replaced, approved or connected until the person picks an action here.
import { Alert, Badge, Button, Card, Group, List, PasswordInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { ServerConfigInput } from '../../../../shared/config';
import type { InstallCandidate, InstallPreview } from '../../../../shared/domains/registry';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';
import { AppError } from '../../../../shared/errors';
import { routes } from '../../router/route';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { LaunchPreview } from './LaunchPreview';

const KIND_LABEL: Record<InstallPreview['kind'], string> = {
  link: 'Install link',
  'server.json': 'server.json',
  config: 'MCP configuration',
};

/** The definition with the secrets the person typed filled in. */
function withSecrets(config: ServerConfigInput, secrets: Record<string, string>): ServerConfigInput {
  const t = config.transport;
  if (t.type !== 'stdio') return config;
  const env = { ...(t.env ?? {}) };
  for (const [key, value] of Object.entries(secrets)) if (value !== '') env[key] = { secret: true, value };
  return { ...config, transport: { ...t, env } };
}

function Candidate({ candidate }: { candidate: InstallCandidate }) {
  const addServer = useStore((s) => s.addServer);
  const updateServer = useStore((s) => s.updateServer);
  const openDialog = useStore((s) => s.openDialog);
  const closeDialog = useStore((s) => s.closeDialog);
  const navigate = useStore((s) => s.navigate);
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const config = candidate.config;
  const existing = candidate.existing;
  const missingSecret = candidate.secretPrompts.some((p) => (secrets[p.envKey] ?? '') === '');
  const save = async (replace: boolean) => {
    if (!config) return;
    setBusy(true);
    setError(null);
    try {
      const filled = withSecrets(config, secrets);
      const detail = replace && existing ? await updateServer(existing.id, { ...filled, id: existing.id }) : await addServer(filled);
      closeDialog();
      navigate(routes.servers(detail.id));
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The server could not be saved');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" component="article" aria-label={`Definition ${candidate.key}`}>
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={3} fz="md">
            {escapeUnsafe(candidate.prepared?.entry.title ?? candidate.key)}
          </Title>
          {candidate.prepared && (
            <Badge variant="default" tt="none">
              v{escapeUnsafe(candidate.prepared.entry.version)}
            </Badge>
          )}
          {config && (
            <Badge variant="default" tt="none">
              {config.transport.type}
            </Badge>
          )}
        </Group>
        {candidate.prepared && (
          <Text ff="monospace" fz="xs" c="dimmed">
            {escapeUnsafe(candidate.prepared.entry.name)}
            {candidate.prepared.origin.source !== 'pasted' ? ` · from ${escapeUnsafe(candidate.prepared.origin.source)}` : ''}
          </Text>
        )}
        {candidate.problems.length > 0 && (
          <Alert color={candidate.prepared ? 'yellow' : 'red'} icon={<IconAlertTriangle size={18} aria-hidden />}>
            <Stack gap={2}>
              {candidate.problems.map((p, i) => (
                <Text key={i} fz="sm">
                  {escapeUnsafe(p)}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}
        {existing && (
          <Alert
            color={existing.differs ? 'orange' : 'blue'}
            title={
              existing.differs
                ? `A server “${existing.id}” already exists and differs`
                : `This is the same as the existing server “${existing.id}”`
            }
            role="status"
          >
            {existing.differs && (
              <List size="sm" spacing={2}>
                {existing.changes.map((c, i) => (
                  <List.Item key={i}>{escapeUnsafe(c)}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
        {config && <LaunchPreview config={config} />}
        {candidate.prepared && candidate.prepared.missing.length > 0 && (
          <Text fz="sm">
            To fill in when installing:{' '}
            {candidate.prepared.missing
              .map((k) => escapeUnsafe(candidate.prepared?.inputs.find((i) => i.key === k)?.label ?? k))
              .join(', ')}
          </Text>
        )}
        {candidate.prepared?.warnings.map((w, i) => (
          <Text key={i} fz="sm" c="yellow.8">
            {escapeUnsafe(w)}
          </Text>
        ))}
        {candidate.secretPrompts.map((p) => (
          <PasswordInput
            key={p.envKey}
            label={p.envKey}
            description={`${escapeUnsafe(p.description)} · Kept in the credential store`}
            required
            value={secrets[p.envKey] ?? ''}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setSecrets((cur) => ({ ...cur, [p.envKey]: value }));
            }}
            autoComplete="off"
          />
        ))}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {confirming && existing ? (
          <Alert color="red" title={`Replace “${existing.id}”?`} role="alertdialog">
            <Stack gap="xs">
              <Text fz="sm">Its definition is replaced by this one; a changed command must be approved again before it runs.</Text>
              <Group gap="sm">
                <Button onClick={() => setConfirming(false)}>Keep the existing one</Button>
                <Button color="red" variant="filled" loading={busy} onClick={() => void save(true)}>
                  Replace {existing.id}
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : (
          <Group gap="sm">
            {candidate.prepared && candidate.target ? (
              <Button
                variant="filled"
                onClick={() =>
                  openDialog({
                    kind: 'install',
                    target: candidate.target!,
                    title: escapeUnsafe(candidate.prepared?.entry.title ?? candidate.key),
                  })
                }
              >
                Continue to install
              </Button>
            ) : config && candidate.problems.length === 0 ? (
              <>
                <Button variant="filled" loading={busy} disabled={missingSecret} onClick={() => void save(false)}>
                  {existing ? `Add as a new server (${config.id})` : 'Add server'}
                </Button>
                {existing?.differs && (
                  <Button color="red" onClick={() => setConfirming(true)}>
                    Replace {existing.id}…
                  </Button>
                )}
              </>
            ) : null}
          </Group>
        )}
      </Stack>
    </Card>
  );
}

/** The paste / install-link dialog. */
export function InstallPasteDialog({ text: initial }: { text?: string }) {
  const closeDialog = useStore((s) => s.closeDialog);
  const parseInstallText = useStore((s) => s.parseInstallText);
  const [text, setText] = useState(initial ?? '');
  const [preview, setPreview] = useState<InstallPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (value: string) => {
    setBusy(true);
    setError(null);
    setPreview(null);
    try {
      setPreview(await parseInstallText(value));
    } catch (err) {
      setError(err instanceof AppError ? err.message : 'The text could not be read');
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => {
    if (initial !== undefined && initial !== '') void run(initial);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a received link is previewed once, on open
  }, []);
  return (
    <AppDialog
      opened
      onClose={closeDialog}
      title={initial ? 'Install link received' : 'Add from a link or definition'}
      size="xl"
      actions={<Button onClick={closeDialog}>Close</Button>}
    >
      <Stack gap="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void run(text);
          }}
        >
          <Stack gap="sm">
            <Textarea
              label="Link or definition"
              description="A switchboard://install link, a server.json, or an mcp.json / Claude Desktop / Cursor / VS Code snippet. Nothing is added until you choose."
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              autosize
              minRows={3}
              maxRows={10}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              spellCheck={false}
              data-autofocus
            />
            <Group>
              <Button type="submit" loading={busy} disabled={text.trim() === ''}>
                Preview
              </Button>
            </Group>
          </Stack>
        </form>
        {error && (
          <Alert color="red" role="alert" title="Not accepted">
            {escapeUnsafe(error)}
          </Alert>
        )}
        {preview && (
          <Stack gap="sm" aria-label="Preview">
            <Text fz="sm" c="dimmed" role="status">
              {KIND_LABEL[preview.kind]}: {preview.candidates.length === 1 ? 'one definition' : `${preview.candidates.length} definitions`}
            </Text>
            {preview.candidates.map((c, i) => (
              <Candidate key={`${c.key}-${i}`} candidate={c} />
            ))}
          </Stack>
        )}
      </Stack>
    </AppDialog>
  );
}
