// The exact launch of a stdio server, untruncated: what it also does (shell strings, host access, preloaded code) in
// plain words, then its command, arguments, working directory and environment. Shared by the approval panel and the
// review of imported launches, so both show a launch the same way, in full.
import { Alert, Box, Code, List, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { LaunchApproval } from '../../../../shared/contract';
import { cleanText } from '../../ui/text';

/** One labelled part of a launch. */
export function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Text size="xs" fw={600} tt="uppercase">
        {label}
      </Text>
      {children}
    </Box>
  );
}

/** What the launch does beyond running the program named, when anything. */
export function LaunchWarnings({ approval: a }: { approval: LaunchApproval }) {
  if (a.warnings.length === 0) return null;
  return (
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
  );
}

/** Command, arguments, working directory and environment of the launch. */
export function LaunchDetails({ approval: a }: { approval: LaunchApproval }) {
  const lost = a.lostSecrets;
  return (
    <>
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
    </>
  );
}
