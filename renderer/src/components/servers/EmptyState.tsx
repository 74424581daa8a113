// First run: what Switchboard does and the ways to add a first server.
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconFileImport, IconPlus, IconSparkles } from '@tabler/icons-react';
import { useStore } from '../../store';

/** First-run explanation of how to add a first server. */
export function EmptyState() {
  const openDialog = useStore((s) => s.openDialog);
  const offerDemo = useStore((s) => s.info?.offerDemo ?? false);
  const addDemo = useStore((s) => s.addDemo);
  return (
    <Paper component="section" aria-labelledby="empty-title" withBorder p="xl" maw={720} mx="auto" mt="xl">
      <Stack gap="md">
        <Title order={1} id="empty-title" size="h2">
          No servers yet
        </Title>
        <Text>
          Switchboard connects to Model Context Protocol servers: local programs started over stdio, or remote endpoints over Streamable
          HTTP or legacy SSE. Add one by hand, or import the servers you already configured in Claude Desktop, VS Code or Cursor.
        </Text>
        <Group gap="sm">
          <Button variant="filled" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openDialog({ kind: 'addServer' })}>
            Add your first server
          </Button>
          <Button leftSection={<IconFileImport size={16} aria-hidden />} onClick={() => openDialog({ kind: 'import' })}>
            Import from another app
          </Button>
          {offerDemo && (
            <Button leftSection={<IconSparkles size={16} aria-hidden />} onClick={() => void addDemo()}>
              Try the demo server
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
