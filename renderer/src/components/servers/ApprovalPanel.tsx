// Shows the exact launch, untruncated, and asks for consent before anything is spawned; what parts of the launch do
// beyond running the program named (a shell string, host access, preloaded code) is said in plain words first.
import { Alert, Box, Button, Code, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconAlertTriangle, IconKey, IconShieldCheck } from '@tabler/icons-react';
import type { LaunchApproval } from '../../../../shared/contract';
import { useStore } from '../../store';
import { cleanText } from '../../ui/text';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" fw={600} tt="uppercase">
        {label}
      </Text>
      {children}
    </Box>
  );
}

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
        {a.warnings.length > 0 && (
          <Alert
            color="red"
            variant="light"
            p="sm"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="What this launch also does"
            data-testid="approval-warnings"
          >
            <List size="sm" spacing={4} aria-label="What this launch also does">
              {a.warnings.map((w, i) => (
                <List.Item key={`${w.code}-${i}`}>{cleanText(w.text)}</List.Item>
              ))}
            </List>
          </Alert>
        )}
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
        <Row label="Command">
          <Code block className="sb-mono" data-testid="approval-command">
            {cleanText(a.command)}
          </Code>
        </Row>
        <Row label="Arguments">
          {a.args.length === 0 ? (
            <Text size="sm" c="dimmed">
              None
            </Text>
          ) : (
            <List type="ordered" size="sm" aria-label="Arguments" className="sb-mono" spacing={2}>
              {a.args.map((arg, i) => (
                <List.Item key={i}>
                  <Code>{cleanText(arg) || '""'}</Code>
                </List.Item>
              ))}
            </List>
          )}
        </Row>
        {a.cwd && (
          <Row label="Working directory">
            <Code className="sb-mono">{cleanText(a.cwd)}</Code>
          </Row>
        )}
        <Row label="Environment variables">
          {a.env.length === 0 ? (
            <Text size="sm">None{a.inheritEnv ? ' (plus the whole inherited environment)' : ''}</Text>
          ) : (
            <List size="sm" aria-label="Environment variables" className="sb-mono" spacing={2}>
              {a.env.map((e) => (
                <List.Item key={e.name}>
                  <Code>{cleanText(e.name)}</Code>{' '}
                  {e.secret ? (
                    e.isSet ? (
                      '(secret, set)'
                    ) : lost.includes(e.name) ? (
                      <Text span size="sm" fw={700}>
                        (secret, missing: enter it again)
                      </Text>
                    ) : (
                      '(secret, not set)'
                    )
                  ) : (
                    <Code>{cleanText(e.value ?? '')}</Code>
                  )}
                </List.Item>
              ))}
            </List>
          )}
          {a.env.length > 0 && a.inheritEnv && <Text size="sm">Plus the whole inherited environment.</Text>}
        </Row>
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
