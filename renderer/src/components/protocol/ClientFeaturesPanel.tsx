// A server's "Client features": what the server may ask of Switchboard, each off until the person turns it on —
// questions (elicitation, with the remembered consent), sampling answered by hand, shared folders (roots) and
// running tools as tasks. Self-contained: give it a server id.
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconFolderPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { ClientFeaturesView, ElicitationConsent } from '../../../../shared/domains/protocol';
import { FEATURE_LABELS } from '../../../../shared/domains/protocol-text';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { selectFeatures } from '../../store/protocol-slice';
import { useAction } from '../../ui/use-action';
import { clientFeaturesIntro } from './client-features-intro';

const message = (err: unknown): string => (err instanceof AppError ? err.message : 'The change could not be saved');

function FeatureSwitch(props: {
  label: string;
  description: ReactNode;
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Switch
      label={props.label}
      description={props.description}
      checked={props.checked}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.currentTarget.checked)}
      size="md"
    />
  );
}

function RootsEditor({ view }: { view: ClientFeaturesView }) {
  const setRoots = useStore((s) => s.setRoots);
  const [path, setPath] = useState('');
  const [name, setName] = useState('');
  const { busy, error, setError, run } = useAction();
  const current = view.rootList.map((r) => ({ path: r.uri, ...(r.name ? { name: r.name } : {}) }));
  const save = (next: { path: string; name?: string }[]) => run(() => setRoots(view.serverId, next), 'The change could not be saved');
  return (
    <Stack gap="xs" pl={52}>
      {view.rootList.length > 0 ? (
        <Table withTableBorder fz="sm" data-testid="roots-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Folder</Table.Th>
              <Table.Th>Sent as</Table.Th>
              <Table.Th w={90}>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.rootList.map((r, i) => (
              <Table.Tr key={r.uri}>
                <Table.Td>
                  <Text fz="sm" fw={500}>
                    {r.name ?? r.path}
                  </Text>
                  {!r.exists && (
                    <Badge color="orange" variant="light" size="sm">
                      Folder not found
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text fz="xs" className="sb-mono" style={{ overflowWrap: 'anywhere' }} data-testid="root-uri">
                    {r.uri}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    variant="subtle"
                    color="red"
                    size="xs"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    aria-label={`Remove ${r.name ?? r.path}`}
                    disabled={busy}
                    onClick={() => void save(current.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Text fz="sm" className="sb-quiet">
          No folders shared yet.
        </Text>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (path.trim() === '') {
            setError('Enter the full path of a folder, for example /home/you/project');
            return;
          }
          const sentPath = path;
          const sentName = name;
          void save([...current, { path: path.trim(), ...(name.trim() ? { name: name.trim() } : {}) }]).then((ok) => {
            // Clear only what was sent: text typed while the save was under way stays.
            if (ok) {
              setPath((p) => (p === sentPath ? '' : p));
              setName((n) => (n === sentName ? '' : n));
            }
          });
        }}
      >
        <Group align="flex-start" gap="xs" wrap="wrap">
          <TextInput
            label="Folder path"
            placeholder="/home/you/project or file:///home/you/project"
            value={path}
            error={error}
            onChange={(e) => {
              setPath(e.currentTarget.value);
              setError(null);
            }}
            style={{ flex: 2, minWidth: 240 }}
          />
          <TextInput
            label="Name (optional)"
            placeholder="Project"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 140 }}
          />
          <Button type="submit" variant="default" mt={25} leftSection={<IconFolderPlus size={16} aria-hidden />} loading={busy}>
            Add folder
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

/** The client features of one server. */
export function ClientFeaturesPanel({ serverId }: { serverId: string }) {
  const view = useStore(selectFeatures(serverId));
  const load = useStore((s) => s.loadFeatures);
  const setFeatures = useStore((s) => s.setFeatures);
  const setConsent = useStore((s) => s.setConsent);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    void load(serverId).catch((err: unknown) => setFailure(message(err)));
  }, [serverId, load]);
  if (!view) return <Text className="sb-quiet">Loading…</Text>;

  const change = async (patch: Parameters<typeof setFeatures>[1]) => {
    setBusy(true);
    setFailure(null);
    try {
      await setFeatures(serverId, patch);
    } catch (err) {
      setFailure(message(err));
    } finally {
      setBusy(false);
    }
  };
  const modern = view.protocolVersion === '2026-07-28';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="client-features-title" data-testid="client-features">
      <Title order={2} fz="lg" id="client-features-title">
        Client features
      </Title>
      <Text fz="sm" className="sb-quiet" mb="md">
        {clientFeaturesIntro()}
      </Text>
      <Stack gap="lg">
        <Stack gap="xs">
          <FeatureSwitch
            label={FEATURE_LABELS.elicitation}
            description="The server may show you a form or ask you to open a link (elicitation)."
            checked={view.elicitation}
            disabled={busy}
            onChange={(on) => void change({ elicitation: on })}
          />
          {view.elicitation && (
            <Group gap="sm" pl={52} align="center">
              <Text fz="sm" id={`consent-${serverId}`}>
                Questions from this server
              </Text>
              <SegmentedControl
                size="xs"
                aria-labelledby={`consent-${serverId}`}
                value={view.elicitationConsent}
                onChange={(v) => void setConsent(serverId, v as ElicitationConsent).catch((err: unknown) => setFailure(message(err)))}
                data={[
                  { value: 'ask', label: 'Ask me first' },
                  { value: 'allow', label: 'Allowed' },
                  { value: 'deny', label: 'Not allowed' },
                ]}
              />
            </Group>
          )}
        </Stack>
        <FeatureSwitch
          label={FEATURE_LABELS.sampling}
          description="The server may ask for a language model's reply; you write it by hand in a dialog (sampling)."
          checked={view.sampling}
          disabled={busy}
          onChange={(on) => void change({ sampling: on })}
        />
        <Stack gap="xs">
          <FeatureSwitch
            label={FEATURE_LABELS.roots}
            description="The server may ask which folders you share with it; it is told when the list changes (roots)."
            checked={view.roots}
            disabled={busy}
            onChange={(on) => void change({ roots: on })}
          />
          {view.roots && <RootsEditor view={view} />}
        </Stack>
        <FeatureSwitch
          label={FEATURE_LABELS.tasks}
          description="Long tools run as tasks that Switchboard follows until they finish; the server's own requests may run as tasks too."
          checked={view.tasks}
          disabled={busy}
          onChange={(on) => void change({ tasks: on })}
        />
        {modern && (view.sampling || view.roots) && (
          <Alert color="blue" variant="light">
            This server is connected with protocol 2026-07-28, where servers no longer ask clients for sampling or roots the 2025-11-25 way;
            they apply on 2025-11-25 connections.
          </Alert>
        )}
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
