// Settings and About: what this Switchboard is (version, shell, platform) and where it keeps things: the data
// folder, the log file (rotating, secrets masked; the first place to look when something fails) and where secrets
// live. Paths come from the core as plain text; each can be copied. Server processes left running by an earlier run
// that was stopped abruptly are listed by command line (as text) and can be ended after a confirmation.
import { ActionIcon, Alert, Badge, Button, Code, CopyButton, Group, List, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState, type ReactNode } from 'react';
import type { AppInfo } from '../../../../shared/contract';
import { useStore } from '../../store';
import { selectAppInfo, selectLeftovers } from '../../store/app-slice';
import { AppDialog } from '../../ui/AppDialog';
import { TracingSettings } from './TracingSettings';

const STORES: Record<AppInfo['credentialStore']['kind'], { label: string; detail: string }> = {
  keychain: { label: 'OS keychain', detail: 'Secrets and sign-ins are kept in the operating system’s keychain.' },
  safeStorage: {
    label: 'Encrypted file',
    detail: 'No keychain answered, so secrets are encrypted with the platform key store in a file in the data folder.',
  },
  memory: { label: 'Memory only', detail: 'No keychain is available: secrets and sign-ins are lost when Switchboard stops.' },
};

/** Secondary text with AA contrast in both schemes (Mantine's "dimmed" is too light on white). */
const HINT = 'light-dark(var(--mantine-color-gray-7), var(--mantine-color-dark-1))';

/** A path with a copy button. */
function PathValue({ path, what }: { path: string; what: string }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block={false} style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {path}
      </Code>
      <CopyButton value={path} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : `Copy the ${what}`}>
            <ActionIcon onClick={copy} aria-label={`Copy the ${what}`} color={copied ? 'teal' : 'gray'}>
              {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** One labelled row. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={180} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td style={{ verticalAlign: 'top' }}>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Server process groups from an earlier run, each by its command line, with one action that ends them all. */
function LeftoverProcesses() {
  const leftovers = useStore(selectLeftovers);
  const loadLeftovers = useStore((s) => s.loadLeftovers);
  const endLeftovers = useStore((s) => s.endLeftovers);
  const [confirming, setConfirming] = useState(false);
  const [ending, setEnding] = useState(false);
  useEffect(() => {
    void loadLeftovers();
  }, [loadLeftovers]);
  if (!leftovers || leftovers.length === 0) return null;
  const end = async (): Promise<void> => {
    setEnding(true);
    await endLeftovers();
    setEnding(false);
    setConfirming(false);
  };
  const count =
    leftovers.length === 1
      ? 'this process group to stop, and forces it'
      : `these ${leftovers.length} process groups to stop, and forces them`;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="leftovers-heading" data-testid="leftover-processes">
      <Title order={2} size="h4" id="leftovers-heading" mb="sm">
        Processes from an earlier run
      </Title>
      <Text size="sm" mb="sm">
        Switchboard was stopped before it could end these servers, and they are still running. Each was checked to be the very process
        Switchboard started.
      </Text>
      <List spacing="xs" mb="md">
        {leftovers.map((l) => (
          <List.Item key={l.pgid}>
            <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
              {l.command}
            </Code>
            <Text size="sm" c={HINT}>
              Server {l.serverId}, process group {l.pgid}, started {new Date(l.startedAt).toLocaleString()}
            </Text>
          </List.Item>
        ))}
      </List>
      <Button variant="filled" color="red.8" onClick={() => setConfirming(true)}>
        End them
      </Button>
      <AppDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="End the processes from an earlier run?"
        describedBy="leftovers-confirm"
        actions={
          <>
            <Button variant="default" onClick={() => setConfirming(false)} disabled={ending}>
              Cancel
            </Button>
            <Button variant="filled" color="red.8" onClick={() => void end()} loading={ending}>
              End them
            </Button>
          </>
        }
      >
        <Text id="leftovers-confirm">Switchboard asks {count} after two seconds. Work they have not saved is lost.</Text>
      </AppDialog>
    </Paper>
  );
}

/** The Settings view. */
export function SettingsView() {
  const info = useStore(selectAppInfo);
  if (!info) return <Text aria-busy="true">Loading…</Text>;
  const store = STORES[info.credentialStore.kind];
  return (
    <Stack gap="lg" maw={900} data-testid="settings-view">
      <Title order={1} size="h2">
        Settings
      </Title>
      <Paper withBorder p="md" component="section" aria-labelledby="about-heading">
        <Title order={2} size="h4" id="about-heading" mb="sm">
          About
        </Title>
        <Table withRowBorders={false} verticalSpacing={6}>
          <Table.Tbody>
            <Row label="Version">
              <Text span>
                {info.name} {info.version}
              </Text>
            </Row>
            <Row label="Running as">
              <Text span>{info.mode === 'electron' ? 'Desktop app' : 'Headless, in this browser'}</Text>
            </Row>
            <Row label="Platform">
              <Text span>{info.platform}</Text>
            </Row>
          </Table.Tbody>
        </Table>
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="storage-heading">
        <Title order={2} size="h4" id="storage-heading" mb="sm">
          Where Switchboard keeps things
        </Title>
        <Table withRowBorders={false} verticalSpacing={6}>
          <Table.Tbody>
            <Row label="Data folder">
              <PathValue path={info.dataDir} what="data folder path" />
              <Text size="sm" c={HINT} mt={4}>
                Settings, call history, tool approvals. One Switchboard at a time uses it.
              </Text>
            </Row>
            <Row label="Log file">
              {info.logFile ? (
                <>
                  <PathValue path={info.logFile} what="log file path" />
                  <Text size="sm" c={HINT} mt={4}>
                    Rotates at 5 MiB, three files kept; secrets are masked. Include it when reporting a problem.
                  </Text>
                </>
              ) : (
                <Text span c={HINT}>
                  This shell keeps no log file.
                </Text>
              )}
            </Row>
            <Row label="Secrets">
              <Group gap="xs">
                <Badge variant="filled" autoContrast color={info.credentialStore.persistent ? 'brand' : 'orange.3'}>
                  {store.label}
                </Badge>
              </Group>
              <Text size="sm" c={HINT} mt={4}>
                {store.detail}
              </Text>
            </Row>
          </Table.Tbody>
        </Table>
      </Paper>
      <TracingSettings />
      <LeftoverProcesses />
      {!info.credentialStore.persistent && (
        <Alert color="orange" title="Secrets will not survive a restart" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          Install and unlock a keychain (for example gnome-keyring on Linux) and restart Switchboard to keep them.
        </Alert>
      )}
    </Stack>
  );
}
