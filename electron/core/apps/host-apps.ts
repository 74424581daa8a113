// Wires the apps service to the Host: definitions, events, session clients, the catalog, the call service, the
// safe URL opener, the gateway's port (which no app may reach) and a grants file next to the settings. Removing a
// server ends its launches and grants.
import type { Client } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import type { Host } from '../host.js';
import { AppsService, type AppsCatalog } from './apps-service.js';

/** Builds the Host's apps service. Session clients, the catalog and the opener are looked up at use time. */
export function createHostApps(host: Host, dataDir: string | undefined): AppsService {
  const apps = new AppsService({
    events: host.events,
    config: (id) => host.config(id),
    client: (id) => {
      const sessions = host.sessions as { client?: (id: string) => Promise<Client> };
      if (typeof sessions.client !== 'function') {
        return Promise.reject(new AppError('connect_failed', 'Connecting to servers is not available in this build', { serverId: id }));
      }
      return sessions.client(id);
    },
    catalog: () => (host as { catalog?: AppsCatalog }).catalog,
    calls: host.calls,
    opener: () => host.interaction.urlOpener,
    serverIds: () => host.configs().map((c) => c.id),
    reservedPorts: () => {
      const port = host.gateway.status().port;
      return port !== undefined && port > 0 ? [port] : [];
    },
    ...(dataDir !== undefined ? { dataDir } : {}),
  });
  host.sessionEvents.subscribe((event) => {
    if (event.type === 'removed') apps.forgetServer(event.id);
    else if (event.type === 'resourceUpdated') apps.invalidate(event.id, event.uri);
    else if (
      event.type === 'connected' ||
      event.type === 'closed' ||
      event.type === 'resourcesListChanged' ||
      event.type === 'toolsListChanged'
    )
      apps.invalidate(event.id);
  });
  return apps;
}
