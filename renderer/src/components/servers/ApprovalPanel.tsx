// Shows the exact launch, untruncated, and asks for consent before anything is spawned; what parts of the launch do
// beyond running the program named (a shell string, host access, preloaded code) is said in plain words first.
import { Alert, Button, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconShieldCheck } from '@tabler/icons-react';
import type { LaunchApproval } from '../../../../shared/contract';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';
import { LaunchDetails, LaunchWarnings, Row } from './LaunchDetails';

/** The launch approval panel of a stdio server. */
export function ApprovalPanel(props: { id: string; approval: LaunchApproval }) {
  const approve = useStore((s) => s.approve);
  const openDialog = useStore((s) => s.openDialog);
  const a = props.approval;
  // A secret the approved launch had is gone (kept in memory, lost with the restart): approving now would approve a
  // launch without it, so the one action is entering it again.
  const lost = a.lostSecrets;
  return (
    <Paper
      component="section"
      aria-labelledby="launch-approval-title"
      withBorder
      p="md"
      style={{ borderColor: 'var(--mantine-color-yellow-filled)', background: 'var(--mantine-color-yellow-light)' }}
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconShieldCheck size={20} aria-hidden />
          <Title order={2} size="h4" id="launch-approval-title">
            Approve this command before it runs
          </Title>
        </Group>
        <Text size="sm">
          Switchboard will start this program on your computer. Nothing runs until you approve it, and any change needs approval again.
        </Text>
        <LaunchWarnings approval={a} />
        {a.lastApproval === 'legacy' && (
          <Text size="sm">An earlier version approved this launch without checking environment values; approve it once more.</Text>
        )}
        {lost.length > 0 && (
          <Alert color="red" variant="light" p="sm" icon={<IconKey size={18} aria-hidden />} data-testid="approval-lost-secrets">
            <Stack gap={6}>
              <Text size="sm" fw={600}>
                {lost.length === 1 ? 'A secret is missing: ' : 'Secrets are missing: '}
                {lost.map((name, i) => (
                  <span key={name}>
                    {i > 0 && ', '}
                    <Code>{cleanText(name)}</Code>
                  </span>
                ))}
              </Text>
              <Text size="sm">
                {lost.length === 1 ? 'It was' : 'They were'} kept in memory only (no OS keychain) and did not survive the restart. This
                launch can be approved once {lost.length === 1 ? 'it is' : 'they are'} entered again.
              </Text>
              <Group>
                <Button
                  size="xs"
                  leftSection={<IconKey size={14} aria-hidden />}
                  onClick={() => openDialog({ kind: 'editServer', id: props.id })}
                >
                  Enter {lost.length === 1 ? 'it' : 'them'} again
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {a.changes.length > 0 && (
          <Row label="Changed since your last approval">
            <List size="sm" aria-label="Changes since the last approval" spacing={2} data-testid="approval-changes">
              {a.changes.map((c, i) => (
                <List.Item key={i}>
                  <Text size="sm" fw={600} span>
                    {cleanText(c.summary)}
                  </Text>
                </List.Item>
              ))}
            </List>
          </Row>
        )}
        <LaunchDetails approval={a} />
        <Group>
          <Button variant="filled" disabled={lost.length > 0} onClick={() => void approve(props.id, a.fingerprint)}>
            Approve and allow to run
          </Button>
          {lost.length > 0 && <Text size="sm">Enter the missing {lost.length === 1 ? 'secret' : 'secrets'} first.</Text>}
        </Group>
      </Stack>
    </Paper>
  );
}
