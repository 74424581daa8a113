// The servers view's main area: the server named in the location (#/servers/<id>/<tab>), the first-run offer, or
// a hint to pick one.
import { Group, Loader, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useStore } from '../../store';
import { selectRouteServerId } from '../../store/ui-slice';
import { selectServerCount } from '../../store/servers-slice';
import { EmptyState } from './EmptyState';
import { Lazy, lazyNamed } from '../../ui/lazy';

// A server's page (and its tabs) loads when a server is first opened: the list alone is the first view.
const ServerPage = lazyNamed(() => import('./ServerPage'), 'ServerPage');

/** Follows the location's server id and shows that server. */
export function ServersView() {
  const routeId = useStore(selectRouteServerId);
  const selectedId = useStore((s) => s.selectedId);
  const select = useStore((s) => s.select);
  const loaded = useStore((s) => s.loaded);
  const count = useStore(selectServerCount);
  const known = useStore((s) => (routeId ? s.serversById[routeId] !== undefined : false));
  useEffect(() => {
    if (routeId !== selectedId) void select(routeId).catch(() => undefined);
  }, [routeId, selectedId, select]);

  if (!loaded)
    return (
      <Group aria-busy="true" gap="xs">
        <Loader size="xs" aria-hidden />
        <Text>Loading…</Text>
      </Group>
    );
  if (routeId && known)
    return (
      <Lazy>
        <ServerPage />
      </Lazy>
    );
  if (routeId)
    return (
      <Text c="dimmed" role="status">
        There is no server with the id “{routeId}”. Pick one from the list.
      </Text>
    );
  if (count === 0) return <EmptyState />;
  return (
    <Text c="dimmed" mt="md">
      Pick a server from the list to see its status, tools, resources and prompts.
    </Text>
  );
}
