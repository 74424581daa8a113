// The servers view's navigation: add / import / export, and every server as a link to its page with its
// transport and status in words. Rows are links in the native tab order; arrow keys also move between them.
import { Badge, Box, Button, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconFileExport, IconFileImport, IconPlus } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';
import { formatRoute, routes } from '../../router/route';
import { useStore } from '../../store';
import { selectServerList } from '../../store/servers-slice';
import { selectRouteServerId } from '../../store/ui-slice';
import { countLabel } from '../../ui/count';
import { StatusBadge } from '../../ui/StatusBadge';
import { oneLine } from '../../ui/text';
import { useShallow } from 'zustand/react/shallow';

/** Moves focus between the rows of a list with the arrow keys, Home and End. */
export function onRowKeys(e: KeyboardEvent<HTMLElement>): void {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return;
  const rows = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[data-row]'));
  const at = rows.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return;
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? rows.length - 1 : e.key === 'ArrowDown' ? at + 1 : at - 1;
  const target = rows[Math.max(0, Math.min(rows.length - 1, next))];
  if (target) {
    e.preventDefault();
    target.focus();
  }
}

/** The server list with add, import and export. */
export function Sidebar() {
  const servers = useStore(useShallow(selectServerList));
  const current = useStore(selectRouteServerId);
  const openDialog = useStore((s) => s.openDialog);
  return (
    <Stack gap="sm" p="md" h="100%">
      <Button variant="filled" fullWidth leftSection={<IconPlus size={16} aria-hidden />} onClick={() => openDialog({ kind: 'addServer' })}>
        Add server
      </Button>
      <Group gap="xs" grow wrap="nowrap">
        <Button size="xs" leftSection={<IconFileImport size={14} aria-hidden />} onClick={() => openDialog({ kind: 'import' })}>
          Import
        </Button>
        <Button
          size="xs"
          leftSection={<IconFileExport size={14} aria-hidden />}
          onClick={() => openDialog({ kind: 'export' })}
          disabled={servers.length === 0}
        >
          Export
        </Button>
      </Group>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" mt="xs" id="server-list-label">
        {countLabel(servers.length, 'server', 'servers', 'No servers')}
      </Text>
      <ScrollArea style={{ flex: 1 }} type="auto" offsetScrollbars>
        <Box component="ul" aria-label="Server list" m={0} p={0} style={{ listStyle: 'none' }} onKeyDown={onRowKeys}>
          {servers.map((s) => {
            const active = s.id === current;
            return (
              <li key={s.id}>
                <a
                  href={formatRoute(routes.servers(s.id))}
                  className="sb-row"
                  data-row
                  data-active={active || undefined}
                  aria-current={active ? 'page' : undefined}
                >
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text component="span" fw={500} size="sm" truncate>
                      {oneLine(s.name)}
                    </Text>
                    <Badge component="span" size="xs" variant="outline" color="gray" radius="sm" tt="none">
                      {s.transport}
                    </Badge>
                  </Group>
                  <Box mt={4}>
                    <StatusBadge server={s} size="xs" />
                  </Box>
                </a>
              </li>
            );
          })}
        </Box>
      </ScrollArea>
    </Stack>
  );
}
