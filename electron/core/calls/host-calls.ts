// Builds the core's call service: definitions, events, the session controller's clients, the catalog, the
// elicitation broker for MRTR rounds and the client features' part in calls.
import { join } from 'node:path';
import type { AppNotice } from '../../../shared/contract.js';
import { AppError } from '../../../shared/errors.js';
import type { CatalogPort } from '../catalog/catalog-port.js';
import { parseElicitParams } from '../elicitation/elicit-params.js';
import type { ElicitationBroker } from '../elicitation/elicitation-broker.js';
import type { EventBus } from '../event-bus.js';
import type { ServerConfig } from '../../../shared/config.js';
import type { SessionController } from '../sessions/session-controller.js';
import { CallService, type CallFeatureHooks } from './call-service.js';
import type { RunningCalls } from './running-calls.js';

/** The history file's name in the data folder. */
export const HISTORY_FILE = 'call-history.json';

/** What the core's call service is built from. */
export interface CoreCallsDeps {
  events: Pick<EventBus, 'emit'>;
  config(id: string): ServerConfig;
  sessions: Pick<SessionController, 'client' | 'connectedClient' | 'status'>;
  catalog: CatalogPort;
  /** The data folder (the history file lives there). */
  dataDir: string;
  notify(notice: AppNotice): void;
  elicitation: ElicitationBroker;
  features: CallFeatureHooks;
  running: RunningCalls;
  /** True once the core's shutdown has begun: from then on no call starts. */
  closing(): boolean;
}

/** The core's call service. */
export function createHostCalls(deps: CoreCallsDeps): CallService {
  const { sessions, catalog, elicitation } = deps;
  return new CallService({
    events: deps.events,
    config: (id) => deps.config(id),
    client: (id) => sessions.client(id),
    connectedClient: (id) => sessions.connectedClient?.(id),
    catalog: () => catalog,
    historyFile: () => join(deps.dataDir, HISTORY_FILE),
    closeReason: (id) => sessions.status(id).error?.message,
    notify: (notice) => deps.notify(notice),
    // MRTR elicitation rounds of tool calls use the same broker and dialog as legacy elicitation/create.
    elicit: async (serverId, params, signal) => {
      const request = parseElicitParams(params);
      return request ? elicitation.request(serverId, request, signal) : { action: 'decline' };
    },
    features: deps.features,
    running: deps.running,
    refuse: (id) =>
      deps.closing()
        ? new AppError('shutting_down', 'Switchboard is shutting down, so it starts no new tool call.', { serverId: id })
        : undefined,
  });
}
