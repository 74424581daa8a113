// The Gateway view (#/gateway): turn the gateway on or off and see its URL; the clients with their profiles,
// last activity and live sessions; add, edit, re-issue a token, remove; set-up help per app; recent activity.
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Menu,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconDots, IconPlus } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import type { GatewayActivity, GatewayClientView, GatewayTokenLoss } from '../../../../shared/domains/gateway';
import { useStore } from '../../store';
import { AppDialog } from '../../ui/AppDialog';
import { countLabel } from '../../ui/count';
import { ClientDialog } from './ClientDialog';
import { ago, modeLabel, seesLabel, writesLabel } from './format';
import { SetupDialog } from './SetupDialog';
import { TokenDialog } from './TokenDialog';
import './gateway.css';

/** How often the view asks again how many sessions are live. */
const LIVE_REFRESH_MS = 15_000;

type Open = { kind: 'none' } | { kind: 'add' } | { kind: 'edit' | 'setup' | 'remove'; client: GatewayClientView };

function StatusCard() {
  const status = useStore((s) => s.gatewayStatus);
  const busy = useStore((s) => s.gatewayBusy);
  const error = useStore((s) => s.gatewayError);
  const setEnabled = useStore((s) => s.setGatewayEnabled);
  const on = status?.enabled === true;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Switch
            size="md"
            label={on ? 'The gateway is on' : 'The gateway is off'}
            checked={on}
            disabled={busy || status === null}
            onChange={(e) => void setEnabled(e.currentTarget.checked)}
          />
          {status?.running && (
            <Text size="sm" c="dimmed">
              {countLabel(status.sessions, 'live session')} · {countLabel(status.clients, 'client')}
            </Text>
          )}
        </Group>
        {status?.running && status.url && (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500}>
              URL
            </Text>
            <Code className="sb-gw-wrap" aria-label="Gateway URL">
              {status.url}
            </Code>
            <CopyButton value={status.url}>
              {({ copied, copy }) => (
                <Tooltip label={copied ? 'Copied' : 'Copy the URL'}>
                  <ActionIcon variant="subtle" onClick={copy} aria-label="Copy the URL">
                    {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                  </ActionIcon>
                </Tooltip>
              )}
            </CopyButton>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          {on
            ? 'Other apps reach the servers they may use through it, on this computer only (127.0.0.1), each with its own token.'
            : 'Off: no other app can reach your servers through Switchboard. Turn it on to serve them to the clients below.'}
        </Text>
        {status?.error && (
          <Alert color="red" role="alert" title="The gateway could not start">
            {status.error}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

/** What the row says about a lost token: why it is gone and what still works. */
function tokenLostText(loss: GatewayTokenLoss): string {
  const rest = 'Apps using it over HTTP are refused until you issue a new token (the stdio entry point still works).';
  if (loss === 'not-kept') return `Its token was lost when Switchboard restarted (secrets are kept in memory only). ${rest}`;
  if (loss === 'unreadable') return `Its token could not be read from the credential store. ${rest}`;
  return `Its token is no longer in the credential store. ${rest}`;
}

function ClientRow({ client, onOpen }: { client: GatewayClientView; onOpen: (o: Open) => void }) {
  const rotate = useStore((s) => s.rotateGatewayToken);
  return (
    <Table.Tr>
      <Table.Th scope="row">
        <Text fw={600}>{client.name}</Text>
        {client.tokenLost !== undefined && (
          <Stack gap={4} align="flex-start" data-testid="gateway-token-lost">
            <Text size="xs" c="red" role="status">
              {tokenLostText(client.tokenLost)}
            </Text>
            <Button size="compact-xs" variant="light" color="red" onClick={() => void rotate(client.id)}>
              Issue a new token
            </Button>
          </Stack>
        )}
        {client.missing.length > 0 && (
          <Text size="xs" c="red">
            Names removed servers: {client.missing.join(', ')}
          </Text>
        )}
      </Table.Th>
      <Table.Td>
        <Text size="sm">{seesLabel(client.profile)}</Text>
        <Text size="xs" c="dimmed">
          {modeLabel(client.profile)} · {writesLabel(client.profile)}
        </Text>
      </Table.Td>
      <Table.Td>
        {client.lastActivity ? (
          <>
            <Text size="sm">{client.lastActivity.summary}</Text>
            <Text size="xs" c="dimmed">
              {ago(client.lastActivity.at)}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            Never connected
          </Text>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Group gap={6} wrap="nowrap">
          <Badge
            variant={client.sessions > 0 ? 'light' : 'default'}
            color={client.sessions > 0 ? 'green' : 'gray'}
            style={{ flex: 'none' }}
            styles={{ label: { overflow: 'visible' } }}
          >
            {countLabel(client.sessions, 'session')}
          </Badge>
          {client.runningCalls > 0 && <Badge variant="light">{countLabel(client.runningCalls, 'call')} running</Badge>}
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button size="xs" variant="default" onClick={() => onOpen({ kind: 'setup', client })}>
            Use from another app
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`More actions for ${client.name}`}>
                <IconDots size={18} aria-hidden />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => onOpen({ kind: 'edit', client })}>Edit…</Menu.Item>
              <Menu.Item onClick={() => void rotate(client.id)}>Issue a new token</Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" onClick={() => onOpen({ kind: 'remove', client })}>
                Remove…
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function RemoveDialog({ client, onClose }: { client: GatewayClientView; onClose: () => void }) {
  const remove = useStore((s) => s.removeGatewayClient);
  const [error, setError] = useState<string | null>(null);
  return (
    <AppDialog
      opened
      onClose={onClose}
      title={`Remove ${client.name}?`}
      actions={
        <>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            variant="filled"
            color="red"
            onClick={() =>
              void remove(client.id).then((r) => {
                if (r.ok) onClose();
                else setError(r.error);
              })
            }
          >
            Remove
          </Button>
        </>
      }
    >
      <Text className="sb-gw">
        Its token stops working at once and its sessions close. Apps set up with it can no longer reach your servers.
      </Text>
      {error && (
        <Alert color="red" role="alert" mt="sm">
          {error}
        </Alert>
      )}
    </AppDialog>
  );
}

function ActivityList({ entries }: { entries: GatewayActivity[] }) {
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Nothing yet.
      </Text>
    );
  return (
    <Stack gap={4} component="ol" p={0} m={0} aria-label="Recent gateway activity" className="sb-gw-list">
      {entries.slice(0, 50).map((a) => (
        <Group key={a.seq} gap="sm" wrap="nowrap" component="li" align="baseline">
          <Text size="xs" c="dimmed" w={90} ta="right">
            {new Date(a.at).toLocaleTimeString()}
          </Text>
          <Text size="sm" fw={600}>
            {a.clientName}
          </Text>
          <Text size="sm" className="sb-gw-wrap">
            {a.message}
          </Text>
          {a.status && a.status !== 'ok' && (
            <Badge size="sm" color={a.status === 'cancelled' ? 'gray' : 'red'} variant="light">
              {a.status}
            </Badge>
          )}
          {a.kind === 'denied' && (
            <Badge size="sm" color="red" variant="light">
              refused
            </Badge>
          )}
        </Group>
      ))}
    </Stack>
  );
}

/** The Gateway view. */
export function GatewayView() {
  const load = useStore((s) => s.loadGateway);
  const refreshLive = useStore((s) => s.refreshGatewayLive);
  const loadServers = useStore((s) => s.loadServers);
  const clients = useStore((s) => s.gatewayClients);
  const activity = useStore((s) => s.gatewayActivity);
  const [open, setOpen] = useState<Open>({ kind: 'none' });
  useEffect(() => {
    void load();
    void loadServers();
  }, [load, loadServers]);
  // Sessions leave the live count when their client hangs up or goes idle, which no event announces: look again now and then.
  useEffect(() => {
    const timer = setInterval(() => void refreshLive(), LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshLive]);
  const close = (): void => setOpen({ kind: 'none' });
  return (
    <Stack gap="lg" maw={1100} className="sb-gw">
      <Stack gap={4}>
        <Title order={1} size="h2">
          Gateway
        </Title>
        <Text c="dimmed">
          Serve the servers you set up here to your other MCP apps — Claude Desktop, Cursor, VS Code, an agent in a terminal — through the
          connections and sign-ins Switchboard already has. Their tokens and secrets never leave Switchboard.{' '}
          <Anchor href="#/history" underline="always">
            Their calls appear in the history.
          </Anchor>
        </Text>
      </Stack>
      <StatusCard />
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            Clients
          </Title>
          <Button variant="filled" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setOpen({ kind: 'add' })}>
            Add client
          </Button>
        </Group>
        {clients.length === 0 ? (
          <Paper withBorder p="lg">
            <Text c="dimmed">
              No clients yet. Add one for each app that should use your servers through Switchboard; each gets its own token and profile.
            </Text>
          </Paper>
        ) : (
          <div className="sb-gw-table-wrap">
            <Table verticalSpacing="sm" highlightOnHover aria-label="Gateway clients">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Client</Table.Th>
                  <Table.Th>Sees</Table.Th>
                  <Table.Th>Last activity</Table.Th>
                  <Table.Th>Live</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {clients.map((c) => (
                  <ClientRow key={c.id} client={c} onOpen={setOpen} />
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
      </Stack>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Activity
        </Title>
        <ActivityList entries={activity} />
      </Stack>
      {open.kind === 'add' && <ClientDialog onClose={close} />}
      {open.kind === 'edit' && <ClientDialog existing={open.client} onClose={close} />}
      {open.kind === 'setup' && <SetupDialog client={open.client} onClose={close} />}
      {open.kind === 'remove' && <RemoveDialog client={open.client} onClose={close} />}
      <TokenDialog />
    </Stack>
  );
}
