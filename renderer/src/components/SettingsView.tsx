// Settings and About: what this Switchboard is (version, shell, platform) and where it keeps things: the data
// folder, the log file (rotating, secrets masked; the first place to look when something fails) and where secrets
// live. Paths come from the core as plain text; each can be copied.
import { ActionIcon, Alert, Badge, Code, CopyButton, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { AppInfo } from '../../../shared/contract';
import { useStore } from '../store';
import { selectAppInfo } from '../store/app-slice';

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
      {!info.credentialStore.persistent && (
        <Alert color="orange" title="Secrets will not survive a restart" styles={{ title: { color: 'var(--mantine-color-text)' } }}>
          Install and unlock a keychain (for example gnome-keyring on Linux) and restart Switchboard to keep them.
        </Alert>
      )}
    </Stack>
  );
}
