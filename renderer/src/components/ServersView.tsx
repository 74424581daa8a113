// The servers view's main area: the server named in the location (#/servers/<id>/<tab>), the first-run offer, or
// a hint to pick one.
import { Text } from '@mantine/core';
import { useEffect } from 'react';
import { useStore } from '../store';
import { selectRouteServerId } from '../store/ui-slice';
import { EmptyState } from './EmptyState';
import { ServerPage } from './ServerPage';

/** Follows the location's server id and shows that server. */
export function ServersView() {
  const routeId = useStore(selectRouteServerId);
  const selectedId = useStore((s) => s.selectedId);
  const select = useStore((s) => s.select);
  const loaded = useStore((s) => s.loaded);
  const count = useStore((s) => s.servers.length);
  useEffect(() => {
    if (routeId !== selectedId) void select(routeId);
  }, [routeId, selectedId, select]);

  if (!loaded) return <Text aria-busy="true">Loading…</Text>;
  if (routeId) return <ServerPage />;
  if (count === 0) return <EmptyState />;
  return <Text c="dimmed">Select a server.</Text>;
}
