// The exact launch of a server definition, before anything is saved or run: the program and each argument on its own
// line (as the process will receive them, never joined or quoted away), the environment names (secret ones marked,
// values never shown), or the URL and header names of a remote server.
import { Badge, Code, Divider, Group, List, Stack, Text } from '@mantine/core';
import type { ServerConfigInput } from '../../../../shared/config';
import { escapeUnsafe } from '../../../../shared/domains/catalog-text';

/** Shows a definition's launch. */
export function LaunchPreview({ config, label = 'Launch' }: { config: ServerConfigInput; label?: string }) {
  const t = config.transport;
  if (t.type === 'stdio') {
    const env = Object.entries(t.env ?? {});
    return (
      <Stack gap={6} aria-label={label} role="group">
        <Text fz="sm" fw={600}>
          Program
        </Text>
        <Code block data-testid="launch-command">
          {escapeUnsafe(t.command)}
        </Code>
        <Text fz="sm" fw={600}>
          Arguments {t.args && t.args.length > 0 ? `(${t.args.length})` : ''}
        </Text>
        {t.args && t.args.length > 0 ? (
          <List type="ordered" size="sm" spacing={2} aria-label="Arguments" data-testid="launch-args">
            {t.args.map((arg, i) => (
              <List.Item key={i}>
                <Code>{escapeUnsafe(arg)}</Code>
              </List.Item>
            ))}
          </List>
        ) : (
          <Text fz="sm" c="dimmed">
            None
          </Text>
        )}
        {t.cwd !== undefined && (
          <>
            <Text fz="sm" fw={600}>
              Working directory
            </Text>
            <Code block>{escapeUnsafe(t.cwd)}</Code>
          </>
        )}
        <Text fz="sm" fw={600}>
          Environment
        </Text>
        {env.length > 0 ? (
          <Group gap={6} data-testid="launch-env">
            {env.map(([key, value]) => (
              <Badge
                key={key}
                variant={typeof value === 'string' ? 'default' : 'light'}
                color={typeof value === 'string' ? 'gray' : 'grape'}
                tt="none"
              >
                {escapeUnsafe(key)}
                {typeof value === 'string' ? '' : ' (secret)'}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text fz="sm" c="dimmed">
            Only the essentials (PATH, HOME, …)
          </Text>
        )}
      </Stack>
    );
  }
  const headers = Object.keys(t.headers ?? {});
  return (
    <Stack gap={6} aria-label={label} role="group">
      <Text fz="sm" fw={600}>
        {t.type === 'sse' ? 'Legacy SSE endpoint' : 'Streamable HTTP endpoint'}
      </Text>
      <Code block data-testid="launch-url">
        {escapeUnsafe(t.url)}
      </Code>
      <Text fz="sm" fw={600}>
        Headers
      </Text>
      {headers.length > 0 ? (
        <Group gap={6}>
          {headers.map((h) => (
            <Badge key={h} variant="default" tt="none">
              {escapeUnsafe(h)}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text fz="sm" c="dimmed">
          None
        </Text>
      )}
    </Stack>
  );
}

/** The "What will run" section of a dialog: the exact launch, and what happens to it next. */
export function WhatWillRun({ config, next }: { config: ServerConfigInput; next: string }) {
  return (
    <>
      <Divider label="What will run" labelPosition="left" />
      <LaunchPreview config={config} />
      <Text fz="sm" c="dimmed">
        {next}
      </Text>
    </>
  );
}
