// Wires the call service to the Host: definitions, events, the session manager's clients and the catalog.
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { AppError } from '../../../shared/errors.js';
import type { CatalogPort } from '../catalog/catalog-port.js';
import type { Host } from '../host.js';
import { CallService } from './call-service.js';

/** The history file's name in the data folder. */
export const HISTORY_FILE = 'call-history.json';

/** Builds the Host's call service. Session clients and the catalog are looked up at call time. */
export function createHostCalls(host: Host): CallService {
  return new CallService({
    events: host.events,
    config: (id) => host.config(id),
    client: (id) => {
      const sessions = host.sessions as { client?: (id: string) => Promise<Client> };
      if (typeof sessions.client !== 'function') {
        return Promise.reject(new AppError('connect_failed', 'Connecting to servers is not available in this build', { serverId: id }));
      }
      return sessions.client(id);
    },
    catalog: () => (host as { catalog?: CatalogPort }).catalog,
    historyFile: () => join(host.info().dataDir, HISTORY_FILE),
    closeReason: (id) => host.sessions.status(id).error?.message,
    notify: (notice) => host.notify(notice),
  });
}
