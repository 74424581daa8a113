// The tasks a 2025-11-25 server keeps (tasks/list): id, status, message, last change. Read on demand.
import { Alert, Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { AppError } from '../../../../shared/errors';
import { useStore } from '../../store';
import { countLabel } from '../../ui/count';

const STATUS_COLOR: Record<string, string> = {
  working: 'blue',
  input_required: 'orange',
  completed: 'teal',
  failed: 'red',
  cancelled: 'gray',
};

/** A server's task inventory. */
export function ServerTasks({ serverId }: { serverId: string }) {
  const state = useStore((s) => s.serverTasks[serverId]);
  const load = useStore((s) => s.loadServerTasks);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const refresh = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await load(serverId);
    } catch (err) {
      setFailure(err instanceof AppError ? err.message : 'The tasks could not be read');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={`tasks-${serverId}`} mt="sm">
      <Group justify="space-between" mb="xs">
        <Title order={3} fz="md" id={`tasks-${serverId}`}>
          Tasks on the server
        </Title>
        <Button size="xs" leftSection={<IconRefresh size={14} aria-hidden />} loading={busy} onClick={() => void refresh()}>
          {state ? 'Refresh' : 'Show tasks'}
        </Button>
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      )}
      {state && !state.supported && <Text fz="sm">This server keeps no task list (it does not offer tasks/list).</Text>}
      {state?.supported && (
        <>
          <Text fz="sm" className="sb-quiet" mb={4}>
            {countLabel(state.tasks.length, 'task')}
          </Text>
          {state.tasks.length > 0 && (
            <Table fz="sm" withTableBorder data-testid="server-tasks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Task</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Message</Table.Th>
                  <Table.Th>Last change</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {state.tasks.map((t) => (
                  <Table.Tr key={t.taskId}>
                    <Table.Td className="sb-mono" style={{ overflowWrap: 'anywhere' }}>
                      {t.taskId}
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATUS_COLOR[t.status] ?? 'gray'} c="var(--mantine-color-text)">
                        {t.status}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{t.statusMessage ?? ''}</Table.Td>
                    <Table.Td>{t.lastUpdatedAt ? new Date(t.lastUpdatedAt).toLocaleString() : ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </>
      )}
    </Paper>
  );
}
